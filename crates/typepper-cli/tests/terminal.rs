//! The terminal game in a real terminal: tmux runs `typepper` with a temporary data dir,
//! and the test plays it as a person would, reading the words off the screen.
//!
//! The binary is `$TYPEPPER_CLI` (`cargo xtask test` points it at the release build), or
//! this test build's own.

#![allow(clippy::unwrap_used)] // a test: a failure is a panic with its place

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

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
    /// Starts `command` in a 100×30 terminal.
    fn start(name: &str, data: &Path, args: &str) -> Tmux {
        let tmux = Tmux {
            socket: format!("typepper-test-{name}-{}", std::process::id()),
        };
        let command = format!(
            "TYPEPPER_DATA_DIR={} TERM=xterm-256color {} {args}; echo EXITED $?; sleep 60",
            data.display(),
            binary().display()
        );
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
        let (x, y) = self.cursor();
        let screen = self.screen();
        let Some(line) = screen.lines().nth(y) else {
            return false;
        };
        let rest: String = line.chars().skip(x).collect();
        let Some(word) = rest.split_whitespace().next() else {
            return false;
        };
        for c in word.chars().chain([' ']) {
            self.type_text(&c.to_string());
            std::thread::sleep(Duration::from_millis(30));
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

fn has_tmux() -> bool {
    Command::new("tmux").arg("-V").output().is_ok()
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
        // `cargo xtask test` installs tmux; a bare `cargo test` may not have it.
        eprintln!("skipped: no tmux here (cargo xtask test installs it)");
        return;
    }
    let data = temp_dir("blitz");
    let game = Tmux::start("blitz", &data, "");
    game.wait_for("▸ BLITZ 15s", 10);
    game.type_text("1");
    game.wait_for("15  BLITZ 15s", 10);
    game.wait_for("start typing", 5);
    let started = Instant::now();
    let mut words = 0;
    while started.elapsed() < Duration::from_secs(20) {
        if game.screen().contains("accuracy") {
            break;
        }
        if game.type_next_word() {
            words += 1;
        }
    }
    let results = game.wait_for("accuracy", 10);
    assert!(words >= 5, "typed {words} words");
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

    // Leave, and the terminal is given back.
    game.keys(&["Escape"]);
    game.wait_for("▸ BLITZ 15s", 5);
    game.keys(&["Escape"]);
    game.wait_for("EXITED 0", 5);
    drop(game);

    // `typepper --replay` plays the last round to the same results.
    let replay = Tmux::start("replay", &data, "--replay");
    replay.wait_for("REPLAY · BLITZ 15s", 10);
    let watched = replay.wait_for("accuracy", 25);
    assert!(
        watched.contains(&format!("{headline}  BLITZ 15s")),
        "{watched}"
    );
    replay.keys(&["C-c"]);
    replay.wait_for("EXITED 0", 5);
    std::fs::remove_dir_all(&data).unwrap();
}

#[test]
fn a_zen_round_ends_with_esc() {
    if !has_tmux() {
        eprintln!("skipped: no tmux here (cargo xtask test installs it)");
        return;
    }
    let data = temp_dir("zen");
    let game = Tmux::start("zen", &data, "");
    game.wait_for("▸ BLITZ 15s", 10);
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
    game.keys(&["C-c"]);
    game.wait_for("EXITED 0", 5);
    std::fs::remove_dir_all(&data).unwrap();
}

#[test]
fn replays_the_game_cannot_show_are_refused_before_the_terminal_is_touched() {
    let dir = temp_dir("refused");
    let file = dir.join("other-rules.replay");
    // A BLITZ 15s replay recorded by engine 2.
    let mut bytes = b"TPR\x01\x02\x00\x00\x00\x07time:15".to_vec();
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
        said.contains("recorded by other rules (engine 2, these are 1)"),
        "{said}"
    );

    let mut bytes = b"TPR\x01\x01\x00\x00\x00\x08drill:qz".to_vec();
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
    assert!(said.contains("drill:qz"), "{said}");

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
