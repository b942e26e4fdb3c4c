//! The player's settings: how the game looks, sounds and shows a round. Kept under
//! [`storage::SETTINGS`] as one `name value` line each, written whole, and read as far as
//! it goes: a line that doesn't read (an old build's, a newer one's, a typo) is skipped
//! and its setting keeps its default, so a settings file never stops the game.
//!
//! ```text
//! theme nord
//! caret block
//! smooth off
//! live wpm
//! blind on
//! sound 3
//! bell off
//! motion reduced
//! ```
//!
//! Two are rules, and so part of the mode played and of its boards: stop on error
//! (`/s` in the mode's key) and no backspace (`/b`). The rest change what is shown and
//! heard, never a round or its replay: blind hides marks while typing, and the results
//! show every mistake as ever.

use crate::theme::{THEMES, Theme};

/// The caret's shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Caret {
    /// A bar before the next letter.
    #[default]
    Line,
    /// The next letter in a box.
    Block,
    /// A bar under the next letter.
    Underline,
}

/// What the play screen shows of the round as it goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Live {
    /// Speed and accuracy.
    #[default]
    Both,
    /// Speed.
    Wpm,
    /// Accuracy.
    Accuracy,
    /// Neither: both at the end.
    Off,
}

/// Whether the caret glides and the flame flickers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Motion {
    /// As the system asks (`prefers-reduced-motion` in a browser; full in a terminal).
    #[default]
    System,
    /// No glide, no flicker, whatever the system says.
    Reduced,
    /// Glide and flicker, whatever the system says.
    Full,
}

/// The loudest sound.
pub const SOUND_MAX: u8 = 5;

/// Every setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The look.
    pub theme: &'static Theme,
    /// The caret's shape.
    pub caret: Caret,
    /// The caret glides from letter to letter.
    pub smooth: bool,
    /// What the play screen shows as the round goes.
    pub live: Live,
    /// Mistakes aren't marked while typing.
    pub blind: bool,
    /// Stop on error: a rule, `/s`.
    pub stop: bool,
    /// Backspace works; off is the rule `/b`.
    pub backspace: bool,
    /// A browser's clicks: 0 (off) to [`SOUND_MAX`].
    pub sound: u8,
    /// A terminal's bell on a mistake.
    pub bell: bool,
    /// Glide and flicker.
    pub motion: Motion,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            theme: Theme::TYPEPPER,
            caret: Caret::Line,
            smooth: true,
            live: Live::Both,
            blind: false,
            stop: false,
            backspace: true,
            sound: 0,
            bell: false,
            motion: Motion::System,
        }
    }
}

/// A line of the settings screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    /// The look.
    Theme,
    /// The caret's shape.
    Caret,
    /// The caret's glide.
    Smooth,
    /// The live stats.
    Live,
    /// Mistakes unmarked while typing.
    Blind,
    /// Stop on error.
    Stop,
    /// Backspace, or none.
    Backspace,
    /// A browser's clicks.
    Sound,
    /// A terminal's bell.
    Bell,
    /// Glide and flicker.
    Motion,
}

impl Row {
    /// The screen's lines, in order.
    pub const ALL: [Row; 10] = [
        Row::Theme,
        Row::Caret,
        Row::Smooth,
        Row::Live,
        Row::Blind,
        Row::Stop,
        Row::Backspace,
        Row::Sound,
        Row::Bell,
        Row::Motion,
    ];

    /// Its name, on the screen and in the file.
    pub const fn name(self) -> &'static str {
        match self {
            Row::Theme => "theme",
            Row::Caret => "caret",
            Row::Smooth => "smooth",
            Row::Live => "live",
            Row::Blind => "blind",
            Row::Stop => "stop",
            Row::Backspace => "backspace",
            Row::Sound => "sound",
            Row::Bell => "bell",
            Row::Motion => "motion",
        }
    }

    /// Its name on the screen.
    pub const fn label(self) -> &'static str {
        match self {
            Row::Stop => "stop on error",
            _ => self.name(),
        }
    }

    /// What it does, in a line.
    pub const fn about(self) -> &'static str {
        match self {
            Row::Theme => "the colours of every screen (the share card keeps typepper's own)",
            Row::Caret => "the caret's shape: a line, a block, or a line under the letter",
            Row::Smooth => "the caret glides from letter to letter, or jumps",
            Row::Live => "what the round shows as you type: speed, accuracy, both or neither",
            Row::Blind => "mistakes aren't marked while you type; the results show them all",
            Row::Stop => {
                "a wrong key isn't typed: the caret waits for the right one (a rule: boards of its own)"
            }
            Row::Backspace => {
                "off: backspace does nothing, every mistake stays (a rule: boards of its own)"
            }
            Row::Sound => "a soft click a key and another for a mistake (browser), and how loud",
            Row::Bell => "the terminal's bell rings on a mistake (terminal)",
            Row::Motion => "glide and flicker: as the system asks, always reduced, or always full",
        }
    }
}

/// `on` or `off`.
fn on(v: bool) -> &'static str {
    if v { "on" } else { "off" }
}

impl Settings {
    /// `row`'s value, as the screen and the file say it.
    pub fn value(&self, row: Row) -> String {
        match row {
            Row::Theme => self.theme.name.into(),
            Row::Caret => match self.caret {
                Caret::Line => "line",
                Caret::Block => "block",
                Caret::Underline => "underline",
            }
            .into(),
            Row::Smooth => on(self.smooth).into(),
            Row::Live => match self.live {
                Live::Both => "both",
                Live::Wpm => "wpm",
                Live::Accuracy => "accuracy",
                Live::Off => "off",
            }
            .into(),
            Row::Blind => on(self.blind).into(),
            Row::Stop => on(self.stop).into(),
            Row::Backspace => on(self.backspace).into(),
            Row::Sound => match self.sound {
                0 => "off".into(),
                n => n.to_string(),
            },
            Row::Bell => on(self.bell).into(),
            Row::Motion => match self.motion {
                Motion::System => "system",
                Motion::Reduced => "reduced",
                Motion::Full => "full",
            }
            .into(),
        }
    }

    /// Moves `row` to its next value (`back`: its previous), round and round.
    pub fn step(&mut self, row: Row, back: bool) {
        let turn = |i: usize, n: usize| if back { (i + n - 1) % n } else { (i + 1) % n };
        match row {
            Row::Theme => {
                let i = THEMES.iter().position(|t| t == self.theme).unwrap_or(0);
                self.theme = &THEMES[turn(i, THEMES.len())];
            }
            Row::Caret => {
                const ALL: [Caret; 3] = [Caret::Line, Caret::Block, Caret::Underline];
                let i = ALL.iter().position(|&c| c == self.caret).unwrap_or(0);
                self.caret = ALL[turn(i, ALL.len())];
            }
            Row::Live => {
                const ALL: [Live; 4] = [Live::Both, Live::Wpm, Live::Accuracy, Live::Off];
                let i = ALL.iter().position(|&l| l == self.live).unwrap_or(0);
                self.live = ALL[turn(i, ALL.len())];
            }
            Row::Sound => {
                let n = usize::from(SOUND_MAX) + 1;
                self.sound = turn(usize::from(self.sound), n) as u8;
            }
            Row::Motion => {
                const ALL: [Motion; 3] = [Motion::System, Motion::Reduced, Motion::Full];
                let i = ALL.iter().position(|&m| m == self.motion).unwrap_or(0);
                self.motion = ALL[turn(i, ALL.len())];
            }
            Row::Smooth => self.smooth = !self.smooth,
            Row::Blind => self.blind = !self.blind,
            Row::Stop => self.stop = !self.stop,
            Row::Backspace => self.backspace = !self.backspace,
            Row::Bell => self.bell = !self.bell,
        }
    }

    /// Sets `row` to `value`, as [`Settings::value`] says it, if it is one of its values:
    /// found by stepping through them (each has at most as many as there are themes),
    /// so that one list of names reads and writes them.
    fn take(&mut self, row: Row, value: &str) {
        let mut next = *self;
        for _ in 0..THEMES.len() {
            if next.value(row) == value {
                *self = next;
                return;
            }
            next.step(row, false);
        }
    }

    /// Reads a settings file as far as it goes, and `live`, the key the live stats had
    /// before there were settings (`off` hid them), where the file doesn't say.
    pub fn read(text: &str, old_live: Option<&str>) -> Settings {
        let mut out = Settings::default();
        if old_live.map(str::trim) == Some("off") {
            out.live = Live::Off;
        }
        for line in text.lines() {
            let Some((name, value)) = line.trim().split_once(' ') else {
                continue;
            };
            if let Some(&row) = Row::ALL.iter().find(|r| r.name() == name) {
                out.take(row, value.trim());
            }
        }
        out
    }

    /// The file, whole: every setting, a line each.
    pub fn write(&self) -> String {
        Row::ALL
            .iter()
            .map(|&row| format!("{} {}\n", row.name(), self.value(row)))
            .collect()
    }

    /// The rules they add to a mode.
    pub fn strict(&self) -> typepper_engine::Strict {
        typepper_engine::Strict {
            stop: self.stop,
            no_backspace: !self.backspace,
        }
    }

    /// The live line for `wpm` (whole) and `accuracy` (in hundredths of a percent).
    pub fn live_line(&self, wpm: u32, accuracy: u32) -> Option<String> {
        match self.live {
            Live::Both => Some(format!("{wpm} wpm · {}%", accuracy / 100)),
            Live::Wpm => Some(format!("{wpm} wpm")),
            Live::Accuracy => Some(format!("{}%", accuracy / 100)),
            Live::Off => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_written_whole_and_read_back() {
        let mut s = Settings::default();
        for row in Row::ALL {
            s.step(row, false);
        }
        let text = s.write();
        assert_eq!(
            text,
            "theme paper\ncaret block\nsmooth off\nlive wpm\nblind on\nstop on\n\
             backspace off\nsound 1\nbell on\nmotion reduced\n"
        );
        assert_eq!(Settings::read(&text, None), s);
        // Round and round, both ways.
        for row in Row::ALL {
            let mut t = s;
            for _ in 0..THEMES.len() * 12 {
                t.step(row, true);
            }
            for _ in 0..THEMES.len() * 12 {
                t.step(row, false);
            }
            assert_eq!(t, s, "{row:?}");
        }
    }

    /// A file from another build, or hand-edited, is read as far as it goes: what reads
    /// is taken, the rest keeps its default, nothing fails.
    #[test]
    fn a_bad_or_old_settings_file_is_read_as_far_as_it_goes() {
        let text = "theme nord\ncaret triangle\n\nsound 9\nsound 2\nfuture thing\nblind maybe\n\
                    smooth off trailing\n\u{0}\u{1}garbage\nlive accuracy";
        let s = Settings::read(text, None);
        assert_eq!(s.theme.name, "nord");
        assert_eq!((s.caret, s.sound, s.blind), (Caret::Line, 2, false));
        assert_eq!(s.live, Live::Accuracy);
        // "smooth off trailing" doesn't read: the default stays.
        assert!(s.smooth);
        // The live stats' old key is read where the file doesn't say.
        assert_eq!(Settings::read("", Some("off\n")).live, Live::Off);
        assert_eq!(Settings::read("live wpm", Some("off")).live, Live::Wpm);
        assert_eq!(Settings::read("\u{fffd}", None), Settings::default());
    }
}
