//! A live room: its name and link, the name being picked, the countdown, the racers.

use typepper_game::model::{Room, RoomRow, Tone};

use super::{GAP, LINE, Rect, Renderer};

impl Renderer {
    /// A room: its name and link, the name being picked, the countdown, and everyone in
    /// it (the finishers, at the end), a row each.
    pub(super) fn draw_room(&mut self, r: &Room, notice: Option<(&str, Tone)>, now: f64) {
        let (w, _, _) = self.size;
        let (x0, width) = self.column();
        let big = r.big.as_deref().unwrap_or("");
        let mut y = self.head(&r.title, "", Tone::Accent, (18.0, 700));
        self.font(14.0, 400);
        y = self.lines(&r.caption, x0, y + 28.0, Tone::Dim, "left");
        if let Some(link) = &r.link {
            self.fit(link, width, 17.0, 600);
            self.text(link, x0, y + 8.0, Tone::Accent, "left");
            y += 30.0;
        }
        if let Some(name) = &r.name {
            let field = Rect {
                x: x0,
                y: y + 8.0,
                w: width.min(400.0),
                h: 54.0,
            };
            self.name_field(field, name, false, now);
            y = field.y + field.h;
        }
        if !big.is_empty() {
            self.fit(big, width, 64.0, 700);
            self.text(big, w / 2.0, y + 76.0, Tone::Accent, "center");
            y += 90.0;
        }
        if let Some(line) = notice {
            y = self.notice(line, y + 30.0);
        }
        // Four columns where they fit; else two lines a row: the place and the name,
        // then the state and the score.
        self.font(16.0, 700);
        let rows = &r.rows;
        let widest = |cell: fn(&RoomRow) -> &str| self.widest(rows.iter().map(cell)) + GAP;
        // A lobby has no places: its names start at the column's edge.
        let place = if rows.iter().all(|r| r.place.is_empty()) {
            0.0
        } else {
            widest(|r| &r.place)
        };
        let name = widest(|r| &r.name);
        let (state, score) = (widest(|r| &r.state), widest(|r| &r.score));
        let one_line = place + name + state + score <= width;
        let picked = r.selected.unwrap_or(usize::MAX);
        for (i, ry, selected) in self.list_rows(rows.len(), picked, y + 40.0, !one_line) {
            let row = &rows[i];
            self.font(16.0, if selected { 700 } else { 400 });
            self.text(&row.place, x0, ry, Tone::Dim, "left");
            self.text(&row.name, x0 + place, ry, row.tone, "left");
            if one_line {
                self.text(&row.state, x0 + place + name, ry, row.state_tone, "left");
                self.text(&row.score, x0 + width, ry, row.tone, "right");
            } else {
                self.text(&row.score, x0 + width, ry, row.tone, "right");
                self.fit(&row.state, width - place, 13.0, 400);
                self.text(&row.state, x0 + place, ry + LINE, row.state_tone, "left");
            }
        }
    }
}
