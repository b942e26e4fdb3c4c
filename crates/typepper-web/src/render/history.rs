//! The history: your last rounds, a row each, on one line or two.

use typepper_game::model::{History, HistoryRow, Tone};

use super::{GAP, LINE, Renderer};

impl Renderer {
    pub(super) fn draw_history(&mut self, history: &History) {
        let (w, h, _) = self.size;
        let (x0, width) = self.column();
        self.font(14.0, 400);
        let top = self.head(history.title, &history.caption, Tone::Dim, (14.0, 400)) + 50.0;
        if let Some(empty) = history.empty {
            self.font(18.0, 400);
            self.lines(empty, w / 2.0, h / 2.0, Tone::Dim, "center");
        }
        let rows = &history.rows;
        // Five columns where each one's widest fits between its neighbours; else each
        // row on two lines: the mode and the score, then the date and the rest.
        self.font(16.0, 700);
        let widest = |cell: fn(&HistoryRow) -> &str| self.widest(rows.iter().map(cell)) + GAP;
        let (date, title) = (widest(|r| &r.date), widest(|r| &r.title));
        let (score, accuracy) = (widest(|r| &r.headline), widest(|r| &r.accuracy));
        let shared = widest(|r| r.shared());
        let one_line = date <= width * 0.3
            && title + score <= width * 0.38
            && accuracy <= width * 0.16
            && shared <= width * 0.16;
        for (i, y, selected) in self.list_rows(rows.len(), history.selected, top, !one_line) {
            let (r, color) = (&rows[i], history.tone(i));
            self.font(16.0, if selected { 700 } else { 400 });
            if one_line {
                self.text(&r.date, x0, y, Tone::Dim, "left");
                self.text(&r.title, x0 + width * 0.3, y, Tone::Text, "left");
                self.text(&r.headline, x0 + width * 0.68, y, color, "right");
                self.text(&r.accuracy, x0 + width * 0.84, y, Tone::Dim, "right");
                self.text(r.shared(), x0 + width, y, Tone::Dim, "right");
            } else {
                self.text(&r.title, x0, y, Tone::Text, "left");
                self.text(&r.headline, x0 + width, y, color, "right");
                self.font(13.0, 400);
                self.text(&r.date, x0, y + LINE, Tone::Dim, "left");
                self.text(&r.accuracy, x0 + width, y + LINE, Tone::Dim, "right");
                let before = x0 + width - self.text_width(&r.accuracy) - GAP;
                self.text(r.shared(), before, y + LINE, Tone::Dim, "right");
            }
        }
    }
}
