//! The keys screen: the keyboard shaded, the worst keys and pairs, the trend and the drill.

use typepper_game::model::{Keys, Tone, Worst};

use super::{GAP, LINE, Rect, Renderer};

impl Renderer {
    /// The keys screen: the keyboard shaded by errors or time, the worst keys and pairs
    /// (side by side where their lines fit, else one above the other), and at the
    /// body's foot the trend and the drill.
    pub(super) fn draw_keys(&mut self, k: &Keys, notice: Option<(&str, Tone)>) {
        let (w, h, _) = self.size;
        let (x0, width) = self.column();
        let y = self.head(k.title, k.by, Tone::Accent, (16.0, 700));
        self.font(14.0, 400);
        let y = self.lines(&k.caption, x0, y + 26.0, Tone::Dim, "left");
        if let Some((line, tone)) = notice.or(k.empty.map(|e| (e, Tone::Dim))) {
            self.font(18.0, 400);
            self.lines(line, w / 2.0, h / 2.0, tone, "center");
            return;
        }
        // The keyboard: each row a little to the right of the one above.
        let cap = (width / 11.5).min(54.0);
        let board_w = cap * 10.0;
        let left = x0 + (width - board_w - cap) / 2.0;
        let board_top = y + 8.0;
        for (r, row) in k.keyboard.iter().enumerate() {
            for (i, key) in row.iter().enumerate() {
                let rect = Rect {
                    x: left + r as f64 * cap * 0.5 + i as f64 * cap,
                    y: board_top + r as f64 * cap,
                    w: cap - 6.0,
                    h: cap - 6.0,
                };
                self.fill_style(key.tone());
                self.round_rect(rect, 8.0);
                self.ctx.fill();
                self.font(cap * 0.42, 700);
                let mut buf = [0u8; 4];
                self.text(
                    key.key.encode_utf8(&mut buf),
                    rect.x + rect.w / 2.0,
                    rect.y + rect.h * 0.66,
                    key.ink(),
                    "center",
                );
            }
        }
        let top = board_top + 3.0 * cap + 30.0;

        // The trend and the drill, from the foot up.
        self.font(14.0, 400);
        let trend = self.wrap(&k.trend, width);
        self.font(13.0, 400);
        let why = k.no_drill.map_or(vec![], |why| self.wrap(why, width));
        let offer = k.offer();
        let n = trend.len() + why.len() + usize::from(offer.is_some());
        let first = self.bottom - 6.0 - (n - 1) as f64 * LINE;
        let mut at = first;
        self.font(14.0, 400);
        for line in trend {
            self.text(line, x0, at, Tone::Dim, "left");
            at += LINE;
        }
        if let Some((offer, drill)) = offer {
            self.text(offer, x0, at, Tone::Dim, "left");
            let after = x0 + self.text_width(offer) + 8.0;
            self.font(16.0, 700);
            self.text(&drill, after, at, Tone::Accent, "left");
            at += LINE;
        }
        self.font(13.0, 400);
        for line in why {
            self.text(line, x0, at, Tone::Dim, "left");
            at += LINE;
        }

        // The lists, in what is left above.
        self.font(14.0, 400);
        let lines = k.lists.iter().flat_map(|l| &l.lines);
        let widest = self.widest(lines.map(String::as_str));
        let beside = widest <= width / 2.0 - GAP;
        // One above the other, the lines smaller where the widest is wider than the column.
        let size = (14.0 * width / widest.max(1.0)).floor().clamp(9.0, 14.0);
        let room = first - LINE - GAP - top;
        // Each list's height with at most `rows` of its lines: its title, its lines (one
        // where it has none) and its note. Side by side, the taller is what counts;
        // stacked, all of them with a gap between, so a short list leaves its room to a
        // long one (a phone's 390×844 showed six of seven worst keys, beside no pairs).
        let height = |l: &Worst, rows: usize| {
            let note = if l.note.is_some() { 24.0 } else { 0.0 };
            26.0 + (l.lines.len().clamp(1, rows) - 1) as f64 * 24.0 + note
        };
        let needs = |rows: usize| {
            let heights = k.lists.iter().map(|l| height(l, rows));
            match beside {
                true => heights.fold(0.0, f64::max),
                false => heights.map(|h| h + 30.0).sum::<f64>() - 30.0,
            }
        };
        let rows = (1..=10).rev().find(|&r| needs(r) <= room).unwrap_or(1);
        let mut next = top;
        for (n, list) in k.lists.iter().enumerate() {
            let (x, y) = if beside {
                (x0 + n as f64 * (width / 2.0 + 10.0), top)
            } else {
                let y = next;
                next += height(list, rows) + 30.0;
                (x0, y)
            };
            self.font(13.0, 600);
            self.text(list.title, x, y, Tone::Dim, "left");
            self.font(14.0, 400);
            if list.lines.is_empty() {
                self.text(list.none, x, y + 26.0, Tone::Dim, "left");
            }
            let shown = list.lines.len().clamp(1, rows);
            for (n, line) in list.lines.iter().take(rows).enumerate() {
                self.font(size, 400);
                self.text(line, x, y + 26.0 + n as f64 * 24.0, list.tone(n), "left");
            }
            if let Some(note) = &list.note {
                let room = if beside { width / 2.0 - GAP } else { width };
                self.fit(note, room, 12.0, 400);
                self.text(note, x, y + 26.0 + shown as f64 * 24.0, Tone::Dim, "left");
            }
        }
    }
}
