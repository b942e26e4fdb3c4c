//! The menu: the wordmark, the modes (each a target), and who plays.

use typepper_game::model::{Menu, Tone, WORDMARK};

use super::{Hit, LINE, Rect, Renderer};

impl Renderer {
    fn title(&self, y: f64) {
        let (w, _, _) = self.size;
        self.font(44.0, 700);
        // "ty" and "pepper": the pepper in typepper, in its colour.
        let all: f64 = WORDMARK.iter().map(|(part, _)| self.text_width(part)).sum();
        let mut x = w / 2.0 - all / 2.0;
        for (part, tone) in WORDMARK {
            self.text(part, x, y, tone, "left");
            x += self.text_width(part);
        }
    }

    pub(super) fn draw_menu(&mut self, menu: &Menu, notice: Option<(&str, Tone)>) {
        let (w, h, _) = self.size;
        let item_h = 44.0;
        // A fifth down the screen, or higher where what is under the items would reach the
        // foot's buttons: room for the notice and each line, two rows where they wrap.
        let under = [
            notice.map(|n| n.0),
            menu.last_round.as_deref(),
            Some(&menu.player),
        ];
        let under = under.iter().flatten().count() + usize::from(menu.race.is_some());
        let tall = 90.0 + menu.items.len() as f64 * item_h + 30.0 + under as f64 * 2.0 * LINE;
        let top = (h * 0.22).min(self.bottom - tall).max(70.0);
        self.title(top);
        self.font(14.0, 400);
        self.text(menu.tagline, w / 2.0, top + 30.0, Tone::Dim, "center");
        let y0 = top + 90.0;
        for (i, item) in menu.items.iter().enumerate() {
            let y = y0 + i as f64 * item_h;
            let selected = i == menu.selected;
            let item_w = (w - 24.0).min(340.0);
            let rect = Rect {
                x: w / 2.0 - item_w / 2.0,
                y: y - 28.0,
                w: item_w,
                h: item_h - 6.0,
            };
            if selected {
                self.fill_style(Tone::Panel);
                self.round_rect(rect, 10.0);
                self.ctx.fill();
            }
            self.font(20.0, if selected { 700 } else { 500 });
            let text = item.text();
            self.text(&text, w / 2.0, y, menu.tone(i), "center");
            // The level's arrows are targets of their own, found before the item's.
            // The text ends `‹ lvN ›`: `‹` is after the label and two spaces, `›` last.
            if item.value.is_some() {
                let full = self.text_width(&text);
                let arrow = self.text_width("›");
                let left = w / 2.0 - full / 2.0;
                let lower = left + self.text_width(&item.label) + 2.0 * self.text_width(" ");
                for (x, up) in [(lower, false), (left + full - arrow, true)] {
                    let hit = Rect {
                        x: x - 8.0,
                        w: arrow + 16.0,
                        ..rect
                    };
                    self.hits.push((hit, Hit::Level(i, up)));
                }
            }
            if let Some(badge) = item.badge() {
                // Beside the item; where the screen ends first, inside its right end, or
                // in its top corner where the item's text reaches that far.
                let text_end = w / 2.0 + self.text_width(&text) / 2.0;
                self.font(11.0, 600);
                let (right, badge_w) = (rect.x + rect.w, self.text_width(badge));
                if right + 14.0 + badge_w <= w - 8.0 {
                    self.text(badge, right + 14.0, y - 2.0, Tone::Dim, "left");
                } else if text_end + 8.0 <= right - 12.0 - badge_w {
                    self.text(badge, right - 12.0, y - 2.0, Tone::Dim, "right");
                } else {
                    self.text(badge, right - 12.0, rect.y + 12.0, Tone::Dim, "right");
                }
            }
            self.hits.push((rect, Hit::Item(i)));
        }
        let mut y = y0 + menu.items.len() as f64 * item_h + 10.0;
        if let Some(n) = notice {
            y = self.notice(n, y);
        }
        y += 10.0;
        self.font(14.0, 400);
        if let Some(line) = &menu.last_round {
            y = self.lines(line, w / 2.0, y, Tone::Dim, "center") + 4.0;
        }
        y = self.lines(&menu.player, w / 2.0, y, Tone::Dim, "center") + 4.0;
        if let Some(line) = &menu.race {
            self.lines(line, w / 2.0, y, Tone::Ghost, "center");
        }
    }
}
