//! A player's profile: their rounds and time, their chart over every round, their keys,
//! and their runs, two lines each (a group's first run tagged with the group).

use typepper_game::model::{Profile, Tone};

use super::{LINE, Renderer};

impl Renderer {
    pub(super) fn draw_profile(&mut self, v: &Profile, notice: Option<(&str, Tone)>) {
        let (w, h, _) = self.size;
        let (x0, width) = self.column();
        let status = self.head_at(&v.title, &v.status, Tone::Dim, (13.0, 400));
        self.font(13.0, 400);
        // The month under the counts, on the side they went to (a phone's left).
        let (x, align) = match status.x > x0 {
            true => (x0 + width, "right"),
            false => (x0, "left"),
        };
        let mut y = self.lines(&v.month, x, status.y + 22.0, Tone::Dim, align);
        if let Some((said, tone)) = notice {
            y = self.lines(said, x0, y + 4.0, tone, "left");
        }
        if let Some((say, tone)) = &v.say {
            self.font(18.0, 400);
            self.lines(say, w / 2.0, h / 2.0, *tone, "center");
        }
        if let Some(chart) = &v.chart {
            // A quarter of what is left, where that leaves the chart a readable height:
            // the runs below it need the most room.
            let height = ((self.bottom - y) / 4.0).min(200.0);
            if height >= 90.0 {
                // The legend above the plot, the seconds' labels 16 px under it.
                self.chart(chart, x0, y + 30.0, width, height);
                y += 30.0 + height + 32.0;
            }
        }
        self.font(13.0, 400);
        for line in &v.keys {
            y = self.lines(line, x0, y + 4.0, Tone::Dim, "left");
        }
        for (i, y, selected) in self.list_rows(v.rows.len(), v.selected, y + 30.0, true) {
            let r = &v.rows[i];
            self.font(16.0, if selected { 700 } else { 400 });
            self.text(&r.title, x0, y, Tone::Text, "left");
            self.text(&r.score, x0 + width, y, v.tone(i), "right");
            self.font(13.0, 400);
            self.text(&r.detail, x0, y + LINE, Tone::Dim, "left");
            if let Some(group) = r.group {
                self.text(group, x0 + width, y + LINE, Tone::Accent, "right");
            }
        }
    }
}
