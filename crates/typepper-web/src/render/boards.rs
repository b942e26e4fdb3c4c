//! The boards: each player's best run of a mode in a period, the mode picked by its
//! arrows.

use typepper_game::app::Key;
use typepper_game::model::{BoardLine, Boards, Tone};

use super::{GAP, Hit, LINE, Rect, Renderer};

impl Renderer {
    pub(super) fn draw_boards(&mut self, b: &Boards) {
        let (w, h, _) = self.size;
        let (x0, width) = self.column();
        let picker = self.head_at(b.title, &b.picker, Tone::Accent, (18.0, 700));
        // The picker's halves are its arrows, a finger's height tall.
        let half = picker.w / 2.0 + 16.0;
        let arrow = |x| Rect {
            x,
            y: picker.y - 30.0,
            w: half,
            h: 44.0,
        };
        self.hits
            .push((arrow(picker.x - 16.0), Hit::Arrow(Key::Left)));
        self.hits
            .push((arrow(picker.x + picker.w / 2.0), Hit::Arrow(Key::Right)));
        let y = picker.y;
        self.font(13.0, 400);
        let y = self.lines(&b.caption, x0 + width, y + 22.0, Tone::Dim, "right");
        if let Some((say, tone)) = &b.say {
            self.font(18.0, 400);
            self.lines(say, w / 2.0, h / 2.0, *tone, "center");
        }
        // A row on one line where the widest name and score fit beside each other,
        // else the accuracy on a second.
        self.font(16.0, 700);
        let widest = |cell: fn(&BoardLine) -> &str| self.widest(b.rows.iter().map(cell)) + GAP;
        let (name, score) = (widest(|r| &r.name), widest(|r| &r.score));
        let one_line =
            48.0 + name + score <= width * 0.72 && widest(|r| &r.accuracy) <= width * 0.28;
        for (i, y, selected) in self.list_rows(b.rows.len(), b.selected, y + 30.0, !one_line) {
            let (r, color) = (&b.rows[i], b.tone(i));
            self.font(16.0, if selected { 700 } else { 400 });
            self.text(&r.rank.to_string(), x0 + 24.0, y, r.medal, "right");
            self.text(&r.name, x0 + 48.0, y, Tone::Text, "left");
            // The name opens its player's profile; the rest of the row, their run. Found
            // before the row's box, which holds it.
            let name = Rect {
                x: x0 + 40.0,
                y: y - 23.0,
                w: self.text_width(&r.name) + 16.0,
                h: 30.0,
            };
            self.hits.insert(0, (name, Hit::Player(i)));
            if one_line {
                self.text(&r.score, x0 + width * 0.72, y, color, "right");
                self.text(&r.accuracy, x0 + width, y, Tone::Dim, "right");
            } else {
                self.text(&r.score, x0 + width, y, color, "right");
                self.font(13.0, 400);
                self.text(&r.accuracy, x0 + width, y + LINE, Tone::Dim, "right");
            }
        }
    }
}
