//! The settings: a row each, its value on the right (between ‹ › where picked), and the
//! picked one's line under them. A tap on a row moves its value on.

use typepper_game::model::{SettingsList, Tone};

use super::{LINE, Renderer};

impl Renderer {
    pub(super) fn draw_settings(&mut self, s: &SettingsList, notice: Option<(&str, Tone)>) {
        let (w, _, _) = self.size;
        let (x0, width) = self.column();
        let top = self.head(s.title, "", Tone::Dim, (14.0, 400)) + 50.0;
        let mut last = top;
        for (i, y, selected) in self.list_rows(s.rows.len(), s.selected, top, false) {
            let (name, value) = &s.rows[i];
            self.font(16.0, if selected { 700 } else { 400 });
            self.text(name, x0, y, Tone::Dim, "left");
            let value = if selected {
                ["‹ ", value, " ›"].concat()
            } else {
                value.clone()
            };
            self.text(&value, x0 + width, y, s.tone(i), "right");
            last = y;
        }
        self.font(14.0, 400);
        let mut y = last + 2.0 * LINE;
        for line in self.wrap(s.about, width) {
            self.text(line, w / 2.0, y, Tone::Dim, "center");
            y += LINE;
        }
        if let Some(line) = notice {
            self.notice(line, y + LINE);
        }
    }
}
