//! The custom text screen: a text the player pastes or types (or a terminal reads from a
//! file), made ready as `custom::prepare` says, and the CUSTOM TEXT round on it. The last
//! text played is kept under [`storage::TEXT`], so the screen opens on it and `again`
//! plays it again.

use typepper_engine::{MAX_TEXT_CHARS, Mode, Replay, Round};

use crate::app::menu::CUSTOM_ROW;
use crate::app::{App, Effect, Key, Screen};
use crate::custom;
use crate::model::{BACK, Body, Kind, Model, Tap, TextEntry, Tone, tap};
use crate::storage;

/// The most a draft holds, in bytes: room for any text of the limit's characters and
/// the whitespace tidying takes out, and no more, so that a paste of a book is cut
/// short rather than held whole.
pub(crate) const DRAFT_MAX: usize = 4 * MAX_TEXT_CHARS + (1 << 14);

const PLAY: Tap = tap("play", Key::Enter);

/// The text being pasted or typed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Drafting {
    /// As pasted or typed, newlines and all.
    pub(crate) draft: String,
}

impl App {
    /// Opens the text screen on the last text played, if any.
    pub(crate) fn open_text(&mut self) {
        let draft = self.custom.clone().unwrap_or_default();
        self.screen = Screen::Text(Box::new(Drafting { draft }));
    }

    pub(crate) fn text_key(&mut self, key: Key) -> Vec<Effect> {
        let Screen::Text(drafting) = &mut self.screen else {
            return vec![];
        };
        let draft = &mut drafting.draft;
        match key {
            Key::Escape => {
                let draft = draft.clone();
                return self.leave_text(&draft);
            }
            Key::Enter | Key::Tab => {
                let draft = draft.clone();
                return self.play_draft(&draft);
            }
            Key::Backspace => {
                draft.pop();
            }
            Key::DeleteWord => {
                let kept = draft
                    .trim_end()
                    .rfind(char::is_whitespace)
                    .map_or(0, |i| i + 1);
                draft.truncate(kept);
            }
            Key::Char(c) => push_within(draft, &c.to_string()),
            _ => {}
        }
        vec![]
    }

    /// Esc: back to the menu at CUSTOM TEXT, a draft that can be played kept as its text
    /// (and stored), so that `f` there opens a room on it without playing it first.
    fn leave_text(&mut self, draft: &str) -> Vec<Effect> {
        self.screen = Screen::Menu;
        self.menu_item = CUSTOM_ROW;
        let Ok(text) = custom::prepare(draft) else {
            return vec![];
        };
        let how = "your text is on CUSTOM TEXT: enter plays it, f races friends on it";
        self.notice = Some((how.into(), Tone::Dim));
        if self.custom.as_ref() == Some(&text) {
            return vec![];
        }
        self.custom = Some(text.clone());
        vec![Effect::Save {
            key: storage::TEXT.into(),
            value: text,
        }]
    }

    /// A paste on the text screen: added whole, newlines and all (elsewhere a paste is
    /// keys).
    pub(crate) fn paste_text(&mut self, text: &str) {
        if let Screen::Text(drafting) = &mut self.screen {
            push_within(&mut drafting.draft, text);
            self.notice = None;
        }
    }

    /// The draft is now `text`, whole: a browser's text area, which edits it itself.
    pub fn set_draft(&mut self, text: &str) {
        if let Screen::Text(drafting) = &mut self.screen {
            drafting.draft.clear();
            push_within(&mut drafting.draft, text);
        }
    }

    /// Plays `draft` made ready, or says on the screen why it can't be played.
    fn play_draft(&mut self, draft: &str) -> Vec<Effect> {
        self.play_custom(draft).unwrap_or_else(|why| {
            self.notice = Some((why, Tone::Wrong));
            vec![]
        })
    }

    /// Plays a CUSTOM TEXT round on `raw` made ready ([`custom::prepare`]), which is the
    /// menu's from now on and kept (a terminal's `--text FILE`, the text screen's enter);
    /// or says why it can't be played.
    pub fn play_custom(&mut self, raw: &str) -> Result<Vec<Effect>, String> {
        let text = custom::prepare(raw).map_err(|why| why.to_string())?;
        self.custom = Some(text.clone());
        let mode = self.with_prose(typepper_engine::Base::Custom);
        self.play_text(text.clone(), mode, None);
        Ok(vec![Effect::Save {
            key: storage::TEXT.into(),
            value: text,
        }])
    }

    /// A CUSTOM TEXT round (of `mode`: its strict rules) on `text` (ready:
    /// [`custom::prepare`]), on `seed` if given, else one of the game's own. The menu's
    /// CUSTOM TEXT stays the player's own text: a friend's, watched or raced, doesn't
    /// take its place.
    pub(crate) fn play_text(&mut self, text: String, mode: Mode, seed: Option<u64>) {
        let seed = seed.unwrap_or_else(|| self.seeds.take(&mode.key()));
        match Round::custom_in(mode, &text, seed) {
            Ok(round) => self.start(round),
            Err(why) => self.notice = Some((why.to_string(), Tone::Wrong)),
        }
    }

    /// A round of your own like `replay`'s, on `seed` if given: its text too, if it
    /// carries one.
    pub(crate) fn play_like(&mut self, replay: &Replay, mode: Mode, seed: Option<u64>) {
        match &replay.text {
            Some(text) => self.play_text(text.clone(), mode, seed),
            None => self.play(mode, seed),
        }
    }

    pub(crate) fn text_screen(&self, drafting: &Drafting, notice: Option<(String, Tone)>) -> Model {
        let ready = custom::ready(&drafting.draft);
        let chars = ready.chars().count();
        let words = ready.split(' ').filter(|w| !w.is_empty()).count();
        let fits = chars > 0 && chars <= MAX_TEXT_CHARS;
        let count = match chars {
            0 => "paste or type a text".into(),
            n if n > MAX_TEXT_CHARS => {
                format!("{n} characters: {} over the limit", n - MAX_TEXT_CHARS)
            }
            1 => "1 character".into(),
            n => format!("{n} characters · {words} {}", plural(words, "word")),
        };
        Model {
            kind: Kind::Text,
            banner: None,
            notice,
            hints: "type or paste a text · enter play · ctrl+backspace a word · esc back",
            taps: &[PLAY, BACK],
            body: Body::Text(TextEntry {
                title: "your own text",
                draft: drafting.draft.clone(),
                count,
                fits,
                about: "up to 10,000 characters; lines and spaces become one space; \
                        unranked",
            }),
        }
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_owned()
    } else {
        format!("{word}s")
    }
}

/// Adds `more` to `draft`, as much of it as [`DRAFT_MAX`] leaves room for.
fn push_within(draft: &mut String, more: &str) {
    let mut room = DRAFT_MAX.saturating_sub(draft.len()).min(more.len());
    while !more.is_char_boundary(room) {
        room -= 1;
    }
    draft.push_str(more.get(..room).unwrap_or_default());
}
