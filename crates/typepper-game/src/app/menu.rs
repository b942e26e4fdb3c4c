//! The menu: the modes to play (BLITZ and WORDS at their lengths, ZEN, HOT PURSUIT at
//! its level, a QUOTE of a length or by number, your own text, the last drill), what
//! their text is like (language, punctuation, numbers), and a letter for every other
//! screen.

use typepper_engine::quotes::{self, Length};
use typepper_engine::{Base, Blitz, Drill, Language, Mode, Prose, QuoteNo, WordCount};

use crate::app::play::MENU_LETTER_HOLD_MS;
use crate::app::{App, BEST_HERE, Effect, Key, Now, Screen};
use crate::model::Menu;
use crate::model::MenuItem;
use crate::model::{Body, Kind, Model, Tap, Tone, headline, tap};
use crate::request::Need;
use crate::storage;

/// How many boards there are: one a rankable base, at the menu's prose.
pub(crate) const BOARDS: usize = 10;

/// The menu's modes before QUOTE: BLITZ, WORDS, ZEN, HOT PURSUIT.
const MODES: usize = 4;
/// The lines after them, before the drill: QUOTE and CUSTOM TEXT.
const TEXTS: usize = 2;
/// CUSTOM TEXT's line.
pub(crate) const CUSTOM_ROW: usize = MODES + 1;
/// What QUOTE's line plays: a passage of a length (`None`: any), or one by its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum QuotePick {
    /// A passage of this length the seed picks; any length for `None`.
    Of(Option<Length>),
    /// Passage number `n`, typed on the line; 0 while none is typed.
    Number(u32),
}

impl QuotePick {
    /// What the line shows between ‹ ›, and the menu keeps: `short`, `medium`, `long`,
    /// `any`, or `#12` (`#` alone before a number is typed).
    fn name(self) -> String {
        match self {
            QuotePick::Of(length) => length.map_or("any", Length::name).into(),
            QuotePick::Number(0) => "#".into(),
            QuotePick::Number(n) => format!("#{n}"),
        }
    }

    fn parse(text: &str) -> Option<QuotePick> {
        if let Some(n) = text.strip_prefix('#') {
            return match n {
                "" => Some(QuotePick::Number(0)),
                n => n
                    .parse()
                    .ok()
                    .filter(|&n| n <= 99_999)
                    .map(QuotePick::Number),
            };
        }
        let of = [
            None,
            Some(Length::Short),
            Some(Length::Medium),
            Some(Length::Long),
        ];
        of.into_iter()
            .map(QuotePick::Of)
            .find(|pick| pick.name() == text)
    }

    /// The next pick (or, `up` false, the one before), round the ends: the lengths, then
    /// a number, which keeps what was typed.
    fn turn(self, up: bool) -> QuotePick {
        let all = [
            Some(Length::Short),
            Some(Length::Medium),
            Some(Length::Long),
            None,
        ];
        match (self, up) {
            (QuotePick::Of(None), true) | (QuotePick::Of(Some(Length::Short)), false) => {
                QuotePick::Number(0)
            }
            (QuotePick::Number(_), true) => QuotePick::Of(Some(Length::Short)),
            (QuotePick::Number(_), false) => QuotePick::Of(None),
            (QuotePick::Of(length), up) => QuotePick::Of(cycle(&all, length, up)),
        }
    }
}

/// What the menu says of a player who has not linked.
pub(crate) const NOT_LINKED: &str = "not linked: l to link, to share and rank your rounds";

/// A line of the menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Row {
    /// A mode to play, at the menu's prose.
    Play(Mode),
    /// A quote of the picked length, or of the number typed on the line.
    Quote,
    /// Your own text: its screen.
    Custom,
    /// The text's language, which ← → cycle.
    Language,
    /// Punctuation, on or off.
    Punctuation,
    /// Numbers, on or off.
    Numbers,
}

/// What the menu was last left at, kept under [`storage::MENU`] as one line:
/// `<BLITZ secs> <WORDS count> <HOT PURSUIT level> <prose> <QUOTE length>`, the prose as a
/// key's tail (`/p@fr`) or `-` when plain, the length `short`, `medium`, `long` or `any`
/// (a line from before quotes has none: short). A line that doesn't read is the defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Picks {
    pub(crate) blitz: Blitz,
    pub(crate) count: WordCount,
    pub(crate) level: u8,
    pub(crate) prose: Prose,
    pub(crate) quote: QuotePick,
}

impl Default for Picks {
    fn default() -> Picks {
        Picks {
            blitz: Blitz::S15,
            count: WordCount::W25,
            level: 7,
            prose: Prose::PLAIN,
            quote: QuotePick::Of(Some(Length::Short)),
        }
    }
}

impl Picks {
    pub(crate) fn parse(text: &str) -> Option<Picks> {
        let mut fields = text.split_whitespace();
        let mut next = || fields.next();
        let secs: u32 = next()?.parse().ok()?;
        let count: u32 = next()?.parse().ok()?;
        let level: u8 = next()?.parse().ok()?;
        let tail = next()?;
        // The prose reads as a key's tail, after any base.
        let prose = match tail {
            "-" => Prose::PLAIN,
            tail => format!("zen{tail}").parse::<Mode>().ok()?.prose(),
        };
        let quote = match next() {
            None => QuotePick::Of(Some(Length::Short)),
            Some(name) => QuotePick::parse(name)?,
        };
        Some(Picks {
            blitz: Blitz::ALL.into_iter().find(|b| b.secs() == secs)?,
            count: WordCount::ALL.into_iter().find(|c| c.get() == count)?,
            level: Mode::pursuit(level).map(|_| level)?,
            prose,
            quote,
        })
    }

    pub(crate) fn text(&self) -> String {
        let tail = match self.prose.key() {
            tail if tail.is_empty() => "-".to_owned(),
            tail => tail,
        };
        format!(
            "{} {} {} {tail} {}",
            self.blitz.secs(),
            self.count.get(),
            self.level,
            self.quote.name()
        )
    }
}

/// The next (or, `up` false, the one before) of `all` after `now`, round the ends.
fn cycle<T: Copy + PartialEq>(all: &[T], now: T, up: bool) -> T {
    let i = all.iter().position(|&x| x == now).unwrap_or(0);
    let n = all.len();
    all[if up { (i + 1) % n } else { (i + n - 1) % n }]
}

impl App {
    /// How many lines the menu has: its modes, QUOTE and CUSTOM TEXT, the last drill once
    /// there is one, then the prose's three.
    pub(crate) fn menu_len(&self) -> usize {
        MODES + TEXTS + usize::from(self.drill.is_some()) + 3
    }

    /// The menu's `index`th line, from the top.
    pub(crate) fn menu_row(&self, index: usize) -> Option<Row> {
        let modes = self.menu_modes();
        if let Some(&mode) = modes.get(index) {
            return Some(Row::Play(mode));
        }
        let drill = usize::from(self.drill.is_some());
        match index - MODES {
            0 => return Some(Row::Quote),
            _ if index == CUSTOM_ROW => return Some(Row::Custom),
            _ => {}
        }
        match index - MODES - TEXTS {
            0 if drill == 1 => self.drill.map(|d| Row::Play(Mode::plain(Base::Drill(d)))),
            i if i == drill => Some(Row::Language),
            i if i == drill + 1 => Some(Row::Punctuation),
            i if i == drill + 2 => Some(Row::Numbers),
            _ => None,
        }
    }

    /// The mode of the menu's `index`th line, if it is one to play.
    pub(crate) fn menu_at(&self, index: usize) -> Option<Mode> {
        match self.menu_row(index)? {
            Row::Play(mode) => Some(mode),
            _ => None,
        }
    }

    /// The mode the menu has selected, or the first when a prose line is.
    pub(crate) fn menu_mode(&self) -> Mode {
        self.menu_at(self.menu_item).unwrap_or(self.menu_modes()[0])
    }

    /// The menu's modes at their picked lengths, with its prose.
    pub(crate) fn menu_modes(&self) -> [Mode; MODES] {
        let p = &self.picks;
        [
            Base::Blitz(p.blitz),
            Base::Words(p.count),
            Base::Zen,
            Base::Pursuit(typepper_engine::StartLevel::new(p.level).expect("kept in range")),
        ]
        .map(|base| self.with_prose(base))
    }

    /// `base` at the menu's prose, with the settings' strict rules.
    pub(crate) fn with_prose(&self, base: Base) -> Mode {
        let mode = Mode::new(base, self.picks.prose).unwrap_or(Mode::plain(base));
        mode.with_strict(self.settings.strict()).unwrap_or(mode)
    }

    /// A click or a tap on the `‹` (`up` false) or `›` beside the `index`th menu line's
    /// value: the line is selected and its value moves, as ← or → would move it. A line
    /// without a value does nothing.
    pub fn pick_value(&mut self, index: usize, up: bool, now: Now) -> Vec<Effect> {
        let valued = match self.menu_row(index) {
            Some(Row::Play(mode)) => self.value_of(mode).is_some(),
            Some(Row::Custom) | None => false,
            Some(_) => true,
        };
        if !matches!(self.screen, Screen::Menu) || !valued {
            return vec![];
        }
        self.menu_item = index;
        self.key(if up { Key::Right } else { Key::Left }, now)
    }

    /// Moves the value of the menu's selected line: a length, a level, a language, a
    /// switch; what changed is kept.
    fn turn(&mut self, up: bool, now: Now) -> Vec<Effect> {
        let before = self.picks;
        let row = self.menu_row(self.menu_item);
        let p = &mut self.picks;
        match row {
            Some(Row::Play(mode)) => match mode.base() {
                Base::Blitz(b) => p.blitz = cycle(&Blitz::ALL, b, up),
                Base::Words(c) => p.count = cycle(&WordCount::ALL, c, up),
                Base::Pursuit(_) => {
                    let levels = typepper_engine::PURSUIT_LEVELS;
                    p.level = match up {
                        true => (p.level + 1).min(*levels.end()),
                        false => p.level.saturating_sub(1).max(*levels.start()),
                    };
                }
                Base::Zen | Base::Drill(_) | Base::Quote(_) | Base::Custom => {}
            },
            Some(Row::Quote) => p.quote = p.quote.turn(up),
            Some(Row::Custom) => {}
            Some(Row::Language) => {
                p.prose.language = cycle(&Language::ALL, p.prose.language, up);
                self.notice = Some((self.language_said(), Tone::Dim));
            }
            Some(Row::Punctuation) => p.prose.punctuation = !p.prose.punctuation,
            Some(Row::Numbers) => p.prose.numbers = !p.prose.numbers,
            None => {}
        }
        match self.picks != before {
            true => self.picked(now),
            false => vec![],
        }
    }

    /// What a mode's line shows between ‹ ›: BLITZ's clock, WORDS' count, the level.
    fn value_of(&self, mode: Mode) -> Option<String> {
        match mode.base() {
            Base::Blitz(b) => Some(format!("{}s", b.secs())),
            Base::Words(c) => Some(c.get().to_string()),
            Base::Pursuit(l) => Some(format!("lv{}", l.get())),
            Base::Zen | Base::Drill(_) | Base::Quote(_) | Base::Custom => None,
        }
    }

    /// The menu's picks changed: they are kept, and the seeds of the modes now on it
    /// asked for.
    fn picked(&mut self, now: Now) -> Vec<Effect> {
        let mut fx = vec![Effect::Save {
            key: storage::MENU.into(),
            value: self.picks.text(),
        }];
        fx.extend(self.want_seeds(now.unix_ms));
        // A language picked is fetched now, where the build lacks it: enter rarely waits.
        self.want(crate::request::Need::Words(self.picks.prose.language));
        fx
    }

    pub(crate) fn menu_key(&mut self, key: Key, now: Now) -> Vec<Effect> {
        // A notice is the menu's: it stays while the menu does, unless a key says
        // something new, and the screen a key opens starts without it.
        let said = self.notice.take();
        let fx = self.menu_command(key, now);
        if matches!(self.screen, Screen::Menu) && self.notice.is_none() {
            self.notice = said;
        }
        fx
    }

    pub(crate) fn menu_command(&mut self, key: Key, now: Now) -> Vec<Effect> {
        if self.waiting_key(key) {
            return vec![];
        }
        if self.menu_row(self.menu_item) == Some(Row::Quote)
            && let Some(fx) = self.quote_number_key(key, now)
        {
            return fx;
        }
        let items = self.menu_len();
        let blitz = |secs| self.with_prose(Base::Blitz(secs));
        match key {
            Key::Up => self.menu_item = (self.menu_item + items - 1) % items,
            Key::Down => self.menu_item = (self.menu_item + 1) % items,
            Key::Left | Key::Right => return self.turn(key == Key::Right, now),
            Key::Enter | Key::Tab | Key::Char(' ') => match self.menu_row(self.menu_item) {
                Some(Row::Play(mode)) => self.play(mode, None),
                Some(Row::Quote) => self.play_quote(None),
                Some(Row::Custom) => self.open_text(),
                // On a prose line, enter moves it on as → does.
                _ => return self.turn(true, now),
            },
            // A quote mark for a quote: `q` is the terminal's quit.
            Key::Char('\'') => self.play_quote(None),
            Key::Char('c') => self.open_text(),
            Key::Char('1') => self.play(blitz(Blitz::S15), None),
            Key::Char('2') => self.play(blitz(Blitz::S30), None),
            Key::Char('3') => self.play(blitz(Blitz::S60), None),
            Key::Char('4') => self.play(blitz(Blitz::S120), None),
            Key::Char('w') => self.play(self.menu_modes()[1], None),
            Key::Char('z') => self.play(self.with_prose(Base::Zen), None),
            // `r`: a flame you run from. `p` is your profile.
            Key::Char('r') => self.play(self.pursuit(), None),
            Key::Char('p') => return self.open_own_profile(),
            // `j`: the day's text, the daily (few words start with a j, and a word typed
            // at the menu starts a round).
            Key::Char('j') => return self.play_daily(),
            // The prose's quick keys, as a key writes it: `.` punctuation, `#` numbers,
            // `@` the next language.
            Key::Char(c @ ('.' | '#' | '@')) => {
                let p = &mut self.picks.prose;
                let said = match c {
                    '.' => {
                        p.punctuation = !p.punctuation;
                        format!("text: {}", self.prose_said())
                    }
                    '#' => {
                        p.numbers = !p.numbers;
                        format!("text: {}", self.prose_said())
                    }
                    _ => {
                        p.language = cycle(&Language::ALL, p.language, true);
                        self.language_said()
                    }
                };
                self.notice = Some((said, Tone::Dim));
                return self.picked(now);
            }
            Key::Char('h') => self.open_history(),
            // Linked, the player's devices; else a name, or a code from a linked device.
            Key::Char('l') => match self.unlinkable {
                Some(why) => self.notice = Some((why.into(), Tone::Dim)),
                None if self.player.is_some() => return self.open_devices(),
                None => self.ask_to_link(),
            },
            Key::Char('b') => {
                // The board of the selected mode (on QUOTE at a number, that quote's); a
                // drill has none, so the first.
                if let (Some(Row::Quote), QuotePick::Number(n)) =
                    (self.menu_row(self.menu_item), self.picks.quote)
                    && let Some(mode) =
                        QuoteNo::new(n).and_then(|n| Mode::quote(n, self.quote_language()))
                {
                    return self.open_board_of(mode);
                }
                let mode = self.menu_mode();
                let board = self.board_modes().iter().position(|&m| m == mode);
                return self.open_boards(board.unwrap_or(0));
            }
            Key::Char('k') => self.open_keys(),
            Key::Char('f') => return self.open_room(),
            Key::Char('s') => {
                self.settings.step(crate::settings::Row::Live, false);
                let said = match self.settings.live {
                    crate::settings::Live::Off => "off: your speed shows at the end",
                    crate::settings::Live::Wpm => "your speed as you type",
                    crate::settings::Live::Accuracy => "your accuracy as you type",
                    crate::settings::Live::Both => "speed and accuracy as you type",
                };
                // Said, or a player who typed a word starting with s never learns why
                // their speed went.
                let said = format!("live stats: {said} · s changes it · o settings");
                self.notice = Some((said, Tone::Dim));
                return self.settings_changed();
            }
            Key::Char('o' | ',') => self.open_settings(),
            Key::Char('d') => match self.drill {
                Some(drill) => return self.play_drill(drill),
                None => {
                    let how = "no drill yet: k shows your keys, and d there drills the worst";
                    self.notice = Some((how.into(), Tone::Dim));
                }
            },
            Key::Char('g') => {
                let mode = self.menu_mode();
                match self.best(mode) {
                    Some(best) => {
                        let replay = best.replay.clone();
                        if let Err(why) = self.race(replay, BEST_HERE.into()) {
                            self.notice = Some((why, Tone::Wrong));
                        }
                    }
                    None => {
                        let how = format!(
                            "no {} round in your history yet: play one, then race it",
                            mode.title()
                        );
                        self.notice = Some((how, Tone::Dim));
                    }
                }
            }
            // A letter no command takes starts the picked mode, and is nothing more: the
            // words were not on screen, so it would be scored against a text the player
            // had not seen. (ASCII: Unicode's letter tables would cost the wasm more than
            // a word starting with é is worth.)
            Key::Char(c) if c.is_ascii_alphabetic() => {
                self.play(self.menu_mode(), None);
                if let Screen::Play(session) = &mut self.screen {
                    session.hold = Some(now.mono + MENU_LETTER_HOLD_MS);
                } else {
                    self.hold_letters();
                }
            }
            _ => {}
        }
        vec![]
    }

    /// A key on QUOTE's line when it is at a number: a digit adds to it, backspace takes
    /// one off (both kept), enter plays that quote. `None` for a key that is the menu's:
    /// at a length, digits are the quick starts as anywhere on the menu.
    fn quote_number_key(&mut self, key: Key, now: Now) -> Option<Vec<Effect>> {
        let QuotePick::Number(n) = self.picks.quote else {
            return None;
        };
        let n = match key {
            // Five digits at most: no quote is numbered past 65,535.
            Key::Char(d @ '0'..='9') if n < 10_000 => n * 10 + d.to_digit(10).unwrap_or(0),
            Key::Char('0'..='9') => n,
            Key::Backspace => n / 10,
            Key::Enter | Key::Tab if n > 0 => {
                self.play_quote(Some(n));
                return Some(vec![]);
            }
            Key::Enter | Key::Tab => {
                let how = "type the quote's number, then enter";
                self.notice = Some((how.into(), Tone::Dim));
                return Some(vec![]);
            }
            _ => return None,
        };
        self.picks.quote = QuotePick::Number(n);
        Some(self.picked(now))
    }

    /// What a seed for the menu's QUOTE is asked for by: its length and language
    /// (`quote:short@de`), the server picking a passage the player was never shown;
    /// nothing at a number, which the server doesn't issue.
    pub(crate) fn quote_ask(&self) -> Option<String> {
        let QuotePick::Of(length) = self.picks.quote else {
            return None;
        };
        let language = self.quote_language();
        let code = match language {
            Language::English => String::new(),
            other => format!("@{}", other.code()),
        };
        Some(format!(
            "quote:{}{code}",
            length.map_or("any", Length::name)
        ))
    }

    /// The language quotes are played in: the menu's, when it has quotes, else English.
    pub(crate) fn quote_language(&self) -> Language {
        let language = self.picks.prose.language;
        match quotes::LANGUAGES.contains(&language) {
            true => language,
            false => Language::English,
        }
    }

    /// A QUOTE round: passage `number` if given, else one of the picked length the seed
    /// picks. Waits for the language's quotes where the build lacks them; a number the
    /// corpus doesn't have is said on the menu.
    pub(crate) fn play_quote(&mut self, number: Option<u32>) {
        let language = self.quote_language();
        let need = Need::Quotes(language);
        if self.play_waits_for(need, number) {
            return;
        }
        let passages = quotes::passages(language).map_or(0, <[_]>::len);
        // A passage the server picked, never shown to this player: the round ranks.
        if number.is_none()
            && let Some(ask) = self.quote_ask()
            && let Some((key, seed)) = self.seeds.take_issued(&ask)
            && let Ok(mode) = key.parse::<Mode>()
            && Need::of(mode) == need
            && let Base::Quote(n) = mode.base()
            && usize::from(n.get()) <= passages
        {
            return self.play(mode, Some(seed));
        }
        let n = match number {
            Some(n) => QuoteNo::new(n).filter(|q| usize::from(q.get()) <= passages),
            None => {
                let seed = self.seeds.own_seed();
                let length = match self.picks.quote {
                    QuotePick::Of(length) => length,
                    QuotePick::Number(_) => None,
                };
                quotes::pick(language, length, seed)
            }
        };
        match n.and_then(|n| Mode::quote(n, language)) {
            Some(mode) => self.play(mode, None),
            None => {
                let said = format!(
                    "there is no quote #{} in {}: it has 1 to {passages}",
                    number.unwrap_or(0),
                    language.name()
                );
                self.notice = Some((said, Tone::Wrong));
            }
        }
    }

    /// Starts a drill of `letters` and remembers it for the menu.
    pub(crate) fn play_drill(&mut self, drill: Drill) -> Vec<Effect> {
        self.drill = Some(drill);
        self.play(Mode::plain(Base::Drill(drill)), None);
        vec![Effect::Save {
            key: storage::DRILL.into(),
            value: drill.letters().to_owned(),
        }]
    }

    pub(crate) fn pursuit(&self) -> Mode {
        self.menu_modes()[3]
    }

    /// The modes the boards screen cycles through, at the menu's prose (HOT PURSUIT at
    /// the menu's level).
    pub(crate) fn board_modes(&self) -> [Mode; BOARDS] {
        let [s15, s30, s60, s120] = Blitz::ALL.map(|b| self.with_prose(Base::Blitz(b)));
        let [w10, w25, w50, w100] = WordCount::ALL.map(|c| self.with_prose(Base::Words(c)));
        let zen = self.with_prose(Base::Zen);
        [
            s15,
            s30,
            s60,
            s120,
            w10,
            w25,
            w50,
            w100,
            zen,
            self.pursuit(),
        ]
    }

    /// What the picked language's words are, with their credit (the lists are CC BY-SA:
    /// the credit goes where they are used).
    fn language_said(&self) -> String {
        let language = self.picks.prose.language;
        match language {
            Language::English => "english: typepper's own 1,000 common words".into(),
            other => format!(
                "{}: {} common words, from wordfreq by Robyn Speer (CC BY-SA 4.0)",
                other.name(),
                if other == Language::English10k {
                    "10,000"
                } else {
                    "1,000"
                }
            ),
        }
    }

    /// The menu's prose in words: `english`, `punctuation · français`.
    pub(crate) fn prose_said(&self) -> String {
        let prose = self.picks.prose;
        let said = prose.to_string();
        match said.strip_prefix(" · ") {
            Some(rest) if prose.language != Language::English => rest.to_owned(),
            Some(rest) => format!("{rest} · english"),
            None => "english".to_owned(),
        }
    }

    /// Whether a round of `mode` started now would be on a seed the server issued, and
    /// so count for the boards.
    pub(crate) fn ranked_ready(&self, mode: Mode) -> bool {
        let key = mode.key();
        self.seeds.has(&key)
    }

    pub(crate) fn menu(&self) -> Menu {
        let on = |b: bool| if b { "on" } else { "off" }.to_owned();
        let prose = self.picks.prose;
        let items = (0..self.menu_len())
            .filter_map(|i| self.menu_row(i))
            .map(|row| match row {
                Row::Quote => {
                    let value = self.picks.quote.name();
                    let language = self.quote_language();
                    MenuItem {
                        label: "QUOTE".into(),
                        title: format!("QUOTE {value} · {}", language.name()),
                        value: Some(value),
                        ranked: self.quote_ask().is_some_and(|ask| self.seeds.has(&ask)),
                        setting: false,
                    }
                }
                Row::Custom => MenuItem {
                    label: "CUSTOM TEXT".into(),
                    value: None,
                    title: match &self.custom {
                        Some(text) => format!("CUSTOM TEXT · {} characters", text.chars().count()),
                        None => "CUSTOM TEXT: paste your own".into(),
                    },
                    ranked: false,
                    setting: false,
                },
                Row::Play(mode) => {
                    let value = self.value_of(mode);
                    MenuItem {
                        // The length or level is the line's own, set with ← and →.
                        label: match mode.base() {
                            Base::Blitz(_) => "BLITZ".into(),
                            Base::Words(_) => "WORDS".into(),
                            Base::Pursuit(_) => "HOT PURSUIT".into(),
                            _ => Mode::plain(mode.base()).title(),
                        },
                        value,
                        title: mode.title(),
                        ranked: self.ranked_ready(mode),
                        setting: false,
                    }
                }
                Row::Language => MenuItem::setting("language", prose.language.name().into()),
                Row::Punctuation => MenuItem::setting("punctuation", on(prose.punctuation)),
                Row::Numbers => MenuItem::setting("numbers", on(prose.numbers)),
            })
            .collect();
        Menu {
            tagline: "every round is a replay",
            items,
            selected: self.menu_item,
            last_round: self
                .history
                .last()
                .map(|e| format!("last round: {}", headline(&e.score))),
            player: match (&self.player, self.unlinkable) {
                (Some(p), _) => format!("linked as {}", p.name),
                (None, Some(why)) => why.into(),
                (None, None) => NOT_LINKED.into(),
            },
            race: self
                .best(self.menu_mode())
                .map(|b| format!("g races {BEST_HERE}: {}", b.score.headline())),
            daily: self.daily_line(),
        }
    }

    pub(crate) fn menu_screen(&self, notice: Option<(String, Tone)>) -> Model {
        Model {
            kind: Kind::Menu,
            banner: None,
            notice,
            // `d` plays the last drill: offered only once there is one. `l` only to
            // a player who can link.
            hints: match (self.drill.is_some(), self.unlinkable.is_none()) {
                (true, true) => {
                    "↑↓ pick · ←→ change · enter play · 1 2 3 4 w z r d quick start · j daily · ' quote · c your text · . punctuation · # numbers · @ language · g race your best here · f race friends · k your keys · h history · b boards · p profile · l link · o settings"
                }
                (false, true) => {
                    "↑↓ pick · ←→ change · enter play · 1 2 3 4 w z r quick start · j daily · ' quote · c your text · . punctuation · # numbers · @ language · g race your best here · f race friends · k your keys · h history · b boards · p profile · l link · o settings"
                }
                (true, false) => {
                    "↑↓ pick · ←→ change · enter play · 1 2 3 4 w z r d quick start · j daily · ' quote · c your text · . punctuation · # numbers · @ language · g race your best here · f race friends · k your keys · h history · b boards · o settings"
                }
                (false, false) => {
                    "↑↓ pick · ←→ change · enter play · 1 2 3 4 w z r quick start · j daily · ' quote · c your text · . punctuation · # numbers · @ language · g race your best here · f race friends · k your keys · h history · b boards · o settings"
                }
            },
            // The screens a letter opens, for a finger (a phone's keyboard is hidden
            // on the menu) and a pointer.
            taps: {
                const ROOMS: Tap = tap("rooms", Key::Char('f'));
                const HISTORY: Tap = tap("history", Key::Char('h'));
                const BOARDS: Tap = tap("boards", Key::Char('b'));
                const KEYS: Tap = tap("your keys", Key::Char('k'));
                const LINK_IT: Tap = tap("link", Key::Char('l'));
                const DAILY: Tap = tap("daily", Key::Char('j'));
                const SETTINGS: Tap = tap("settings", Key::Char('o'));
                match (self.unlinkable.is_some(), self.player.is_some()) {
                    (true, _) => &[ROOMS, HISTORY, BOARDS, KEYS, SETTINGS],
                    (false, true) => &[DAILY, ROOMS, HISTORY, BOARDS, KEYS, LINK_IT, SETTINGS],
                    (false, false) => &[ROOMS, HISTORY, BOARDS, KEYS, LINK_IT, SETTINGS],
                }
            },
            body: Body::Menu(self.menu()),
        }
    }
}
