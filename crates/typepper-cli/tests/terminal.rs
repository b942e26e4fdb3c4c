//! The terminal game in a real terminal: tmux runs `typepper` with a temporary data dir,
//! and the test plays it as a person would, reading the words off the screen.
//!
//! The binary is `$TYPEPPER_CLI` (`cargo xtask test` points it at the release build), or
//! this test build's own.

#![allow(clippy::unwrap_used)] // a test: a failure is a panic with its place

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The menu as it opens, BLITZ picked at its clock.
const MENU: &str = "▸ BLITZ  ‹ 15s ›";

/// How long a test types into a BLITZ 15s round: stopping before its end keeps keys off
/// the results screen.
const TYPING: Duration = Duration::from_secs(13);

fn binary() -> PathBuf {
    std::env::var_os("TYPEPPER_CLI").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_typepper")),
        PathBuf::from,
    )
}

/// A tmux session of its own (its own server socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// Starts the game in a 100×30 terminal, with `args`.
    fn start(name: &str, data: &Path, args: &str) -> Tmux {
        Tmux::start_with(name, data, "", args)
    }

    /// The same, with more of the environment (`NAME='value' …`).
    fn start_with(name: &str, data: &Path, env: &str, args: &str) -> Tmux {
        Tmux::run(
            name,
            &format!(
                "TYPEPPER_DATA_DIR={} {env} {} {args}",
                data.display(),
                binary().display()
            ),
        )
    }

    /// Runs `command` in a 100×30 xterm, saying how it exited.
    fn run(name: &str, command: &str) -> Tmux {
        let tmux = Tmux {
            socket: format!("typepper-test-{name}-{}", std::process::id()),
        };
        let command = format!("TERM=xterm-256color {command}; echo EXITED $?; sleep 60");
        let ok = tmux
            .cmd(&["new-session", "-d", "-x", "100", "-y", "30", &command])
            .status()
            .unwrap()
            .success();
        assert!(ok, "tmux new-session failed");
        tmux
    }

    fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.socket]).args(args);
        c
    }

    fn screen(&self) -> String {
        let out = self.cmd(&["capture-pane", "-p"]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn cursor(&self) -> (usize, usize) {
        let out = self
            .cmd(&["display", "-p", "#{cursor_x} #{cursor_y}"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let mut it = text.split_whitespace().map(|n| n.parse().unwrap());
        (it.next().unwrap(), it.next().unwrap())
    }

    fn keys(&self, keys: &[&str]) {
        assert!(
            self.cmd(&["send-keys"])
                .args(keys)
                .status()
                .unwrap()
                .success()
        );
    }

    fn type_text(&self, text: &str) {
        assert!(
            self.cmd(&["send-keys", "-l", text])
                .status()
                .unwrap()
                .success()
        );
    }

    /// Waits until the screen holds `text`; the screen.
    fn wait_for(&self, text: &str, secs: u64) -> String {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "no {text:?} on screen after {secs} s:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Types the word under the caret and a space, as read off the screen.
    fn type_next_word(&self) -> bool {
        self.type_next_word_with(&mut || Duration::from_millis(30), None)
    }

    /// The same, waiting `gap()` after each key, and typing nothing from `until` on.
    fn type_next_word_with(
        &self,
        gap: &mut dyn FnMut() -> Duration,
        until: Option<Instant>,
    ) -> bool {
        // A busy machine may show the screen a moment before the caret is on it.
        let deadline = Instant::now() + Duration::from_secs(2);
        let deadline = until.map_or(deadline, |u| u.min(deadline));
        let word = loop {
            let (x, y) = self.cursor();
            let screen = self.screen();
            let line = screen.lines().nth(y).unwrap_or_default();
            let rest: String = line.chars().skip(x).collect();
            if let Some(word) = rest.split_whitespace().next() {
                break word.to_owned();
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        for c in word.chars().chain([' ']) {
            if until.is_some_and(|u| Instant::now() >= u) {
                break;
            }
            self.type_text(&c.to_string());
            std::thread::sleep(gap());
        }
        true
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]).status();
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("typepper-term-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether tmux is here; under `cargo xtask test`, which installs it, it must be.
/// A new ed25519 key `name` in `dir`, with no passphrase, made by OpenSSH's
/// `ssh-keygen`: its path.
fn keygen(dir: &Path, name: &str) -> PathBuf {
    let key = dir.join(name);
    let made = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(&key)
        .status()
        .unwrap();
    assert!(made.success());
    key
}

/// The `typepper` binary in tmux (`name`, data in `data`) against `server` over SSH with
/// `key`, linked as `player` from its link screen.
fn linked_game(name: &str, data: &Path, key: &Path, server: &Server, player: &str) -> Tmux {
    let env = format!(
        "TYPEPPER_SSH='ssh -i {} -o IdentitiesOnly=yes -o UserKnownHostsFile=/dev/null \
         -o StrictHostKeyChecking=no -o LogLevel=ERROR'",
        key.display()
    );
    let game = Tmux::start_with(
        name,
        data,
        &env,
        &format!("--server ssh://127.0.0.1:{}", server.ssh_port),
    );
    game.wait_for(MENU, 10);
    game.type_text("l");
    game.wait_for("link this game", 5);
    game.type_text(player);
    game.keys(&["Enter"]);
    game
}

fn has_tmux() -> bool {
    typepper_testing::tool("tmux", "-V")
}

/// The headline `typepper score` gives a replay file: `209 wpm`.
fn scored_headline(file: &Path) -> String {
    let out = Command::new(binary())
        .args(["score", "--json"])
        .arg(file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    json["headline"]["text"].as_str().unwrap().to_owned()
}

#[test]
fn a_blitz_round_typed_off_the_screen_is_kept_and_watched_again() {
    if !has_tmux() {
        return;
    }
    let data = temp_dir("blitz");
    let game = Tmux::start("blitz", &data, "");
    game.wait_for(MENU, 10);
    game.type_text("1");
    game.wait_for("15  BLITZ 15s", 10);
    game.wait_for("start typing", 5);
    // The round ends 15 s after its first key.
    let until = Instant::now() + TYPING;
    let mut words = 0;
    while Instant::now() < until {
        if game.type_next_word_with(&mut || Duration::from_millis(30), Some(until)) {
            words += 1;
        }
    }
    assert!(words >= 5, "typed {words} words");
    // Typing on through its end, as a player does: h, r and g, history, watch and race on
    // the results, are held a moment there, not taken for commands.
    while !game.screen().contains("accuracy") {
        game.type_text("hrg");
        std::thread::sleep(Duration::from_millis(100));
    }
    game.type_text("hrghrg");
    std::thread::sleep(Duration::from_millis(300));
    let results = game.screen();
    assert!(results.contains("accuracy"), "still the results: {results}");
    let headline = results
        .lines()
        .find(|l| l.contains("wpm  BLITZ 15s"))
        .map(|l| l.split("  ").next().unwrap().trim().to_owned())
        .unwrap_or_else(|| panic!("no headline:\n{results}"));

    // Kept: last.replay in hex, one history line, and the score is the engine's.
    let last = data.join("last.replay");
    let hex = std::fs::read_to_string(&last).unwrap();
    assert!(hex.starts_with("54505201"), "{hex}");
    let history = std::fs::read_to_string(data.join("history")).unwrap();
    assert_eq!(history.lines().count(), 1);
    assert!(history.contains(hex.trim()), "the history holds the round");
    assert_eq!(scored_headline(&last), headline);

    // Leave, and the terminal is given back. Esc twice, as out of a round, stays in the
    // game: q on the menu leaves.
    game.keys(&["Escape"]);
    game.wait_for(MENU, 5);
    game.keys(&["Escape"]);
    std::thread::sleep(Duration::from_millis(300));
    let menu = game.wait_for(MENU, 5);
    assert!(menu.contains("q quits"), "{menu}");
    game.type_text("q");
    game.wait_for("EXITED 0", 5);
    drop(game);

    // `typepper --replay` plays the last round to the same results.
    let replay = Tmux::start("replay", &data, "--replay");
    watches_to(&replay, &headline);
    replay.keys(&["C-c"]);
    replay.wait_for("EXITED 0", 5);
    std::fs::remove_dir_all(&data).unwrap();
}

#[test]
fn a_zen_round_ends_with_esc() {
    if !has_tmux() {
        return;
    }
    let data = temp_dir("zen");
    let game = Tmux::start("zen", &data, "");
    game.wait_for(MENU, 10);
    game.type_text("z");
    game.wait_for("0:00  ZEN", 5);
    for _ in 0..4 {
        assert!(game.type_next_word());
    }
    game.keys(&["Escape"]);
    let results = game.wait_for("accuracy", 5);
    assert!(results.contains("wpm  ZEN"), "{results}");
    let history = std::fs::read_to_string(data.join("history")).unwrap();
    assert_eq!(history.lines().count(), 1);

    // g races the round just played, named as the menu names it (the only ZEN round, so your
    // best): its ghost types it again beside you, once the results have held their letters.
    std::thread::sleep(Duration::from_millis(1_100));
    game.type_text("g");
    game.wait_for("RACE · ZEN · vs your best here", 5);
    assert!(game.type_next_word());
    game.wait_for("vs your best here · ", 5);
    game.keys(&["Escape"]);
    let results = game.wait_for("accuracy", 5);
    assert!(
        results.contains("you won by")
            || results.contains("your best here won by")
            || results.contains("a tie at"),
        "{results}"
    );
    assert!(
        results.contains("wpm ") && results.contains(" vs "),
        "{results}"
    );
    let history = std::fs::read_to_string(data.join("history")).unwrap();
    assert_eq!(history.lines().count(), 2, "a race is a round of yours");
    game.keys(&["C-c"]);
    game.wait_for("EXITED 0", 5);
    std::fs::remove_dir_all(&data).unwrap();
}

#[test]
fn wide_characters_keep_the_caret_where_the_terminal_draws_them() {
    if !has_tmux() {
        return;
    }
    let data = temp_dir("wide");
    let game = Tmux::start("wide", &data, "");
    game.wait_for(MENU, 10);
    game.type_text("z");
    game.wait_for("0:00  ZEN", 5);
    let (x0, y) = game.cursor();
    let line = game.screen().lines().nth(y).unwrap().to_owned();
    let word: String = line.chars().skip(x0).take_while(|c| *c != ' ').collect();
    let next = line.chars().skip(x0).collect::<String>();
    let next = next.split_whitespace().nth(1).unwrap().to_owned();
    // The word, then four wide characters pasted onto it as extras.
    game.type_text(&word);
    game.type_text("中文中文");
    let typed = format!("{word}中文中文 {next}");
    let screen = game.wait_for(&typed, 5);
    let n = word.chars().count();
    assert_eq!(game.cursor(), (x0 + n + 8, y), "two cells each:\n{screen}");
    // On to the next word, which is where the caret says it is.
    game.type_text(" ");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(game.cursor(), (x0 + n + 9, y));
    game.type_text(&next);
    std::thread::sleep(Duration::from_millis(200));
    let screen = game.screen();
    assert_eq!(
        game.cursor(),
        (x0 + n + 9 + next.chars().count(), y),
        "{screen}"
    );
    game.keys(&["Escape"]);
    let results = game.wait_for("accuracy", 5);
    assert!(results.contains("words"), "{results}");
    drop(game);
    std::fs::remove_dir_all(&data).unwrap();
}

/// `typepper synth --rules 1` makes a round as an older game recorded it; `score` plays it
/// by its own rules, and `score --rules 2` by today's, beside it; a VERSION the engine
/// doesn't have is refused, to `--rules` and in a header alike.
#[test]
fn the_cli_scores_an_old_round_by_its_rules_and_by_todays() {
    let dir = temp_dir("cli-rules");
    let file = dir.join("old.replay");
    let run = |args: &[&str]| {
        Command::new(binary())
            .args(args)
            .arg(&file)
            .output()
            .unwrap()
    };
    let json = |out: std::process::Output| -> serde_json::Value {
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let made = Command::new(binary())
        .args(["synth", "--mode", "pursuit:7", "--seed", "3", "--wpm", "45"])
        .args(["--rules", "1", "--out"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let own = json(run(&["score", "--json"]));
    let today = json(run(&["score", "--json", "--rules", "2"]));
    assert_eq!(
        (own["engine"].as_u64(), own["rules"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(
        (today["engine"].as_u64(), today["rules"].as_u64()),
        (Some(1), Some(2))
    );
    // VERSION 1's HOT PURSUIT always peaked at 100, the flame's catch; VERSION 2's heat is
    // the streak's, and no headline changes.
    assert_eq!(own["peak_heat"].as_u64(), Some(100));
    assert!(today["peak_heat"].as_u64().unwrap() < 100, "{today}");
    assert_eq!(own["headline"], today["headline"]);
    let text = String::from_utf8(run(&["score", "--rules", "2"]).stdout).unwrap();
    assert!(
        text.lines()
            .next()
            .unwrap()
            .ends_with("engine 1 · played under VERSION 2's rules"),
        "{text}"
    );
    let text = String::from_utf8(run(&["inspect"]).stdout).unwrap();
    assert!(
        text.contains("engine  1 (VERSION 1's rules, which it plays by; the newest are VERSION 2)"),
        "{text}"
    );
    let refused = run(&["score", "--json", "--rules", "3"]);
    assert!(!refused.status.success());
    let said = json(refused);
    assert_eq!(said["error"], "NoRules");
    assert_eq!(
        said["message"],
        "there are no rules VERSION 3: this engine plays VERSION 1 and 2"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `typepper synth`, `score` and `inspect` take every kind of key the grammar writes, and
/// refuse what it refuses with its sentence; `synth --help` lists the grammar.
#[test]
fn the_cli_makes_and_scores_rounds_of_every_new_kind_and_refuses_the_grammars_mistakes() {
    let dir = temp_dir("cli-modes");
    let file = dir.join("round.replay");
    for key in [
        "words:25/p@fr",
        "words:10/n@ru",
        "time:120@en10k",
        "zen/p/n@uk",
        "pursuit:3/p@tr",
        "quote:137",
        "quote:12@de",
        "time:30/p/s@fr",
        "pursuit:5/s/b",
    ] {
        let title = key.parse::<typepper_engine::Mode>().unwrap().title();
        let made = Command::new(binary())
            .args([
                "synth",
                "--mode",
                key,
                "--seed",
                "5",
                "--zen-secs",
                "5",
                "--out",
            ])
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            made.status.success(),
            "{key}: {}",
            String::from_utf8_lossy(&made.stderr)
        );
        let scored = Command::new(binary())
            .args(["score", "--json"])
            .arg(&file)
            .output()
            .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&scored.stdout).unwrap();
        assert_eq!(
            (json["mode"].as_str(), json["title"].as_str()),
            (Some(key), Some(&*title))
        );
        let inspected = Command::new(binary())
            .arg("inspect")
            .arg(&file)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&inspected.stdout);
        assert!(text.contains(&format!("mode    {key} ({title})")), "{text}");
    }
    // A CUSTOM TEXT round on a file's text, made ready as a paste is: its replay (format
    // 2) carries the text, which `inspect --json` shows and `score` plays.
    let text_file = dir.join("text.txt");
    std::fs::write(&text_file, "Ça va —\n\toui,  merci.\n").unwrap();
    let made = Command::new(binary())
        .args(["synth", "--seed", "9", "--text"])
        .arg(&text_file)
        .arg("--out")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let inspected = Command::new(binary())
        .args(["inspect", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&inspected.stdout).unwrap();
    assert_eq!(json["text"].as_str(), Some("Ça va — oui, merci."));
    let scored = Command::new(binary())
        .args(["score", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&scored.stdout).unwrap();
    assert_eq!(json["title"].as_str(), Some("CUSTOM TEXT"));
    // A text it can't play is refused with its sentence, and writes nothing.
    std::fs::write(&text_file, " \n\t ").unwrap();
    std::fs::remove_file(&file).unwrap();
    let refused = Command::new(binary())
        .args(["synth", "--seed", "9", "--text"])
        .arg(&text_file)
        .arg("--out")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("the text is empty") && said.contains("(Text)"),
        "{said}"
    );
    assert!(!file.exists());
    for (key, why) in [
        (
            "words:25/n/p",
            "options come once each, in the order /p /n /s /b",
        ),
        ("time:30@en", "English is the key with no @"),
        ("time:30@xx", "there is no language \"xx\""),
        ("drill2:qz/p", "drills take no options and no language"),
        ("words:20", "it has time:15"),
    ] {
        let refused = Command::new(binary())
            .args(["synth", "--mode", key, "--seed", "5", "--out"])
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(refused.status.code(), Some(1), "{key}");
        let said = String::from_utf8_lossy(&refused.stderr);
        assert!(
            said.contains(why) && said.contains("(Mode)"),
            "{key}: {said}"
        );
    }
    let help = Command::new(binary())
        .args(["synth", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for part in [
        "words:10|25|50|100",
        "/p (punctuation)",
        "/n (numbers)",
        "/s (stop on error)",
        "/b (no backspace)",
        "@<language>",
    ] {
        assert!(help.contains(part), "{part}: {help}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn replays_the_game_cannot_show_are_refused_before_the_terminal_is_touched() {
    let dir = temp_dir("refused");
    let file = dir.join("other-rules.replay");
    // A BLITZ 15s replay recorded by engine 3.
    let mut bytes = b"TPR\x01\x03\x00\x00\x00\x07time:15".to_vec();
    bytes.extend([0; 8]);
    bytes.push(0);
    std::fs::write(&file, &bytes).unwrap();
    let out = Command::new(binary())
        .arg("--replay")
        .arg(&file)
        .env("TYPEPPER_DATA_DIR", &dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(
            "recorded by rules VERSION 3, which this engine doesn't have: it plays VERSION 1 and 2"
        ),
        "{said}"
    );

    // A language this build has no list for.
    let mut bytes = b"TPR\x01\x01\x00\x00\x00\x0atime:30@xx".to_vec();
    bytes.extend([0; 8]);
    bytes.push(0);
    std::fs::write(&file, &bytes).unwrap();
    let out = Command::new(binary())
        .arg("--replay")
        .arg(&file)
        .env("TYPEPPER_DATA_DIR", &dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("there is no language \"xx\""), "{said}");
    // Racing refuses what watching refuses.
    let out = Command::new(binary())
        .arg("--race")
        .arg(&file)
        .env("TYPEPPER_DATA_DIR", &dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("time:30@xx"));

    // No round played yet: --replay says so.
    let out = Command::new(binary())
        .arg("--replay")
        .env("TYPEPPER_DATA_DIR", &dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no round played on this machine yet"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The server binary `cargo xtask test` built, with HTTP and SSH on free ports; killed
/// when dropped.
struct Server {
    child: std::process::Child,
    ssh_port: u16,
    http_port: u16,
    _dir: PathBuf,
}

impl Server {
    fn start(binary: &Path, dir: PathBuf) -> Server {
        Server::start_with(binary, dir, &[])
    }

    fn start_with(binary: &Path, dir: PathBuf, extra: &[&str]) -> Server {
        use std::io::BufRead as _;
        let mut child = Command::new(binary)
            .args(["--listen", "127.0.0.1:0", "--ssh-listen", "127.0.0.1:0"])
            .arg("--data-dir")
            .arg(&dir)
            .arg("--static-dir")
            .arg(&dir)
            .args(["--quiet", "--ip-rate", "0"])
            .args(extra)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
        let port = |line: &str| -> u16 {
            line.split_whitespace()
                .next()
                .and_then(|a| a.rsplit(':').next())
                .and_then(|p| p.parse().ok())
                .unwrap()
        };
        let http = out
            .by_ref()
            .map_while(Result::ok)
            .find_map(|l| l.strip_prefix("typepper is serving on http://").map(port))
            .expect("the server's HTTP address");
        let ssh = out
            .by_ref()
            .map_while(Result::ok)
            .find_map(|l| l.strip_prefix("ssh on ssh://").map(port))
            .expect("the server's SSH address");
        // Its stdout stays read, so that it never writes into a closed pipe.
        std::thread::spawn(move || out.for_each(drop));
        Server {
            child,
            ssh_port: ssh,
            http_port: http,
            _dir: dir,
        }
    }

    /// `GET path`'s body, over HTTP.
    fn get(&self, path: &str) -> Vec<u8> {
        use std::io::{Read as _, Write as _};
        let mut s = std::net::TcpStream::connect(("127.0.0.1", self.http_port)).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut raw = vec![];
        s.read_to_end(&mut raw).unwrap();
        assert!(
            raw.starts_with(b"HTTP/1.1 200"),
            "{}",
            String::from_utf8_lossy(&raw)
        );
        let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        raw[split + 4..].to_vec()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_linked_terminal_game_sends_its_round_over_ssh_and_shows_the_share_link() {
    let Some(server_bin) = typepper_testing::var("TYPEPPER_SERVER_BIN") else {
        return;
    };
    if !has_tmux() || !typepper_testing::tool("ssh-keygen", "-?") {
        return;
    }
    let data = temp_dir("online");
    let server = Server::start(Path::new(&server_bin), temp_dir("online-server"));
    let key = keygen(&data, "key");
    let game = linked_game("online", &data, &key, &server, "termgrace");
    let menu = game.wait_for("linked: your rounds will be sent", 20);
    assert_eq!(menu.matches("linked as termgrace").count(), 1, "{menu}");
    // The seeds the server issued for the menu's modes: the next round counts.
    game.wait_for("BLITZ  ‹ 15s ›  RANKED", 20);
    assert!(
        std::fs::read_to_string(data.join("player"))
            .unwrap()
            .starts_with("termgrace ")
    );

    game.type_text("1");
    game.wait_for("start typing", 5);
    // A person's uneven rhythm (a bot's even one would be refused).
    let mut state = 0x9e37_79b9_u64;
    let mut gap = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        Duration::from_millis(70 + (state >> 33) % 160)
    };
    let until = Instant::now() + TYPING;
    while Instant::now() < until {
        game.type_next_word_with(&mut gap, Some(until));
    }
    let results = game.wait_for("share http", 30);
    assert!(results.contains("ranked"), "{results}");
    let history = std::fs::read_to_string(data.join("history")).unwrap();
    assert!(
        history
            .trim_end()
            .ends_with(|c: char| c.is_ascii_alphanumeric())
    );
    assert!(
        history.contains("/r/"),
        "the history keeps the share link: {history}"
    );
    assert_eq!(
        std::fs::read_dir(data.join("outbox")).unwrap().count(),
        0,
        "sent"
    );
    // `p`: the player's profile, over SSH, the round their best and their latest.
    game.keys(&["Escape"]);
    game.wait_for("linked as termgrace", 5);
    game.type_text("p");
    let profile = game.wait_for("latest rounds", 20);
    assert!(profile.contains("your profile · termgrace"), "{profile}");
    assert!(profile.contains("personal bests"), "{profile}");
    assert_eq!(profile.matches("BLITZ 15s").count(), 2, "{profile}");
    assert!(profile.contains("1 round · "), "{profile}");
    game.keys(&["Escape"]);
    game.wait_for("linked as termgrace", 5);
    game.keys(&["C-c"]);
    game.wait_for("EXITED 0", 5);
    std::fs::remove_dir_all(&data).unwrap();
}

/// The play-test: a terminal game with no SSH key the server takes showed no boards
/// ("no SSH key the server takes…"), though the server shows them to a guest. A board is
/// read as a guest then, with nothing asked on the game's screen.
#[test]
fn a_game_with_no_key_reads_the_boards_as_a_guest() {
    let Some(server_bin) = typepper_testing::var("TYPEPPER_SERVER_BIN") else {
        return;
    };
    if !has_tmux() || !typepper_testing::tool("ssh", "-V") {
        return;
    }
    let data = temp_dir("keyless");
    let server = Server::start(Path::new(&server_bin), temp_dir("keyless-server"));
    // No key at all: none named, none from an agent.
    let env = "TYPEPPER_SSH='ssh -o IdentitiesOnly=yes -o IdentityFile=/nonexistent \
               -o IdentityAgent=none -o UserKnownHostsFile=/dev/null \
               -o StrictHostKeyChecking=no -o LogLevel=ERROR'";
    let game = Tmux::start_with(
        "keyless",
        &data,
        env,
        &format!("--server ssh://127.0.0.1:{}", server.ssh_port),
    );
    game.wait_for(MENU, 10);
    game.type_text("b");
    let board = game.wait_for("no runs this month yet", 20);
    assert!(!board.contains("SSH key"), "{board}");
    game.keys(&["C-c"]);
    game.wait_for("EXITED 0", 5);
    std::fs::remove_dir_all(&data).unwrap();
}

/// The game's process in `tmux`: the child of the pane's shell.
fn game_pid(tmux: &Tmux) -> u32 {
    let out = tmux
        .cmd(&["display", "-p", "#{pane_pid}"])
        .output()
        .unwrap();
    let shell: u32 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    for _ in 0..100 {
        let children = std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children"))
            .unwrap_or_default();
        if let Some(pid) = children.split_whitespace().next() {
            return pid.parse().unwrap();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("no game under the pane's shell {shell}");
}

/// Whether process `pid` is gone (or a zombie nobody waits for), within `limit`; how long
/// that took.
fn gone_within(pid: u32, limit: Duration) -> Option<Duration> {
    let start = Instant::now();
    while start.elapsed() < limit {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat.rsplit(") ").next().and_then(|s| s.chars().next());
        if matches!(state, None | Some('Z')) {
            return Some(start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    None
}

/// The attack of a closed window: the game spun at 10–40 % of a core for ever once its
/// terminal was gone, deaf to SIGTERM. Now it ends, in a round or on the menu.
#[test]
fn the_game_ends_when_its_terminal_goes_away() {
    if !has_tmux() {
        return;
    }
    for in_a_round in [false, true] {
        let data = temp_dir(&format!("gone-{in_a_round}"));
        let game = Tmux::start(&format!("gone{in_a_round}"), &data, "");
        game.wait_for(MENU, 20);
        if in_a_round {
            game.type_text("1");
            game.wait_for("start typing", 5);
            game.type_text("a");
        }
        let pid = game_pid(&game);
        drop(game);
        // A second is what the game takes (measured: 0.2 s); the limit only spares a
        // busy machine a false failure.
        let took = gone_within(pid, Duration::from_secs(5));
        assert!(took.is_some(), "the game {pid} outlived its terminal");
        eprintln!(
            "the game was gone {:?} after its terminal",
            took.unwrap_or_default()
        );
    }
}

/// SIGTERM ends the game in every state, the terminal put back.
#[test]
fn sigterm_ends_the_game_in_a_round_too() {
    if !has_tmux() {
        return;
    }
    let data = temp_dir("sigterm");
    let game = Tmux::start("sigterm", &data, "");
    game.wait_for(MENU, 20);
    game.type_text("1");
    game.wait_for("start typing", 5);
    game.type_text("ab");
    let pid = game_pid(&game);
    let killed = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    game.wait_for("EXITED", 10);
    assert!(gone_within(pid, Duration::from_secs(5)).is_some());
}

/// Whether this test runs as root, who can run the game as `nobody`.
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

/// The attack of a read-only data dir: "cannot make the data dir …: Permission denied",
/// and even `typepper keys` and `--replay FILE` refused. Now what can be read is read, the
/// game says rounds won't be kept, and plays.
#[test]
fn a_read_only_data_dir_is_read_and_the_game_plays() {
    if !has_tmux() || !is_root() {
        eprintln!("skipped: needs root, to run the game as nobody");
        return;
    }
    // A dir of root's (755): `nobody` reads it and can't write to it.
    let data = temp_dir("readonly");
    let replay = data.join("round.replay");
    let made = Command::new(binary())
        .args(["synth", "--mode", "zen", "--seed", "5", "--hex", "--out"])
        .arg(&replay)
        .status()
        .unwrap();
    assert!(made.success());
    let hex = std::fs::read_to_string(&replay).unwrap();
    std::fs::write(
        data.join("history"),
        format!("1 1764000000000 {} -\n", hex.trim()),
    )
    .unwrap();
    let as_nobody = |args: &[&str]| {
        Command::new("runuser")
            .args(["-u", "nobody", "--", "env"])
            .arg(format!("TYPEPPER_DATA_DIR={}", data.display()))
            .arg(binary())
            .args(args)
            .output()
            .unwrap()
    };
    let keys = as_nobody(&["keys", "--json"]);
    assert!(
        keys.status.success(),
        "{}",
        String::from_utf8_lossy(&keys.stderr)
    );
    let env = format!(
        "runuser -u nobody -- env TYPEPPER_DATA_DIR={}",
        data.display()
    );
    let game = Tmux::start_with("readonly", &data, &env, "");
    let menu = game.wait_for("rounds won't be kept", 10);
    assert!(menu.contains("typepper-term-readonly"), "{menu}");
    // Said on every results screen, the second round's too (the play-test found it said
    // once, then never), on the history, and on leaving.
    for _ in 0..2 {
        game.type_text("z");
        game.wait_for("start typing", 5);
        assert!(game.type_next_word());
        game.keys(&["Escape"]);
        game.wait_for("accuracy", 5);
        // Waited for, not read off the first frame with results: tmux may show a frame
        // half drawn.
        game.wait_for("not kept: ", 5);
        std::thread::sleep(Duration::from_millis(1_100));
        game.keys(&["Escape"]);
        game.wait_for("quick start", 5);
    }
    game.type_text("h");
    game.wait_for("until you leave: not kept", 5);
    game.keys(&["Escape"]);
    // Back on the menu before q: an esc and a letter sent at once read as alt-q.
    game.wait_for("quick start", 5);
    game.type_text("q");
    let left = game.wait_for("EXITED 0", 5);
    assert!(left.contains("this game's rounds were not kept"), "{left}");
    drop(game);
    let left: Vec<String> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(
        !left.contains(&"last.replay".to_owned()),
        "nothing kept: {left:?}"
    );
    std::fs::remove_dir_all(&data).unwrap();
}

// The whole game over `ssh host`, with nothing installed: OpenSSH's own client in tmux,
// against the server binary `cargo xtask test` built.

/// The server and OpenSSH's client, or why this test can't run here.
fn ssh_game_server(name: &str, extra: &[&str]) -> Option<Server> {
    let server_bin = typepper_testing::var("TYPEPPER_SERVER_BIN")?;
    if !has_tmux() || !typepper_testing::tool("ssh-keygen", "-?") {
        return None;
    }
    Some(Server::start_with(
        Path::new(&server_bin),
        temp_dir(name),
        extra,
    ))
}

/// `ssh -tt` to the server's game: with `key`, or as a guest with none. `then` follows
/// the host (`race <code>`).
fn ssh_game(name: &str, server: &Server, key: Option<&Path>, then: &str) -> Tmux {
    let identity = match key {
        Some(key) => format!("-i {} -o IdentitiesOnly=yes", key.display()),
        None => "-o PubkeyAuthentication=no".to_owned(),
    };
    Tmux::run(
        name,
        &format!(
            "ssh -tt {identity} -o UserKnownHostsFile=/dev/null -o StrictHostKeyChecking=no \
             -o LogLevel=ERROR -p {} 127.0.0.1 {then}",
            server.ssh_port
        ),
    )
}

#[test]
fn the_whole_game_over_ssh_links_a_key_ranks_its_round_and_keeps_its_history() {
    let Some(server) = ssh_game_server("sshgame", &[]) else {
        return;
    };
    let dir = temp_dir("sshgame-key");
    let key = keygen(&dir, "key");

    // A new key is asked for a name first.
    let game = ssh_game("sshgame", &server, Some(&key), "");
    game.wait_for("link this game", 15);
    game.type_text("sshgrace");
    game.keys(&["Enter"]);
    game.wait_for("linked: your rounds will be sent", 20);
    game.wait_for("BLITZ  ‹ 15s ›  RANKED", 20);

    game.type_text("1");
    game.wait_for("start typing", 5);
    let mut gap = lognormal_gaps(7);
    let until = Instant::now() + TYPING;
    let resize_at = Instant::now() + Duration::from_secs(5);
    let mut resized = false;
    while Instant::now() < until {
        if !resized && Instant::now() >= resize_at {
            // The window changes mid-round: the next frame is drawn at the new size, and
            // the words are typed on off the new screen.
            let ok = game
                .cmd(&["resize-window", "-x", "80", "-y", "24"])
                .status()
                .unwrap()
                .success();
            assert!(ok);
            std::thread::sleep(Duration::from_millis(300));
            let screen = game.screen();
            assert!(screen.contains("BLITZ 15s"), "{screen}");
            assert!(screen.lines().all(|l| l.chars().count() <= 80), "{screen}");
            resized = true;
        }
        game.type_next_word_with(&mut gap, Some(until));
    }
    assert!(resized);
    let results = game.wait_for("share http", 30);
    assert!(results.contains("ranked"), "{results}");
    let headline = results
        .lines()
        .find(|l| l.contains("wpm  BLITZ 15s"))
        .map(|l| l.split("  ").next().unwrap().trim().to_owned())
        .unwrap_or_else(|| panic!("no headline:\n{results}"));
    let id: String = results
        .split("/r/")
        .nth(1)
        .unwrap()
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();

    // The run is the round the screen showed: its bytes over HTTP score to the headline.
    let bytes = server.get(&format!("/v1/runs/{id}"));
    let file = dir.join("run.replay");
    std::fs::write(&file, &bytes).unwrap();
    assert_eq!(scored_headline(&file), headline);

    // Watched again from the history.
    std::thread::sleep(Duration::from_millis(1200));
    game.keys(&["Escape"]);
    game.wait_for(MENU, 5);
    game.type_text("h");
    game.wait_for(&headline, 5);
    game.keys(&["Enter"]);
    watches_to(&game, &headline);
    game.keys(&["C-c"]);
    game.wait_for("EXITED 0", 5);
    drop(game);

    // Connecting again: the key is its player's, and the history was kept on the server.
    let again = ssh_game("sshgame2", &server, Some(&key), "");
    let menu = again.wait_for("linked as sshgrace", 15);
    assert!(!menu.contains("link this game"), "{menu}");
    again.type_text("h");
    // The play-test: it said "on this device" of the server's history.
    let history = again.wait_for("your last round, on the server", 5);
    assert!(history.contains(&headline), "{history}");
    // The player's profile, over the same SSH session: the round, their best.
    again.keys(&["Escape"]);
    again.wait_for("linked as sshgrace", 5);
    again.type_text("p");
    let profile = again.wait_for("personal bests", 10);
    assert!(profile.contains("your profile · sshgrace"), "{profile}");
    assert!(profile.contains(&headline), "{profile}");
    again.keys(&["C-c"]);
    again.wait_for("EXITED 0", 5);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The daily over `ssh host` (issue 42): announced on the menu, played with `j` as the
/// player's first try, its results placed on the day's board, which `b` shows.
#[test]
fn the_daily_over_ssh_is_played_placed_and_on_its_board() {
    let Some(server) = ssh_game_server("sshdaily", &[]) else {
        return;
    };
    let dir = temp_dir("sshdaily-key");
    let key = keygen(&dir, "key");
    let game = ssh_game("sshdaily", &server, Some(&key), "");
    game.wait_for("link this game", 15);
    game.type_text("sshdaisy");
    game.keys(&["Enter"]);
    game.wait_for("linked: your rounds will be sent", 20);
    let menu = game.wait_for("played · j plays it", 20);
    let number: String = menu
        .split("daily #")
        .nth(1)
        .unwrap_or_else(|| panic!("no daily on the menu:\n{menu}"))
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();

    game.type_text("j");
    game.wait_for("start typing", 10);
    // A person's spread over 30 s: the timing checks refuse an even one.
    let mut gap = lognormal_gaps(42);
    // BLITZ 30s: typed until two seconds before its end, which comes by itself.
    let until = Instant::now() + TYPING + Duration::from_secs(15);
    while Instant::now() < until {
        game.type_next_word_with(&mut gap, Some(until));
    }
    let results = game.wait_for(" · 1st of 1", 40);
    assert!(
        results.contains(&format!("daily #{number} · BLITZ 30s")),
        "{results}"
    );
    std::thread::sleep(Duration::from_millis(1200));
    game.type_text("b");
    game.wait_for(&format!("‹ daily #{number} ›"), 10);
    // Its rows come after it opens (`loading…`).
    let board = game.wait_for("sshdaisy", 10);
    assert!(board.contains("today's first tries"), "{board}");
    game.keys(&["C-c"]);
    game.wait_for("EXITED 0", 5);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_guest_over_ssh_plays_and_nothing_is_kept() {
    let Some(server) = ssh_game_server("sshguest", &[]) else {
        return;
    };
    let game = ssh_game("sshguest", &server, None, "");
    let menu = game.wait_for(MENU, 15);
    assert!(menu.contains("guest"), "{menu}");
    // A ZEN round, ended with esc.
    game.type_text("z");
    game.wait_for("start typing", 5);
    let mut gap = lognormal_gaps(11);
    let until = Instant::now() + Duration::from_secs(4);
    while Instant::now() < until {
        game.type_next_word_with(&mut gap, Some(until));
    }
    game.keys(&["Escape"]);
    let results = game.wait_for("accuracy", 10);
    assert!(!results.contains("share http"), "{results}");
    // Linking needs a key, said on the menu, and at once (the play-test: `l link` was
    // offered, asked for a name, and only then said so).
    std::thread::sleep(Duration::from_millis(1200));
    game.keys(&["Escape"]);
    let menu = game.wait_for(MENU, 5);
    assert!(
        menu.contains("to link, connect again with an SSH key"),
        "{menu}"
    );
    assert!(!menu.contains("l link"), "{menu}");
    game.type_text("l");
    std::thread::sleep(Duration::from_millis(300));
    let menu = game.screen();
    assert!(!menu.contains("link this game"), "{menu}");
    // The history is this game's alone.
    game.type_text("h");
    game.wait_for("until you leave: not kept", 5);
    game.keys(&["C-c"]);
    game.wait_for("EXITED 0", 5);
    // Nothing was stored: no run on the board, and the name is free.
    let board = String::from_utf8(server.get("/v1/boards/zen")).unwrap();
    assert!(board.contains("\"rows\":[]"), "{board}");
}

#[test]
fn ssh_games_are_limited_per_address_close_when_idle_and_say_why_at_shutdown() {
    let Some(mut server) = ssh_game_server(
        "sshlimits",
        &["--ssh-games-per-ip", "1", "--ssh-game-idle-timeout", "3"],
    ) else {
        return;
    };
    let first = ssh_game("sshlimit1", &server, None, "");
    first.wait_for(MENU, 15);
    // A second game from the same address is refused with a sentence.
    let second = ssh_game("sshlimit2", &server, None, "");
    let refused = second.wait_for("EXITED", 15);
    assert!(refused.contains("games open already"), "{refused}");
    assert!(refused.contains("EXITED 1"), "{refused}");
    drop(second);
    // No key for 3 s: the game closes, and says why.
    let idle = first.wait_for("EXITED", 15);
    assert!(idle.contains("without a key"), "{idle}");
    drop(first);

    // A round in progress when the server stops is closed with a line, not submitted.
    let playing = ssh_game("sshlimit3", &server, None, "");
    playing.wait_for(MENU, 15);
    playing.type_text("1");
    playing.wait_for("start typing", 5);
    playing.type_text("a");
    let ok = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
    let closed = playing.wait_for("EXITED", 15);
    assert!(closed.contains("the server is restarting"), "{closed}");
    let _ = server.child.wait();
}

/// Waits for `game`'s replay of a BLITZ 15s round to play to its results, and checks they
/// show `headline`.
fn watches_to(game: &Tmux, headline: &str) {
    game.wait_for("REPLAY · BLITZ 15s", 10);
    let watched = game.wait_for("accuracy", 25);
    assert!(
        watched.contains(&format!("{headline}  BLITZ 15s")),
        "{watched}"
    );
}

// Issue 40's rounds in both terminal games at once against one server: the `typepper`
// binary in tmux, linked over SSH, and the server's own game over `ssh host`. Each plays
// a French, a Russian and a punctuation WORDS 10 round, picked on the menu with keys and
// typed off the screen (accented and Cyrillic letters, capitals and punctuation sent as
// the terminal sends them); each round ranks on a seed the server issued, is on its
// board, and `typepper score` scores its replay as the game did.

/// A person's gaps between keys: log-normal around 110 ms (a person's lean right; the
/// server takes an even rhythm, or an evenly random one, for a program's).
fn lognormal_gaps(seed: u64) -> impl FnMut() -> Duration {
    let mut state = seed;
    let mut uniform = move || {
        // splitmix64, to (0, 1).
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64 + f64::EPSILON
    };
    move || {
        let normal = (-2.0 * uniform().ln()).sqrt() * (std::f64::consts::TAU * uniform()).cos();
        let ms = 110.0 * (0.35 * normal).exp();
        Duration::from_millis(ms.clamp(45.0, 700.0) as u64)
    }
}

/// One character as `send-keys -l` takes it: tmux reads a lone `;` as the end of its
/// command, so it goes escaped.
fn send_char(game: &Tmux, c: char) {
    match c {
        ';' => game.type_text("\\;"),
        c => game.type_text(&c.to_string()),
    }
}

/// One of the rounds: the keys that set the menu's text from the round before, what the
/// menu says of the text then, the round's key and its title.
struct Round {
    keys: &'static str,
    said: &'static str,
    key: &'static str,
    title: &'static str,
}

/// English to French (past English 10k), on to Russian, round to English with
/// punctuation.
const ROUNDS: [Round; 3] = [
    Round {
        keys: "@@",
        said: "français: 1,000 common words",
        key: "words:10@fr",
        title: "WORDS 10 · français",
    },
    Round {
        keys: "@@@@@@@@@@",
        said: "русский: 1,000 common words",
        key: "words:10@ru",
        title: "WORDS 10 · русский",
    },
    Round {
        keys: "@@.",
        said: "text: punctuation · english",
        key: "words:10/p",
        title: "WORDS 10 · punctuation",
    },
];

/// What a round came to: its headline on the results and its run's id.
struct Played {
    headline: String,
    id: String,
}

/// Plays `ROUNDS` from the menu of a game linked as `name`, WORDS at 25: each round's
/// results.
fn play_the_rounds(game: &Tmux, name: &str, gaps: &mut dyn FnMut() -> Duration) -> Vec<Played> {
    // WORDS, and its count down from 25 to 10.
    game.keys(&["Down", "Left"]);
    game.wait_for("▸ WORDS  ‹ 10 ›", 5);
    let mut played = vec![];
    for round in &ROUNDS {
        assert_eq!(
            round.key.parse::<typepper_engine::Mode>().unwrap().title(),
            round.title
        );
        for c in round.keys.chars() {
            send_char(game, c);
        }
        // The menu says the new text (until then, the last round's mode may still be
        // shown ranked), and then that the server's seed for the new mode came.
        game.wait_for(round.said, 5);
        game.wait_for("WORDS  ‹ 10 ›  RANKED", 20);
        game.type_text("w");
        game.wait_for(&format!("0/10  {}", round.title), 5);
        game.wait_for("start typing", 5);
        for n in 0..10 {
            let (x, y) = game.cursor();
            let screen = game.screen();
            let line = screen.lines().nth(y).unwrap_or_default();
            let rest: String = line.chars().skip(x).collect();
            let word = rest
                .split_whitespace()
                .next()
                .unwrap_or_else(|| panic!("no word {n} under the caret at {x},{y}:\n{screen}"));
            // The last word ends the round as its last letter lands: no space after it.
            let space = (n < 9).then_some(' ');
            for c in word.chars().chain(space) {
                send_char(game, c);
                std::thread::sleep(gaps());
            }
        }
        let results = game.wait_for("share http", 30);
        assert!(
            results.contains("ranked · your ranked best!"),
            "{}: {results}",
            round.key
        );
        let headline = results
            .lines()
            .find(|l| l.ends_with(&format!("  {}", round.title)))
            .and_then(|l| l.split("  ").next())
            .unwrap_or_else(|| panic!("no headline of {}:\n{results}", round.title))
            .to_owned();
        let id = results
            .split("/r/")
            .nth(1)
            .map(|rest| {
                rest.chars()
                    .take_while(char::is_ascii_alphanumeric)
                    .collect()
            })
            .unwrap_or_else(|| panic!("no share link:\n{results}"));
        played.push(Played { headline, id });
        // Keys are held a moment on the results, then esc is the menu's.
        std::thread::sleep(Duration::from_millis(1_200));
        game.keys(&["Escape"]);
        game.wait_for("quick start", 5);
    }
    // The history names each round by its title, the last first.
    game.type_text("h");
    let history = game.wait_for("your last 3 rounds", 5);
    for (round, played) in ROUNDS.iter().zip(&played) {
        let row = history.lines().find(|l| l.contains(round.title));
        assert!(
            row.is_some_and(|r| r.contains(&played.headline)),
            "{}:\n{history}",
            round.title
        );
    }
    // Back on the menu before the next key: an esc with a letter right behind it is
    // alt and that letter.
    game.keys(&["Escape"]);
    game.wait_for("quick start", 5);
    // The board of the menu's mode, the punctuation round's, read over SSH: its row.
    game.type_text("b");
    game.wait_for(&format!("‹ {} ›", ROUNDS[2].title), 5);
    let board = game.wait_for(name, 20);
    assert!(
        board.contains(&played[2].headline.replace(" wpm", "")),
        "{board}"
    );
    played
}

/// The rounds ranked: each on its board under `name`, and its replay, read back over
/// HTTP, scored by `typepper score` as the game's results said.
fn on_the_boards(server: &Server, name: &str, played: &[Played], dir: &Path) {
    for (round, played) in ROUNDS.iter().zip(played) {
        let board: serde_json::Value =
            serde_json::from_slice(&server.get(&format!("/v1/boards/{}", round.key))).unwrap();
        assert_eq!(board["title"], round.title);
        let rows = board["rows"].as_array().unwrap();
        assert!(
            rows.iter()
                .any(|r| r["name"] == name && r["run"] == played.id.as_str()),
            "{name}'s {} on {board}",
            played.id
        );
        let file = dir.join(format!("{name}-{}.replay", played.id));
        std::fs::write(&file, server.get(&format!("/v1/runs/{}", played.id))).unwrap();
        assert_eq!(scored_headline(&file), played.headline, "{}", round.key);
    }
}

#[test]
fn french_russian_and_punctuation_rounds_rank_from_the_terminal_and_over_ssh() {
    let Some(server) = ssh_game_server("modes", &[]) else {
        return;
    };
    let dir = temp_dir("modes-keys");
    let (local_key, remote_key) = (keygen(&dir, "local"), keygen(&dir, "remote"));
    let data = temp_dir("modes-data");
    std::thread::scope(|s| {
        // The `typepper` binary, linked over SSH.
        let local = s.spawn(|| {
            let game = linked_game("modes-local", &data, &local_key, &server, "termmodes");
            game.wait_for("linked: your rounds will be sent", 20);
            let played = play_the_rounds(&game, "termmodes", &mut lognormal_gaps(1));
            game.keys(&["C-c"]);
            game.wait_for("EXITED 0", 5);
            drop(game);
            // The last round kept on this machine is the last one played, and `--replay`
            // plays it to the same results.
            let last = data.join("last.replay");
            assert_eq!(scored_headline(&last), played[2].headline);
            let replay = Tmux::start("modes-replay", &data, "--replay");
            replay.wait_for(&format!("REPLAY · {}", ROUNDS[2].title), 10);
            replay.wait_for(&format!("{}  {}", played[2].headline, ROUNDS[2].title), 25);
            replay.keys(&["C-c"]);
            replay.wait_for("EXITED 0", 5);
            played
        });
        // The server's game, over `ssh host`.
        let remote = s.spawn(|| {
            let game = ssh_game("modes-ssh", &server, Some(&remote_key), "");
            game.wait_for("link this game", 15);
            game.type_text("sshmodes");
            game.keys(&["Enter"]);
            game.wait_for("linked: your rounds will be sent", 20);
            let played = play_the_rounds(&game, "sshmodes", &mut lognormal_gaps(2));
            game.keys(&["C-c"]);
            game.wait_for("EXITED 0", 5);
            played
        });
        let (local, remote) = (local.join().unwrap(), remote.join().unwrap());
        on_the_boards(&server, "termmodes", &local, &dir);
        on_the_boards(&server, "sshmodes", &remote, &dir);
    });
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&data).unwrap();
}

/// Types the text under the caret, word by word as read off the screen, a person's gaps
/// between keys, until the round's results are up.
fn type_to_the_results(game: &Tmux, gaps: &mut dyn FnMut() -> Duration) -> String {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let screen = game.screen();
        if screen.contains("accuracy") {
            return screen;
        }
        assert!(Instant::now() < deadline, "no results:\n{screen}");
        let (x, y) = game.cursor();
        let line = screen.lines().nth(y).unwrap_or_default();
        let rest: String = line.chars().skip(x).collect();
        let Some(word) = rest.split_whitespace().next() else {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        for c in word.chars().chain([' ']) {
            send_char(game, c);
            std::thread::sleep(gaps());
        }
    }
}

/// `typepper --text FILE` plays a round on the file's text, made ready (its lines and
/// tab one space each), and keeps it as a format 2 replay carrying the text; then a
/// quote, picked with `'`, is played to its end, its results credit its author, and `b`
/// there opens its board.
#[test]
fn your_own_text_from_a_file_and_a_quote_play_to_their_ends() {
    if !has_tmux() {
        return;
    }
    let data = temp_dir("custom");
    let file = data.join("text.txt");
    std::fs::write(&file, "Là-bas, près\nde la forêt —\tl'été.\n").unwrap();
    let game = Tmux::start("custom", &data, &format!("--text {}", file.display()));
    game.wait_for("CUSTOM TEXT", 10);
    let mut gaps = lognormal_gaps(41);
    let results = type_to_the_results(&game, &mut gaps);
    assert!(results.contains("wpm  CUSTOM TEXT"), "{results}");
    let last = data.join("last.replay");
    assert!(
        std::fs::read_to_string(&last)
            .unwrap()
            .starts_with("54505202"),
        "format 2"
    );
    let inspected = Command::new(binary())
        .args(["inspect", "--json"])
        .arg(&last)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&inspected.stdout).unwrap();
    assert_eq!(json["text"], "Là-bas, près de la forêt — l'été.");
    assert_eq!(
        std::fs::read_to_string(data.join("text")).unwrap(),
        "Là-bas, près de la forêt — l'été."
    );

    // A quote of the menu's length (short), from the menu.
    std::thread::sleep(Duration::from_millis(1_100));
    game.keys(&["Escape"]);
    game.wait_for(MENU, 5);
    game.type_text("'");
    game.wait_for("QUOTE #", 10);
    let results = type_to_the_results(&game, &mut gaps);
    let credit = results.lines().find(|l| l.trim_start().starts_with("— "));
    assert!(credit.is_some(), "no author on the results:\n{results}");
    let title = results
        .lines()
        .find_map(|l| l.split("wpm  ").nth(1))
        .unwrap()
        .trim()
        .to_owned();
    assert!(title.starts_with("QUOTE #"), "{title}");
    std::thread::sleep(Duration::from_millis(1_100));
    game.type_text("b");
    let board = game.wait_for("boards", 5);
    assert!(board.contains(&title), "its own board: {board}");
    game.keys(&["Escape"]);
    game.wait_for(MENU, 5);
    game.type_text("q");
    game.wait_for("EXITED 0", 5);
    drop(game);
    std::fs::remove_dir_all(&data).unwrap();
}

/// A text pasted into the game over `ssh` (a bracketed paste, as a terminal sends one)
/// arrives whole on the text screen, lines and all, however long: 3,000 characters are
/// far past what a paste typed into a round may be (600 keys at once), and are one text
/// here. Enter plays it. Then a quote, played to its end and credited.
#[test]
fn a_long_text_pasted_over_ssh_arrives_whole_and_plays() {
    let Some(server) = ssh_game_server("sshpaste", &[]) else {
        return;
    };
    let game = ssh_game("sshpaste", &server, None, "");
    game.wait_for(MENU, 15);
    game.type_text("c");
    game.wait_for("your own text", 5);
    // 300 lines of "Ça va, oui." (11 characters and a newline): 3,599 characters once
    // each newline is a space.
    let text = "Ça va, oui.\n".repeat(300);
    let dir = temp_dir("sshpaste-text");
    let buffer = dir.join("paste.txt");
    std::fs::write(&buffer, &text).unwrap();
    assert!(
        game.cmd(&["load-buffer", buffer.to_str().unwrap()])
            .status()
            .unwrap()
            .success()
    );
    assert!(
        game.cmd(&["paste-buffer", "-p"])
            .status()
            .unwrap()
            .success(),
        "a bracketed paste"
    );
    game.wait_for("3599 characters · 900 words", 10);
    game.keys(&["Enter"]);
    let playing = game.wait_for("CUSTOM TEXT", 5);
    assert!(playing.contains("Ça va, oui."), "{playing}");
    // A quote, over `ssh` too: the server's own passages, typed to the end and credited.
    game.keys(&["Escape"]);
    game.wait_for(MENU, 5);
    game.type_text("'");
    game.wait_for("QUOTE #", 10);
    let results = type_to_the_results(&game, &mut lognormal_gaps(43));
    assert!(
        results.lines().any(|l| l.trim_start().starts_with("— ")),
        "no author on the results:\n{results}"
    );
    game.keys(&["C-c"]);
    game.wait_for("EXITED 0", 5);
    drop(server);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 42 in two terminals: a terminal game linked by its key shows a code (and its QR
/// code) on its devices screen; a second key, playing over `ssh host` with nothing
/// installed, types the code on its link screen (tab) and is the same player; the first
/// game lists both keys.
#[test]
fn a_terminal_game_shows_a_code_that_an_ssh_game_types_to_be_the_same_player() {
    let Some(server) = ssh_game_server("devices", &[]) else {
        return;
    };
    let dir = temp_dir("devices-keys");
    let (laptop, desktop) = (keygen(&dir, "laptop"), keygen(&dir, "desktop"));
    let data = temp_dir("devices-data");
    let game = linked_game("devices", &data, &laptop, &server, "keygrace");
    game.wait_for("linked: your rounds will be sent", 20);
    game.type_text("l");
    game.wait_for("this device · added", 10);
    game.type_text("a");
    let shown = game.wait_for("works once, until", 10);
    let code = shown
        .lines()
        .map(str::trim)
        .find(|l| {
            l.len() == 9
                && l.chars().enumerate().all(|(i, c)| match i {
                    4 => c == ' ',
                    _ => c.is_ascii_digit() || c.is_ascii_uppercase(),
                })
        })
        .unwrap_or_else(|| panic!("no code on the screen:\n{shown}"))
        .to_owned();
    assert!(shown.contains("?device="), "{shown}");

    // The other key, over `ssh host`: a name is asked for; tab takes a code instead.
    let other = ssh_game("devices-ssh", &server, Some(&desktop), "");
    other.wait_for("link this game", 15);
    other.keys(&["Tab"]);
    other.wait_for("a code from another device", 5);
    other.type_text(&code);
    other.keys(&["Enter"]);
    let menu = other.wait_for("linked: this device is keygrace now", 20);
    assert!(menu.contains("linked as keygrace"), "{menu}");
    other.keys(&["C-c"]);
    other.wait_for("EXITED 0", 5);
    drop(other);

    // Both keys are keygrace's, the laptop's this device (and the token `v1 link` gave
    // when the laptop linked is one too).
    game.keys(&["Escape"]);
    game.keys(&["Escape"]);
    game.wait_for(MENU, 5);
    game.type_text("l");
    let list = game.wait_for("SSH key · added", 10);
    assert_eq!(list.matches("· added").count(), 3, "{list}");
    assert_eq!(list.matches("this device").count(), 1, "{list}");
    game.keys(&["C-c"]);
    game.wait_for("EXITED 0", 5);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&data).unwrap();
}

/// `typepper themes --json` prints every theme's text roles on their backgrounds; read
/// as a contrast checker would, each reads at 4.5:1 (large text and marks at 3:1; the
/// high-contrast theme's text at 7:1), computed here by WCAG 2's formula afresh.
#[test]
fn every_theme_printed_by_typepper_themes_reads_at_its_contrast() {
    let out = Command::new(binary())
        .args(["themes", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let themes: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let luminance = |hex: &str| {
        let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
        let c = |shift: u32| {
            let s = f64::from((v >> shift) & 0xff) / 255.0;
            if s <= 0.04045 {
                s / 12.92
            } else {
                ((s + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * c(16) + 0.7152 * c(8) + 0.0722 * c(0)
    };
    let names: Vec<&str> = themes.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(names.len() >= 8 && names[0] == "typepper", "{names:?}");
    for theme in &themes {
        let name = theme["name"].as_str().unwrap();
        let pairs = theme["pairs"].as_array().unwrap();
        assert!(pairs.len() > 20, "{name}");
        for p in pairs {
            let (a, b) = (
                luminance(p["fg"].as_str().unwrap()),
                luminance(p["bg"].as_str().unwrap()),
            );
            let ratio = (a.max(b) + 0.05) / (a.min(b) + 0.05);
            let needs = match (p["large"].as_bool().unwrap(), name) {
                (true, _) => 3.0,
                (false, "contrast") => 7.0,
                _ => 4.5,
            };
            assert!(ratio >= needs, "{name} {}: {ratio:.2}:1", p["role"]);
        }
    }
}

/// Issue 43 in tmux: a theme (Nord) paints its background at 24-bit and at 256 colours,
/// and leaves the terminal's own colours at 16 and under `NO_COLOR`, as before; the bell
/// rings on a mistake when the settings ask for it. What tmux holds is read back with
/// `capture-pane -e`, escape sequences and all.
#[test]
fn a_theme_paints_at_24_bit_and_256_colours_and_the_16_and_no_color_keep_their_own() {
    if !has_tmux() {
        return;
    }
    // Nord's background, #2e3440: at 24 bits itself; at 256, xterm's cube's 23.
    for (name, env, want, refuse) in [
        (
            "theme-24",
            "COLORTERM=truecolor",
            Some("48;2;46;52;64"),
            None,
        ),
        ("theme-256", "COLORTERM=", Some("48;5;23"), None),
        ("theme-16", "COLORTERM= TERM=xterm", None, Some("48;")),
        ("theme-none", "NO_COLOR=1", None, Some("38;")),
    ] {
        let data = temp_dir(name);
        std::fs::write(data.join("settings"), "theme nord\nbell on\n").unwrap();
        let game = Tmux::start_with(name, &data, env, "");
        game.wait_for(MENU, 10);
        let out = game.cmd(&["capture-pane", "-p", "-e"]).output().unwrap();
        let painted = String::from_utf8_lossy(&out.stdout).into_owned();
        if let Some(want) = want {
            assert!(painted.contains(want), "{name}: no {want} in\n{painted:?}");
        }
        if let Some(refuse) = refuse {
            assert!(
                !painted.contains(refuse),
                "{name}: {refuse} in\n{painted:?}"
            );
            assert!(painted.contains("BLITZ"), "{name}: {painted}");
        }
        // A wrong key rings the bell (tmux marks the window that rang).
        if name == "theme-24" {
            game.type_text("1");
            game.wait_for("BLITZ 15s", 5);
            std::thread::sleep(Duration::from_millis(300));
            game.type_text("#");
            let rang = (0..40).any(|_| {
                std::thread::sleep(Duration::from_millis(50));
                let flag = game
                    .cmd(&["display", "-p", "#{window_bell_flag}"])
                    .output()
                    .unwrap();
                String::from_utf8_lossy(&flag.stdout).trim() == "1"
            });
            assert!(rang, "no bell for a wrong key");
            game.keys(&["Escape"]);
            game.wait_for(MENU, 5);
        }
        game.type_text("q");
        game.wait_for("EXITED 0", 5);
        drop(game);
        std::fs::remove_dir_all(&data).unwrap();
    }
}

/// Issue 43 across doors: a terminal game linked by its SSH key changes a setting, and
/// the same player's `ssh host` game, with nothing installed, plays by it.
#[test]
fn a_setting_changed_in_the_terminal_game_is_the_players_in_the_ssh_game() {
    let Some(server) = ssh_game_server("settings", &[]) else {
        return;
    };
    let dir = temp_dir("settings-key");
    let key = keygen(&dir, "key");
    let data = temp_dir("settings-data");
    let game = linked_game("settings", &data, &key, &server, "setsy");
    game.wait_for("linked: your rounds will be sent", 20);
    game.type_text("o");
    game.wait_for("▸ theme", 5);
    game.keys(&["Right"]);
    game.wait_for("‹ paper ›", 5);
    assert!(
        std::fs::read_to_string(data.join("settings"))
            .unwrap()
            .starts_with("theme paper\n")
    );
    // Sent to the server as it changed (`v1 settings` says so once it is there): the ssh
    // game reads it when it starts.
    let kept = || {
        let out = Command::new("ssh")
            .arg("-i")
            .arg(&key)
            .args([
                "-o",
                "IdentitiesOnly=yes",
                "-o",
                "UserKnownHostsFile=/dev/null",
            ])
            .args(["-o", "StrictHostKeyChecking=no", "-o", "LogLevel=ERROR"])
            .args([
                "-p",
                &server.ssh_port.to_string(),
                "127.0.0.1",
                "v1 settings",
            ])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).starts_with("theme paper\n")
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    while !kept() {
        assert!(
            Instant::now() < deadline,
            "the setting never reached the server"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    game.keys(&["Escape"]);
    game.type_text("q");
    game.wait_for("EXITED 0", 5);
    drop(game);
    let remote = ssh_game("settings-ssh", &server, Some(&key), "");
    remote.wait_for(MENU, 15);
    remote.type_text("o");
    remote.wait_for("‹ paper ›", 5);
    remote.keys(&["C-c"]);
    remote.wait_for("EXITED", 5);
    drop(remote);
    drop(server);
    std::fs::remove_dir_all(&data).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}
