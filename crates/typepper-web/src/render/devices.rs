//! The devices screen: the player's devices, a row each, or a code for another device with
//! its link's QR code, drawn module by module from the server's rows.

use typepper_game::model::{CodeCard, Devices, Tone};

use super::{LINE, Renderer};

impl Renderer {
    pub(super) fn draw_devices(&mut self, d: &Devices, notice: Option<(&str, Tone)>) {
        let (w, h, _) = self.size;
        let (x0, _) = self.column();
        self.font(14.0, 400);
        let top = self.head(d.title, &d.status, Tone::Dim, (14.0, 400)) + 50.0;
        if let Some(notice) = notice {
            self.notice(notice, top - 18.0);
        }
        if let Some((say, tone)) = &d.say {
            self.font(18.0, 400);
            self.lines(say, w / 2.0, h / 2.0, *tone, "center");
        }
        if let Some(code) = &d.code {
            return self.draw_code(code, top + 16.0);
        }
        for (i, y, selected) in self.list_rows(d.rows.len(), d.selected, top + 16.0, true) {
            let row = &d.rows[i];
            self.font(16.0, if selected { 700 } else { 400 });
            let tone = if row.this { Tone::Accent } else { Tone::Text };
            self.text(&row.name, x0, y, tone, "left");
            self.font(13.0, 400);
            self.text(&row.detail, x0, y + LINE, Tone::Dim, "left");
        }
    }

    /// The code in large letters, when it works until, its link as a QR code (dark on
    /// light, as scanners read one, in a quiet zone of four modules), the link, and where
    /// to type it.
    fn draw_code(&mut self, c: &CodeCard, top: f64) {
        let (w, _, _) = self.size;
        let (_, width) = self.column();
        self.fit(&c.code, width, 44.0, 700);
        self.text(&c.code, w / 2.0, top + 24.0, Tone::Accent, "center");
        self.font(14.0, 400);
        let y = self.lines(&c.until, w / 2.0, top + 54.0, Tone::Dim, "center");
        let modules = c.qr.len() as f64 + 8.0;
        let room = (self.bottom - y - 110.0).min(width).min(264.0);
        let m = (room / modules).floor().max(2.0);
        let (side, qy) = (m * modules, y);
        let qx = ((w - side) / 2.0).round();
        self.fill_style(Tone::Text);
        self.ctx.fill_rect(qx, qy, side, side);
        self.fill_style(Tone::Background);
        for (r, row) in c.qr.iter().enumerate() {
            for (col, module) in row.bytes().enumerate() {
                if module == b'1' {
                    let (x, y) = (col as f64 + 4.0, r as f64 + 4.0);
                    self.ctx.fill_rect(qx + x * m, qy + y * m, m, m);
                }
            }
        }
        self.font(13.0, 400);
        let y = self.lines(&c.link, w / 2.0, qy + side + 26.0, Tone::Dim, "center");
        self.lines(c.how, w / 2.0, y + 8.0, Tone::Dim, "center");
    }
}
