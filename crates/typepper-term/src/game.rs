//! The terminal game, wherever its terminal is: this process's own (`typepper`), or one at
//! the far end of an SSH channel (the server's `ssh host`). The two shells differ only in
//! where events come from, where frames go and who carries out requests ([`Host`]); what
//! the game does with an event, and what it draws, is written here once.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::Backend;
use typepper_api::room::Ask;
use typepper_game::app::{App, Effect, Key, Now};
use typepper_game::layout::Scroll;
use typepper_game::model::{Kind, Model};
use typepper_game::settings::{Caret, Motion, Settings};
use typepper_game::zone::Zone;

use typepper_game::request::{self, Answer, Request};

use crate::net::Arrival;
use crate::render::{self, Palette};

/// How often the screen is looked at while a round runs: its clock and flame move.
pub const FRAME: Duration = Duration::from_millis(16);
/// How often it is looked at otherwise.
pub const IDLE_FRAME: Duration = Duration::from_millis(100);

/// What a shell does for the game: keep its files, say its warnings, and carry its
/// requests and its live room to the server. Answers come back through [`Game::answer`].
pub trait Host {
    /// Keeps `value` under `key` (a data dir's file, a player's row).
    fn save(&mut self, key: &str, value: &str) -> Result<(), String>;
    /// Forgets what `key` holds.
    fn remove(&mut self, key: &str) -> Result<(), String>;
    /// Writes `message` where the shell keeps its log.
    fn log(&mut self, message: &str);
    /// Sends a request to the server: its answer comes later, or now when it can't go
    /// out at all.
    fn send(&mut self, request: Request) -> Option<Answer>;
    /// Joins live room `code` as connection `conn`, leaving any other.
    fn join(&mut self, code: &str, conn: u64) -> Result<(), String>;
    /// Says `ask` to the room joined.
    fn say(&mut self, ask: &Ask);
    /// Leaves the room joined, hearing nothing more from it.
    fn leave(&mut self);
}

/// Whether the game goes on after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// It goes on.
    Go,
    /// The player left.
    Quit,
}

/// The game in a terminal: the app, the screen last drawn, and its host.
pub struct Game<H> {
    app: App,
    host: H,
    clock: Instant,
    scroll: Scroll,
    shown: Option<Model>,
    palette: Palette,
    zone: Box<dyn Zone + Send>,
    /// The live room's connection number, while the game is in one.
    room: Option<u64>,
    /// Room connections made so far.
    conns: u64,
    warnings: Vec<String>,
    /// What the shell writes to its terminal past the frames: a copy to the clipboard
    /// (OSC 52), the bell, the cursor's shape.
    writes: Vec<String>,
    /// The cursor's shape last asked for (DECSCUSR's number), so it is asked once.
    cursor: Option<u8>,
}

impl<H: Host> Game<H> {
    /// The game `app`, carrying out `boot` (what [`App::new`] asked for first).
    pub fn new(
        app: App,
        boot: Vec<Effect>,
        host: H,
        palette: Palette,
        zone: Box<dyn Zone + Send>,
    ) -> Game<H> {
        let mut game = Game {
            app,
            host,
            clock: Instant::now(),
            scroll: Scroll::default(),
            shown: None,
            palette,
            zone,
            room: None,
            conns: 0,
            warnings: vec![],
            writes: vec![],
            cursor: None,
        };
        game.carry_out(boot);
        game
    }

    /// Does `act` to the app and carries out what it asks for.
    pub fn with_app(&mut self, act: impl FnOnce(&mut App, Now) -> Vec<Effect>) {
        let now = self.now();
        let effects = act(&mut self.app, now);
        self.carry_out(effects);
    }

    /// The app's clocks now.
    pub fn now(&self) -> Now {
        Now {
            mono: self.clock.elapsed().as_secs_f64() * 1000.0,
            unix_ms: unix_ms(),
        }
    }

    /// What reached the game from the host. A room connection closed since is no
    /// longer heard.
    pub fn answer(&mut self, arrival: Arrival) {
        let Arrival { room, answer } = arrival;
        if let Some(conn) = room {
            if self.room != Some(conn) {
                return;
            }
            if matches!(answer, Answer::RoomClosed(_)) {
                self.room = None;
            }
        }
        self.with_app(|app, now| app.answer(answer, now));
    }

    /// A terminal event: a key, a paste, a resize.
    pub fn event(&mut self, event: Event) -> Flow {
        match event {
            Event::Key(k) if quits(&k, self.shown.as_ref()) => return Flow::Quit,
            Event::Key(k) => {
                if let Some(key) = key_of(&k) {
                    self.with_app(|app, now| app.key(key, now));
                }
            }
            Event::Paste(text) => self.with_app(|app, now| app.text(&text, now)),
            Event::Resize(..) => self.shown = None,
            _ => {}
        }
        Flow::Go
    }

    /// Whether a paste now is taken whole, as one text (the custom text screen), rather
    /// than as keys typed one by one.
    pub fn takes_text(&self) -> bool {
        matches!(self.app.screen(), typepper_game::app::Screen::Text(_))
    }

    /// Moves the game's clock on: a round's end, a notice's fading.
    pub fn tick(&mut self) {
        self.with_app(|app, now| app.tick(now));
    }

    /// Draws the screen on `terminal` if it changed since it was last drawn; whether it
    /// did.
    pub fn draw<B: Backend>(&mut self, terminal: &mut Terminal<B>) -> std::io::Result<bool> {
        let model = self.app.model(self.now().mono, &*self.zone);
        if self.shown.as_ref() == Some(&model) {
            return Ok(false);
        }
        let settings = *self.app.settings();
        let cursor = cursor_shape(&settings);
        if self.cursor != Some(cursor) {
            self.cursor = Some(cursor);
            self.writes.push(format!("\x1b[{cursor} q"));
        }
        let palette = self.palette.themed(settings.theme);
        let scroll = &mut self.scroll;
        terminal.draw(|f| render::draw(f, &model, scroll, &palette))?;
        self.shown = Some(model);
        Ok(true)
    }

    /// How long the shell may wait for an event before the screen is looked at again: a
    /// frame's time while something moves by itself ([`App::wake`]), else until it will,
    /// at most [`IDLE_FRAME`] (the local game's answers are looked for between frames).
    pub fn wait(&self) -> Duration {
        let now = self.now();
        let Some(at) = self.app.wake(now) else {
            return IDLE_FRAME;
        };
        Duration::from_secs_f64((at - now.mono).max(0.0) / 1000.0).clamp(FRAME, IDLE_FRAME)
    }

    /// The kind of screen last drawn.
    pub fn showing(&self) -> Option<Kind> {
        self.shown.as_ref().map(|m| m.kind)
    }

    /// What to write to the terminal past the frames since this was last asked: copies
    /// to the clipboard, the bell, the cursor's shape.
    pub fn take_writes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.writes)
    }

    /// The warnings said so far.
    pub fn warnings(self) -> Vec<String> {
        self.warnings
    }

    fn warn(&mut self, message: String) {
        self.host.log(&message);
        self.warnings.push(message);
    }

    /// Carries out the app's effects, and what those lead to.
    pub fn carry_out(&mut self, effects: Vec<Effect>) {
        let mut queue: std::collections::VecDeque<Effect> = effects.into();
        while let Some(effect) = queue.pop_front() {
            match effect {
                Effect::Warn(message) => self.warn(message),
                Effect::Save { key, value } => {
                    if let Err(e) = self.host.save(&key, &value) {
                        self.warn(request::unsaved(&e));
                    }
                }
                Effect::Remove(key) => {
                    if let Err(e) = self.host.remove(&key) {
                        self.warn(e);
                    }
                }
                Effect::Copy(text) => self.writes.push(osc52(&text)),
                Effect::Keystroke { wrong } => {
                    if wrong && self.app.settings().bell {
                        self.writes.push("\x07".into());
                    }
                }
                Effect::JoinRoom(code) => {
                    // One room at a time: the last one's connection goes.
                    self.room = None;
                    self.conns += 1;
                    match self.host.join(&code, self.conns) {
                        Ok(()) => {
                            self.room = Some(self.conns);
                            // What is said before the connection is up waits for it.
                            let now = self.now();
                            queue.extend(self.app.answer(Answer::RoomConnected, now));
                        }
                        Err(why) => {
                            let now = self.now();
                            queue.extend(self.app.answer(Answer::RoomClosed(why), now));
                        }
                    }
                }
                Effect::RoomSay(ask) => {
                    if self.room.is_some() {
                        self.host.say(&ask);
                    }
                }
                Effect::LeaveRoom => {
                    self.room = None;
                    self.host.leave();
                }
                Effect::Request(request) => {
                    if let Some(answer) = self.host.send(request) {
                        let now = self.now();
                        queue.extend(self.app.answer(answer, now));
                    }
                }
            }
        }
    }
}

/// Ctrl-C anywhere, or `q` on the menu, leaves the game. Not esc: esc is how a round
/// goes back to the menu, and a second esc there would quit a player who meant one.
pub fn quits(k: &KeyEvent, shown: Option<&Model>) -> bool {
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

/// The clipboard escape (OSC 52) that puts `text` there: most terminals and tmux take it,
/// over SSH too.
pub fn osc52(text: &str) -> String {
    use base64::Engine as _;
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    format!("\x1b]52;c;{encoded}\x07")
}

/// The cursor's shape for `settings`, as DECSCUSR numbers it: a blinking block (1), a
/// steady one (2), an underline (3, 4), a bar (5, 6). It blinks unless motion is reduced
/// (a terminal has no system setting to ask).
fn cursor_shape(settings: &Settings) -> u8 {
    let steady = u8::from(settings.motion == Motion::Reduced);
    match settings.caret {
        Caret::Block => 1 + steady,
        Caret::Underline => 3 + steady,
        Caret::Line => 5 + steady,
    }
}

/// The wall clock, in ms since 1970.
pub fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Randomness for the game's own seeds: the clock and `salt` (a process, a session),
/// mixed. Seeds only need to differ between rounds; the server issues the ones that
/// count.
pub fn entropy(salt: u64) -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut rng = typepper_engine::rng::Rng::new(nanos ^ salt << 32);
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
        let menu = app.model(0.0, &typepper_game::zone::Fixed(0));
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
}
