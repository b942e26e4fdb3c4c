//! typepper in a terminal: the same game as the browser's ([`typepper_game`]), in a terminal
//! shell made of ratatui and crossterm.
//!
//! The shell:
//! 1. reads the data dir ([`data`]) and boots the game's [`App`] from it;
//! 2. turns crossterm's key and paste events into the game's [`Key`]s, stamped with the
//!    moment they were read;
//! 3. ticks the app, asks it for the screen's model, and draws the model ([`render`]) when
//!    it differs from the last one drawn (or the terminal was resized);
//! 4. carries out the app's effects: files in the data dir, the clipboard (OSC 52), and
//!    the requests to the server, answered from a background thread ([`net`]).
//!
//! The terminal is put back as it was on every way out: the end of the game, an error,
//! SIGTERM or SIGHUP, and a panic (ratatui's hook restores it before the panic prints).
//! A terminal that goes away (its window closed, its SSH connection dropped) ends the game
//! too, whatever it was doing: see [`watch_for_the_end`].

pub mod data;
pub mod net;
pub mod render;

use std::io::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use crossterm::event::{
    self, DisableBracketedPaste, EnableBracketedPaste, Event, KeyCode, KeyEvent, KeyEventKind,
    KeyModifiers,
};
use typepper_game::app::{App, Effect, Key, Now};
use typepper_game::layout::Scroll;
use typepper_game::model::{Kind, Model};
use typepper_game::zone::Zone;

use self::data::DataDir;
use self::net::{Answer, Remote, RoomLink};
use self::render::{Depth, Palette};

/// How often the screen is looked at while a round runs: its clock and flame move.
const FRAME: Duration = Duration::from_millis(16);
/// How often it is looked at otherwise.
const IDLE_FRAME: Duration = Duration::from_millis(100);

/// The system's time zone, as the system's zone database says.
pub struct LocalZone(jiff::tz::TimeZone);

impl LocalZone {
    /// The zone `TZ` or `/etc/localtime` names; UTC when there is none.
    pub fn system() -> LocalZone {
        LocalZone(jiff::tz::TimeZone::try_system().unwrap_or(jiff::tz::TimeZone::UTC))
    }
}

impl Zone for LocalZone {
    fn offset_minutes(&self, unix_ms: i64) -> i32 {
        jiff::Timestamp::from_millisecond(unix_ms).map_or(0, |t| self.0.to_offset(t).seconds() / 60)
    }
}

/// Refuses replay bytes the game can't show, with the sentence the game would say: not a
/// replay, other rules, a mode this build doesn't have, a round that doesn't play.
pub fn check_watchable(bytes: &[u8]) -> Result<(), String> {
    let (mut app, _) = App::new(0, &typepper_game::storage::Stored::default(), None);
    app.watch_bytes(bytes, None, 0.0)
}

/// A replay to open before the menu.
pub struct First {
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Race it (`--race`) rather than watch it (`--replay`).
    pub race: bool,
    /// Whose round it is, when known.
    pub who: Option<String>,
}

/// How the game starts.
pub struct Start {
    /// Where its files are.
    pub data: DataDir,
    /// A replay to watch or race first.
    pub first: Option<First>,
    /// The server, if one is set.
    pub remote: Option<Remote>,
    /// A live room to join first: its code (`--room`).
    pub room: Option<String>,
}

/// Plays the game in this terminal until the player leaves. Warnings that came up are
/// returned, for the shell to print once the terminal is back.
pub fn play(start: Start) -> Result<Vec<String>, String> {
    let Start {
        data,
        first,
        remote,
        room,
    } = start;
    let (mut app, boot) = App::new(entropy(), &data.stored(), None);
    if let Some(why) = data.unwritable() {
        app.cannot_keep(why);
    }
    let clock = Instant::now();
    let now = |clock: Instant| Now {
        mono: clock.elapsed().as_secs_f64() * 1000.0,
        unix_ms: unix_ms(),
    };
    if let Some(First { bytes, race, who }) = first {
        if race {
            app.race_bytes(&bytes, who)?;
        } else {
            app.watch_bytes(&bytes, who, now(clock).mono)?;
        }
    }
    let (tx, answers) = mpsc::channel();
    let mut shell = Shell {
        data,
        remote,
        tx,
        warnings: vec![],
        room: None,
        conns: 0,
        clock,
    };
    shell.carry_out(&mut app, boot);
    if let Some(code) = room {
        let effects = app.join_room(&code);
        shell.carry_out(&mut app, effects);
    }

    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP] {
        signal_hook::flag::register(signal, stop.clone())
            .map_err(|e| format!("cannot watch for signals: {e}"))?;
    }
    watch_for_the_end(stop.clone());
    let mut terminal = ratatui::init();
    let _ = crossterm::execute!(std::io::stdout(), EnableBracketedPaste);
    let result = run(&mut terminal, &mut app, &mut shell, &answers, &stop);
    let _ = crossterm::execute!(std::io::stdout(), DisableBracketedPaste);
    // A terminal gone takes no restoring (and `restore` panics when it can't say so).
    let _ = ratatui::try_restore();
    result.map(|()| shell.warnings)
}

/// The frame loop.
fn run(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    shell: &mut Shell,
    answers: &mpsc::Receiver<Answer>,
    stop: &AtomicBool,
) -> Result<(), String> {
    let zone = LocalZone::system();
    let palette = Palette::new(Depth::from_env(|k| std::env::var(k).ok()));
    let mut scroll = Scroll::default();
    let mut shown: Option<Model> = None;
    let io = |e: std::io::Error| format!("the terminal failed: {e}");
    while !stop.load(Ordering::Relaxed) {
        while let Ok(answer) = answers.try_recv() {
            // A room connection closed since is no longer heard.
            if let Some(conn) = answer.room_conn() {
                if shell.room.as_ref().map(|(c, _)| *c) != Some(conn) {
                    continue;
                }
                if matches!(answer, Answer::RoomClosed { .. }) {
                    shell.room = None;
                }
            }
            let effects = answer.apply(app, shell.now());
            shell.carry_out(app, effects);
        }
        let effects = app.tick(shell.now());
        shell.carry_out(app, effects);
        let model = app.model(shell.now().mono, &zone);
        if shown.as_ref() != Some(&model) {
            terminal
                .draw(|f| render::draw(f, &model, &mut scroll, &palette))
                .map_err(io)?;
            shown = Some(model);
        }
        let wait = if matches!(&shown, Some(m) if m.kind.runs()) {
            FRAME
        } else {
            IDLE_FRAME
        };
        if !event::poll(wait).map_err(io)? {
            continue;
        }
        // Every event waiting is taken before the next draw.
        loop {
            match event::read().map_err(io)? {
                Event::Key(k) if quits(&k, shown.as_ref()) => return Ok(()),
                Event::Key(k) => {
                    if let Some(key) = key_of(&k) {
                        let effects = app.key(key, shell.now());
                        shell.carry_out(app, effects);
                    }
                }
                Event::Paste(text) => {
                    let effects = app.text(&text, shell.now());
                    shell.carry_out(app, effects);
                }
                Event::Resize(..) => shown = None,
                _ => {}
            }
            if !event::poll(Duration::ZERO).map_err(io)? {
                break;
            }
        }
    }
    Ok(())
}

/// How often the game looks for a gone terminal or a signal, apart from the frame loop.
const WATCH: Duration = Duration::from_millis(50);

/// Ends the process when SIGTERM or SIGHUP came (`stop`) or the terminal hung up, within
/// [`WATCH`], from a thread of its own. The frame loop honours `stop` between frames; but
/// once its terminal is gone crossterm's reader spins on a read that returns nothing and
/// never hands the loop back (measured: 10–40 % of a core, for ever, deaf to SIGTERM).
fn watch_for_the_end(stop: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(WATCH);
            let gone = terminal_hung_up();
            if gone || stop.load(Ordering::Relaxed) {
                // Give the frame loop a moment to leave by itself, restoring the terminal
                // and printing its warnings; then leave for it. A terminal gone takes no
                // restoring (and `eprintln!` panics when the terminal is gone).
                std::thread::sleep(WATCH * 4);
                if !gone {
                    let _ = ratatui::try_restore();
                }
                std::process::exit(if gone { 129 } else { 143 });
            }
        }
    });
}

/// Whether the terminal on standard input hung up (or is no more).
fn terminal_hung_up() -> bool {
    let mut fd = libc::pollfd {
        fd: libc::STDIN_FILENO,
        events: 0,
        revents: 0,
    };
    // SAFETY: one valid pollfd, polled without waiting.
    #[allow(unsafe_code)]
    let ready = unsafe { libc::poll(&mut fd, 1, 0) };
    ready > 0 && fd.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
}

/// Ctrl-C anywhere, or `q` on the menu, leaves the game. Not esc: esc is how a round
/// goes back to the menu, and a second esc there would quit a player who meant one.
fn quits(k: &KeyEvent, shown: Option<&Model>) -> bool {
    let ctrl_c = k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL);
    let q_on_menu = k.code == KeyCode::Char('q')
        && k.modifiers.is_empty()
        && shown.is_some_and(|m| m.kind == Kind::Menu);
    k.kind != KeyEventKind::Release && (ctrl_c || q_on_menu)
}

/// The game's key for a terminal key, if it is one.
pub fn key_of(k: &KeyEvent) -> Option<Key> {
    if k.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    let alt = k.modifiers.contains(KeyModifiers::ALT);
    Some(match k.code {
        // Some terminals send backspace as ctrl-h, so that is a backspace; ctrl-w is the
        // terminal's own word erase.
        KeyCode::Char('h') if ctrl => Key::Backspace,
        KeyCode::Char('w') if ctrl => Key::DeleteWord,
        KeyCode::Char(_) if ctrl || alt => return None,
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Backspace if ctrl || alt => Key::DeleteWord,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Escape,
        KeyCode::Tab => Key::Tab,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        _ => return None,
    })
}

/// What carries out the app's effects.
struct Shell {
    data: DataDir,
    remote: Option<Remote>,
    tx: mpsc::Sender<Answer>,
    warnings: Vec<String>,
    /// The live room's connection, and its number.
    room: Option<(u64, RoomLink)>,
    /// Room connections made so far: each one's number.
    conns: u64,
    /// The game's monotonic clock.
    clock: Instant,
}

impl Shell {
    fn now(&self) -> Now {
        Now {
            mono: self.clock.elapsed().as_secs_f64() * 1000.0,
            unix_ms: unix_ms(),
        }
    }

    fn warn(&mut self, message: String) {
        self.data.log(&message);
        self.warnings.push(message);
    }

    fn carry_out(&mut self, app: &mut App, effects: Vec<Effect>) {
        let mut queue: std::collections::VecDeque<Effect> = effects.into();
        while let Some(effect) = queue.pop_front() {
            match effect {
                Effect::Warn(message) => self.warn(message),
                Effect::Save { key, value } => {
                    if let Err(e) = self.data.save(&key, &value) {
                        self.warn(format!("{e}: the round still counts"));
                    }
                }
                Effect::Remove(key) => {
                    if let Err(e) = self.data.remove(&key) {
                        self.warn(e);
                    }
                }
                Effect::Copy(text) => copy(&text),
                Effect::JoinRoom(code) => {
                    // One room at a time: the last one's connection goes.
                    self.room = None;
                    self.conns += 1;
                    let joined = match &self.remote {
                        Some(remote) => remote.join(&code, self.conns, self.tx.clone()),
                        None => Err(net::NO_SERVER.to_owned()),
                    };
                    match joined {
                        Ok(link) => {
                            self.room = Some((self.conns, link));
                            // ssh holds what is said until the channel is up.
                            queue.extend(app.room_connected());
                        }
                        Err(why) => queue.extend(app.room_closed(&why, self.now())),
                    }
                }
                Effect::RoomSay(ask) => {
                    if let Some((_, link)) = &mut self.room {
                        link.say(&ask);
                    }
                }
                Effect::LeaveRoom => self.room = None,
                request => match &self.remote {
                    Some(remote) => remote.send(request, self.tx.clone()),
                    // No server: answered at once, as a request that could not go out.
                    None => queue.extend(Answer::no_server(request).apply(app, self.now())),
                },
            }
        }
    }
}

/// Puts `text` on the clipboard through the terminal (OSC 52), which most terminals and
/// tmux pass on, over SSH too.
fn copy(text: &str) {
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    let mut out = std::io::stdout();
    let _ = write!(out, "\x1b]52;c;{encoded}\x07");
    let _ = out.flush();
}

fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Randomness for the game's own seeds: the clock and the process, mixed. Seeds only
/// need to differ between rounds; the server issues the ones that count.
fn entropy() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut rng = typepper_engine::rng::Rng::new(nanos ^ u64::from(std::process::id()) << 32);
    rng.next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_keys_become_the_game_s() {
        let key = |code, modifiers| key_of(&KeyEvent::new(code, modifiers));
        assert_eq!(
            key(KeyCode::Char('é'), KeyModifiers::NONE),
            Some(Key::Char('é'))
        );
        assert_eq!(
            key(KeyCode::Char('🌶'), KeyModifiers::NONE),
            Some(Key::Char('🌶'))
        );
        assert_eq!(
            key(KeyCode::Char('A'), KeyModifiers::SHIFT),
            Some(Key::Char('A'))
        );
        assert_eq!(
            key(KeyCode::Char('h'), KeyModifiers::CONTROL),
            Some(Key::Backspace)
        );
        for (code, modifiers) in [
            (KeyCode::Char('w'), KeyModifiers::CONTROL),
            (KeyCode::Backspace, KeyModifiers::CONTROL),
            (KeyCode::Backspace, KeyModifiers::ALT),
        ] {
            assert_eq!(key(code, modifiers), Some(Key::DeleteWord), "{modifiers:?}");
        }
        assert_eq!(key(KeyCode::Char('x'), KeyModifiers::CONTROL), None);
        assert_eq!(key(KeyCode::Esc, KeyModifiers::NONE), Some(Key::Escape));
        assert_eq!(key(KeyCode::F(1), KeyModifiers::NONE), None);
    }

    #[test]
    fn esc_on_the_menu_does_not_quit_q_does() {
        let (app, _) = App::new(0, &typepper_game::storage::Stored::default(), None);
        let menu = app.model(0.0, &LocalZone(jiff::tz::TimeZone::UTC));
        assert_eq!(menu.kind, Kind::Menu);
        let press = |code, modifiers| quits(&KeyEvent::new(code, modifiers), Some(&menu));
        assert!(!press(KeyCode::Esc, KeyModifiers::NONE));
        assert!(press(KeyCode::Char('q'), KeyModifiers::NONE));
        assert!(!press(KeyCode::Char('q'), KeyModifiers::ALT));
        assert!(press(KeyCode::Char('c'), KeyModifiers::CONTROL));
        // Off the menu, q is a letter.
        assert!(!quits(
            &KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE),
            None
        ));
    }

    #[test]
    fn the_local_zone_follows_summer_time() {
        let paris = LocalZone(jiff::tz::TimeZone::get("Europe/Paris").unwrap());
        // 2026-01-15 and 2026-07-15, noon UTC.
        assert_eq!(paris.offset_minutes(1_768_478_400_000), 60);
        assert_eq!(paris.offset_minutes(1_784_116_800_000), 120);
    }
}
