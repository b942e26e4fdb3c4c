//! The canvas's primitives: colours as CSS, boxes, fonts, text measured, wrapped and
//! fitted, rounded rectangles.

use typepper_game::layout;
use typepper_game::model::Tone;

use super::{LINE, Renderer};

const FONT_STACK: &str =
    "ui-monospace, SFMono-Regular, 'DejaVu Sans Mono', Menlo, Consolas, monospace";

/// A colour as CSS writes it, `#rrggbb`, made on the stack: the canvas takes a string.
pub(crate) struct Css([u8; 7]);

impl Css {
    pub(crate) fn of(rgb: u32) -> Css {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut out = [b'#'; 7];
        for (i, b) in out[1..].iter_mut().enumerate() {
            *b = HEX[(rgb >> (20 - 4 * i) & 0xf) as usize];
        }
        Css(out)
    }

    pub(crate) fn str(&self) -> &str {
        core::str::from_utf8(&self.0).unwrap_or("#000")
    }
}

/// A box, in CSS pixels from the canvas's top left.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rect {
    pub(crate) x: f64,
    pub(crate) y: f64,
    pub(crate) w: f64,
    pub(crate) h: f64,
}

impl Rect {
    pub(super) fn contains(&self, x: f64, y: f64) -> bool {
        x >= self.x && x < self.x + self.w && y >= self.y && y < self.y + self.h
    }
}

impl Renderer {
    pub(super) fn font(&self, size: f64, weight: u32) {
        self.ctx
            // Whole pixels: formatting a float would bring float printing into the wasm.
            .set_font(&format!("{weight} {}px {FONT_STACK}", size.round() as u32));
    }

    /// The canvas's colour for a tone, in the player's theme.
    pub(crate) fn css(&self, tone: Tone) -> Css {
        Css::of(self.look.theme.rgb(tone))
    }

    pub(super) fn fill_style(&self, tone: Tone) {
        self.ctx.set_fill_style_str(self.css(tone).str());
    }

    pub(super) fn stroke_style(&self, tone: Tone) {
        self.ctx.set_stroke_style_str(self.css(tone).str());
    }

    pub(super) fn text(&self, s: &str, x: f64, y: f64, tone: Tone, align: &str) {
        self.fill_style(tone);
        self.ctx.set_text_align(align);
        let _ = self.ctx.fill_text(s, x, y);
    }

    pub(super) fn text_width(&self, s: &str) -> f64 {
        self.ctx.measure_text(s).map_or(0.0, |m| m.width())
    }

    /// The widest of `texts` in the current font.
    pub(super) fn widest<'a>(&self, texts: impl Iterator<Item = &'a str>) -> f64 {
        let mut widest = 0.0_f64;
        for t in texts {
            widest = widest.max(self.text_width(t));
        }
        widest
    }

    /// Sets the font at `size`, or as much smaller as `s` needs to be no wider than
    /// `width` (9 px at least): a line that must stay one line, such as a banner.
    pub(super) fn fit(&self, s: &str, width: f64, size: f64, weight: u32) -> f64 {
        self.font(size, weight);
        let w = self.text_width(s);
        if w <= width {
            return size;
        }
        let size = (size * width / w).floor().max(9.0);
        self.font(size, weight);
        size
    }

    /// `s` broken into lines no wider than `width` in the current font: after a ` · `
    /// where one fits, else after a space.
    pub(super) fn wrap<'a>(&self, s: &'a str, width: f64) -> Vec<&'a str> {
        layout::wrap(s, |t| self.text_width(t) <= width)
    }

    /// Draws `s` wrapped to the column from baseline `y`, a line each `LINE`; returns
    /// the baseline after its last line.
    pub(super) fn lines(&self, s: &str, x: f64, y: f64, tone: Tone, align: &str) -> f64 {
        let (_, width) = self.column();
        let mut y = y;
        for line in self.wrap(s, width) {
            self.text(line, x, y, tone, align);
            y += LINE;
        }
        y
    }

    pub(super) fn round_rect(&self, r: Rect, radius: f64) {
        let ctx = &self.ctx;
        let rad = radius.min(r.h / 2.0).min(r.w / 2.0);
        ctx.begin_path();
        ctx.move_to(r.x + rad, r.y);
        let _ = ctx.arc_to(r.x + r.w, r.y, r.x + r.w, r.y + r.h, rad);
        let _ = ctx.arc_to(r.x + r.w, r.y + r.h, r.x, r.y + r.h, rad);
        let _ = ctx.arc_to(r.x, r.y + r.h, r.x, r.y, rad);
        let _ = ctx.arc_to(r.x, r.y, r.x + r.w, r.y, rad);
        ctx.close_path();
    }
}
