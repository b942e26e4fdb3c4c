//! The terminal's colours: each of the game's tones as 24-bit, 256 or 16 colours, or as
//! bold, dim and underline where there is no colour.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;
use typepper_engine::Tier;
use typepper_game::model::Tone;
use typepper_game::theme::Theme;

/// How many colours the terminal shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// None (`NO_COLOR`): states are told apart by bold, dim and underline.
    Mono,
    /// The 16 ANSI colours.
    Ansi16,
    /// The xterm 256-colour palette.
    Indexed256,
    /// 24-bit colour.
    TrueColor,
}

impl Depth {
    /// What the environment says: `NO_COLOR` (any value but empty), else `COLORTERM`
    /// (`truecolor`, `24bit`), else `TERM` (`…256color…`; `dumb` has none).
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Depth {
        if var("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            return Depth::Mono;
        }
        let colorterm = var("COLORTERM").unwrap_or_default();
        if colorterm == "truecolor" || colorterm == "24bit" {
            return Depth::TrueColor;
        }
        match var("TERM").unwrap_or_default().as_str() {
            "dumb" => Depth::Mono,
            t if t.contains("256color") => Depth::Indexed256,
            _ => Depth::Ansi16,
        }
    }
}

/// Styles for a terminal's depth, in a theme.
#[derive(Clone, Copy, Debug)]
pub struct Palette {
    depth: Depth,
    theme: &'static Theme,
}

impl Palette {
    /// A palette for `depth`, in typepper's own theme.
    pub fn new(depth: Depth) -> Palette {
        Palette {
            depth,
            theme: Theme::TYPEPPER,
        }
    }

    /// The same depth in `theme`.
    pub fn themed(self, theme: &'static Theme) -> Palette {
        Palette { theme, ..self }
    }

    /// Whether the theme paints the screen: every theme but typepper's own, where the
    /// terminal has the colours (24-bit or 256). typepper's own keeps the terminal's
    /// background and text, as it always has; 16 colours and none keep their fall-backs.
    fn paints(&self) -> bool {
        !core::ptr::eq(self.theme, Theme::TYPEPPER)
            && matches!(self.depth, Depth::TrueColor | Depth::Indexed256)
    }

    /// The whole screen's style: the theme's background and text where it paints them.
    pub(super) fn base(&self) -> Style {
        if !self.paints() {
            return Style::default();
        }
        Style::default()
            .fg(self.colour(self.theme.rgb(Tone::Text)))
            .bg(self.colour(self.theme.rgb(Tone::Background)))
    }

    /// A colour at this depth (24-bit or 256).
    fn colour(&self, rgb: u32) -> Color {
        match self.depth {
            Depth::Indexed256 => Color::Indexed(xterm256(rgb)),
            _ => Color::Rgb((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8),
        }
    }

    /// Whether it has no colours at all, only bold, dim, underline and reverse.
    pub(super) fn mono(&self) -> bool {
        self.depth == Depth::Mono
    }

    /// The style of `tone` at this depth.
    pub(super) fn style(&self, tone: Tone) -> Style {
        // The game's colour for the role, and the nearest of the 16 where that is all
        // there is; without colour, what bold, dim and underline can say.
        let heat = |t| match t {
            Tier::Bell => (Color::Green, Modifier::empty()),
            Tier::Jalapeno => (Color::LightGreen, Modifier::empty()),
            Tier::Serrano => (Color::Yellow, Modifier::empty()),
            Tier::Habanero => (Color::LightYellow, Modifier::BOLD),
            Tier::Ghost => (Color::LightRed, Modifier::BOLD),
            Tier::Reaper => (Color::Magenta, Modifier::BOLD),
        };
        let (ansi, mono) = match tone {
            // The terminal's own colours stand for the canvas's text and background,
            // unless the theme paints its own.
            Tone::Text | Tone::Background if !self.paints() => return Style::default(),
            // (Reached only where the theme paints: 24-bit or 256 colours.)
            Tone::Text | Tone::Background => (Color::Reset, Modifier::empty()),
            Tone::Dim | Tone::Faint | Tone::Panel | Tone::Burnt => (Color::DarkGray, Modifier::DIM),
            Tone::Wrong | Tone::Behind => (Color::LightRed, Modifier::UNDERLINED),
            Tone::Extra => (Color::Red, Modifier::UNDERLINED | Modifier::DIM),
            Tone::Accent | Tone::Caret => (Color::Yellow, Modifier::BOLD),
            Tone::Ghost | Tone::Even => (Color::LightBlue, Modifier::ITALIC),
            Tone::Ahead => heat(Tier::Bell),
            Tone::Gold => heat(Tier::Reaper),
            Tone::Silver => heat(Tier::Habanero),
            Tone::Bronze => heat(Tier::Serrano),
            Tone::Heat(t) => heat(t),
        };
        match self.depth {
            Depth::Mono => Style::default().add_modifier(mono),
            Depth::Ansi16 => Style::default().fg(ansi),
            Depth::Indexed256 | Depth::TrueColor => {
                let style = Style::default().fg(self.colour(self.theme.rgb(tone)));
                // A theme that marks wrong letters underlines them, in colour too.
                if self.theme.marks && matches!(tone, Tone::Wrong | Tone::Extra) {
                    style.add_modifier(Modifier::UNDERLINED)
                } else {
                    style
                }
            }
        }
    }

    /// `text` in `tone`.
    pub(super) fn span<'a>(
        &self,
        text: impl Into<std::borrow::Cow<'a, str>>,
        tone: Tone,
    ) -> Span<'a> {
        Span::styled(text, self.style(tone))
    }
}

/// The nearest colour of xterm's 6×6×6 cube.
fn xterm256(rgb: u32) -> u8 {
    const LEVELS: [u32; 6] = [0, 95, 135, 175, 215, 255];
    let nearest = |v: u32| -> u8 {
        let (i, _) = LEVELS
            .iter()
            .enumerate()
            .min_by_key(|&(_, &l)| l.abs_diff(v))
            .unwrap_or((0, &0));
        i as u8
    };
    let (r, g, b) = (rgb >> 16 & 0xff, rgb >> 8 & 0xff, rgb & 0xff);
    16 + 36 * nearest(r) + 6 * nearest(g) + nearest(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_follow_the_terminal_and_no_color() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        assert_eq!(
            Depth::from_env(env(&[("NO_COLOR", "1"), ("COLORTERM", "truecolor")])),
            Depth::Mono
        );
        assert_eq!(
            Depth::from_env(env(&[("NO_COLOR", ""), ("COLORTERM", "truecolor")])),
            Depth::TrueColor
        );
        assert_eq!(
            Depth::from_env(env(&[("TERM", "tmux-256color")])),
            Depth::Indexed256
        );
        assert_eq!(Depth::from_env(env(&[("TERM", "xterm")])), Depth::Ansi16);
        assert_eq!(Depth::from_env(env(&[("TERM", "dumb")])), Depth::Mono);
        let wrong = |d| Palette::new(d).style(Tone::Wrong);
        assert_eq!(
            wrong(Depth::TrueColor).fg,
            Some(Color::Rgb(0xff, 0x4d, 0x5e))
        );
        assert_eq!(
            wrong(Depth::Indexed256).fg,
            Some(Color::Indexed(xterm256(0xff4d5e)))
        );
        assert_eq!(wrong(Depth::Ansi16).fg, Some(Color::LightRed));
        assert_eq!(wrong(Depth::Mono).fg, None);
        assert!(
            wrong(Depth::Mono)
                .add_modifier
                .contains(Modifier::UNDERLINED)
        );
        assert_eq!(xterm256(0xff0000), 196);
        assert_eq!(xterm256(0x000000), 16);
    }
}
