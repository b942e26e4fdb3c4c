//! typepper in a terminal: the same game as the browser's ([`typepper_game`]), in a terminal
//! shell made of ratatui and crossterm.
//!
//! The shell:
//! 1. reads the data dir ([`data`]) and boots the game's [`App`] from it;
//! 2. hands crossterm's key, paste and resize events to the [`game`], which turns them into
//!    the app's keys, ticks it, and draws its screen's model ([`render`]) when it differs
//!    from the last one drawn (or the terminal was resized);
//! 3. carries out the app's effects as the game's [`Host`]: files in the data dir, and
//!    the requests to the server, answered from a background thread ([`net`]); and writes
//!    what the game puts on the clipboard (OSC 52).
//!
//! The server plays the same [`game`] with a terminal at the far end of an SSH channel
//! ([`stream`]): one drawing of each screen, whoever's terminal it is on.
//!
//! The terminal is put back as it was on every way out: the end of the game, an error,
//! SIGTERM or SIGHUP, and a panic (ratatui's hook restores it before the panic prints).
//! A terminal that goes away (its window closed, its SSH connection dropped) ends the game
//! too, whatever it was doing: see [`watch_for_the_end`].

pub mod data;
pub mod game;
pub mod net;
pub mod render;
pub mod stream;

use std::io::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crossterm::event::{self, DisableBracketedPaste, EnableBracketedPaste};
use typepper_api::room::Ask;
use typepper_game::app::App;
use typepper_game::request::{Answer, Failure, Request};
use typepper_game::zone::Zone;

use self::data::DataDir;
use self::game::{Flow, Game, Host};
use self::net::{Arrival, Remote, RoomLink};
use self::render::{Depth, Palette};

/// The system's time zone, as the system's zone database says.
pub struct LocalZone(jiff::tz::TimeZone);

impl LocalZone {
    /// The zone `TZ` or `/etc/localtime` names; UTC when there is none.
    pub fn system() -> LocalZone {
        LocalZone(jiff::tz::TimeZone::try_system().unwrap_or(jiff::tz::TimeZone::UTC))
    }

    /// The zone `tz` names (`Europe/Paris`), as a `TZ` a client sent says; UTC for none or
    /// one the zone database doesn't know.
    pub fn named(tz: Option<&str>) -> LocalZone {
        let zone = tz.and_then(|tz| jiff::tz::TimeZone::get(tz.trim_start_matches(':')).ok());
        LocalZone(zone.unwrap_or(jiff::tz::TimeZone::UTC))
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
    /// A text to play first, as a CUSTOM TEXT round (`--text FILE`).
    pub text: Option<String>,
}

/// Plays the game in this terminal until the player leaves. Warnings that came up are
/// returned, for the shell to print once the terminal is back.
pub fn play(start: Start) -> Result<Vec<String>, String> {
    let Start {
        data,
        first,
        remote,
        room,
        text,
    } = start;
    let (mut app, mut boot) = App::new(
        game::entropy(u64::from(std::process::id())),
        &data.stored(),
        None,
    );
    let unkept = data.unwritable().map(str::to_owned);
    if let Some(why) = &unkept {
        app.cannot_keep(why);
    }
    if let Some(First { bytes, race, who }) = first {
        if race {
            app.race_bytes(&bytes, who)?;
        } else {
            app.watch_bytes(&bytes, who, 0.0)?;
        }
    }
    if let Some(text) = text {
        boot.extend(app.play_custom(&text)?);
    }
    let (tx, answers) = mpsc::channel();
    let host = Local {
        data,
        remote,
        tx,
        room: None,
    };
    let palette = Palette::new(Depth::from_env(|k| std::env::var(k).ok()));
    let mut game = Game::new(app, boot, host, palette, Box::new(LocalZone::system()));
    if let Some(code) = room {
        game.with_app(|app, _| app.join_room(&code));
    }

    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP] {
        signal_hook::flag::register(signal, stop.clone())
            .map_err(|e| format!("cannot watch for signals: {e}"))?;
    }
    watch_for_the_end(stop.clone());
    let mut terminal = ratatui::init();
    let _ = crossterm::execute!(std::io::stdout(), EnableBracketedPaste);
    let result = run(&mut terminal, &mut game, &answers, &stop);
    let _ = crossterm::execute!(std::io::stdout(), DisableBracketedPaste);
    // The terminal's own cursor shape again (the caret setting chose one).
    let _ = std::io::stdout().write_all(b"\x1b[0 q");
    // A terminal gone takes no restoring (and `restore` panics when it can't say so).
    let _ = ratatui::try_restore();
    result.map(|()| {
        let mut warnings = game.warnings();
        // Said on leaving too: the rounds on screen a moment ago are gone with the game.
        warnings.extend(unkept.map(|why| format!("this game's rounds were not kept: {why}")));
        warnings
    })
}

/// The frame loop.
fn run(
    terminal: &mut ratatui::DefaultTerminal,
    game: &mut Game<Local>,
    answers: &mpsc::Receiver<Arrival>,
    stop: &AtomicBool,
) -> Result<(), String> {
    let io = |e: std::io::Error| format!("the terminal failed: {e}");
    while !stop.load(Ordering::Relaxed) {
        while let Ok(answer) = answers.try_recv() {
            game.answer(answer);
        }
        game.tick();
        game.draw(terminal).map_err(io)?;
        for text in game.take_writes() {
            let mut out = std::io::stdout();
            let _ = out.write_all(text.as_bytes());
            let _ = out.flush();
        }
        if !event::poll(game.wait()).map_err(io)? {
            continue;
        }
        // Every event waiting is taken before the next draw.
        loop {
            if game.event(event::read().map_err(io)?) == Flow::Quit {
                return Ok(());
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

/// The local game's host: the data dir, and the server over the system's `ssh`, its
/// answers coming back on `tx`.
struct Local {
    data: DataDir,
    remote: Option<Remote>,
    tx: mpsc::Sender<Arrival>,
    /// The live room's connection.
    room: Option<RoomLink>,
}

impl Host for Local {
    fn save(&mut self, key: &str, value: &str) -> Result<(), String> {
        self.data.save(key, value)
    }

    fn remove(&mut self, key: &str) -> Result<(), String> {
        self.data.remove(key)
    }

    fn log(&mut self, message: &str) {
        self.data.log(message);
    }

    fn send(&mut self, request: Request) -> Option<Answer> {
        match &self.remote {
            Some(remote) => {
                remote.send(request, self.tx.clone());
                None
            }
            // No server: answered at once, as a request that could not go out.
            None => Some(request.failed(Failure::CantAsk(net::NO_SERVER.into()))),
        }
    }

    fn join(&mut self, code: &str, conn: u64) -> Result<(), String> {
        self.room = None;
        let remote = self.remote.as_ref().ok_or(net::NO_SERVER)?;
        self.room = Some(remote.join(code, conn, self.tx.clone())?);
        Ok(())
    }

    fn say(&mut self, ask: &Ask) {
        if let Some(link) = &mut self.room {
            link.say(ask);
        }
    }

    fn leave(&mut self) {
        self.room = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_local_zone_follows_summer_time() {
        let paris = LocalZone(jiff::tz::TimeZone::get("Europe/Paris").unwrap());
        // 2026-01-15 and 2026-07-15, noon UTC.
        assert_eq!(paris.offset_minutes(1_768_478_400_000), 60);
        assert_eq!(paris.offset_minutes(1_784_116_800_000), 120);
    }
}
