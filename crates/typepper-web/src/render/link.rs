//! The link screen: what linking does, and the name being typed.

use typepper_game::model::{Link, Tone};

use super::{Rect, Renderer};

impl Renderer {
    pub(super) fn draw_link(&mut self, link: &Link, notice: Option<(&str, Tone)>, now: f64) {
        let (w, h, _) = self.size;
        let (_, width) = self.column();
        let top = (h * 0.25).max(90.0);
        self.font(28.0, 700);
        self.text(link.title, w / 2.0, top, Tone::Text, "center");
        self.font(15.0, 400);
        let y = self.lines(&link.about, w / 2.0, top + 34.0, Tone::Dim, "center");
        let field_w = width.min(400.0);
        let field = Rect {
            x: w / 2.0 - field_w / 2.0,
            y: y + 16.0,
            w: field_w,
            h: 54.0,
        };
        self.name_field(field, &link.name, true, now);
        self.font(14.0, 400);
        let y = self.lines(&link.status, w / 2.0, field.y + 82.0, Tone::Dim, "center");
        if let Some(line) = notice {
            self.notice(line, y + 18.0);
        }
    }
}
