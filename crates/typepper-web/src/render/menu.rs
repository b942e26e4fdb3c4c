//! The menu: the wordmark, the modes and the text's settings (each a target, with its
//! value's arrows), and who plays.

use typepper_game::model::{Menu, Tone, WORDMARK};

use super::{Hit, LINE, Rect, Renderer};

/// A mode's line: its height, and its font's size.
const MODE_H: f64 = 44.0;
const MODE_FONT: f64 = 20.0;
/// A setting's line (language, punctuation, numbers): smaller, and apart from the modes.
const SETTING_H: f64 = 34.0;
const SETTING_FONT: f64 = 16.0;
const SETTINGS_GAP: f64 = 14.0;

/// The head above the items: the wordmark's size, the wordmark's and the tagline's
/// baselines and the first item's, from the top of what is drawn. The second is for a
/// screen too short for the first (a phone's, with its keyboard's hints long).
const HEADS: [(f64, f64, f64, f64); 2] = [(44.0, 36.0, 66.0, 126.0), (30.0, 26.0, 48.0, 88.0)];

/// How far apart the menu's lines are: a mode's, a setting's, the gap before the
/// settings, and the gaps between the items and the notice and the lines under it.
#[derive(Clone, Copy)]
struct Spacing {
    mode_h: f64,
    setting_h: f64,
    gap: f64,
    under_gap: f64,
}

/// The usual spacing; on a screen too short for it, the settings' rows closer; on one
/// shorter still (a phone's, with QUOTE, CUSTOM TEXT and a drill among the modes, and a
/// notice, the last round and a race under them), the modes' rows a little closer too,
/// though never so close that their RANKED badge, in a top corner, meets the row above.
const SPACINGS: [Spacing; 3] = [
    Spacing {
        mode_h: MODE_H,
        setting_h: SETTING_H,
        gap: SETTINGS_GAP,
        under_gap: 10.0,
    },
    Spacing {
        mode_h: MODE_H,
        setting_h: SETTING_H - 8.0,
        gap: SETTINGS_GAP - 6.0,
        under_gap: 10.0,
    },
    Spacing {
        mode_h: MODE_H - 4.0,
        setting_h: SETTING_H - 8.0,
        gap: SETTINGS_GAP - 6.0,
        under_gap: 4.0,
    },
];

/// Each item's baseline from the first's, and the height of them all, at `spacing`.
fn item_rows(menu: &Menu, spacing: Spacing) -> (Vec<f64>, f64) {
    let Spacing {
        mode_h,
        setting_h,
        gap,
        ..
    } = spacing;
    let mut rows = Vec::with_capacity(menu.items.len());
    let mut y = 0.0;
    let mut last_setting = false;
    for item in &menu.items {
        if item.setting && !last_setting && !rows.is_empty() {
            y += gap;
        }
        last_setting = item.setting;
        rows.push(y);
        y += if item.setting { setting_h } else { mode_h };
    }
    (rows, y)
}

impl Renderer {
    fn title(&self, y: f64, size: f64) {
        let (w, _, _) = self.size;
        self.font(size, 700);
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
        let (_, width) = self.column();
        // What is under the items: the notice, then the lines, each as many rows as it
        // wraps to. Where they don't all fit, the race's and the last round's go first.
        let mut lines: Vec<(&str, Tone)> = [
            (menu.daily.as_deref(), Tone::Accent),
            (menu.last_round.as_deref(), Tone::Dim),
            (Some(menu.player.as_str()), Tone::Dim),
            (menu.race.as_deref(), Tone::Ghost),
        ]
        .into_iter()
        .filter_map(|(line, tone)| Some((line?, tone)))
        .collect();
        self.font(14.0, 500);
        let notice_h = notice.map_or(0.0, |(n, _)| self.wrap(n, width).len() as f64 * LINE);
        self.font(14.0, 400);
        let height = |lines: &[(&str, Tone)]| {
            let rows: usize = lines.iter().map(|(l, _)| self.wrap(l, width).len()).sum();
            notice_h + rows as f64 * LINE + lines.len() as f64 * 4.0
        };
        // A fifth down the screen, or higher where what is under the items would reach
        // the foot's buttons; where even the top is too low, the spacing gives way, then
        // the head, then the spacing again.
        let [roomy, tight, tighter] = SPACINGS;
        let choices = [
            (HEADS[0], roomy),
            (HEADS[0], tight),
            (HEADS[1], tight),
            (HEADS[1], tighter),
        ];
        let fits = |lines: &[(&str, Tone)], (head, s): ((f64, f64, f64, f64), Spacing)| {
            8.0 + head.3 + item_rows(menu, s).1 + height(lines) + 2.0 * s.under_gap - LINE
                <= self.bottom
        };
        let fitting = |lines: &[(&str, Tone)]| choices.into_iter().find(|&c| fits(lines, c));
        let mut chosen = fitting(&lines);
        for least in [Tone::Ghost, Tone::Dim] {
            if chosen.is_none()
                && let Some(i) = lines
                    .iter()
                    .rposition(|&(l, t)| t == least && l != menu.player)
            {
                lines.remove(i);
                chosen = fitting(&lines);
            }
        }
        let (head, spacing) = chosen.unwrap_or(choices[3]);
        let under = height(&lines) + 2.0 * spacing.under_gap;
        let (title_px, title_y, tagline_y, first) = head;
        let (rows, items_h) = item_rows(menu, spacing);
        let top = (h * 0.22 - title_y)
            .min(self.bottom - (first + items_h + under - LINE))
            .max(8.0);
        let y0 = top + first;
        self.title(top + title_y, title_px);
        self.font(14.0, 400);
        self.text(menu.tagline, w / 2.0, top + tagline_y, Tone::Dim, "center");
        for (i, item) in menu.items.iter().enumerate() {
            let y = y0 + rows[i];
            let selected = i == menu.selected;
            let (item_h, size) = match item.setting {
                true => (spacing.setting_h, SETTING_FONT),
                false => (spacing.mode_h, MODE_FONT),
            };
            let tight = item.setting && item_h < SETTING_H;
            let item_w = (w - 24.0).min(340.0);
            let rect = Rect {
                x: w / 2.0 - item_w / 2.0,
                // (Tight, the panel comes down a little, to keep the letters' tails.)
                y: y - size * 1.4 + if tight { 6.0 } else { 0.0 },
                w: item_w,
                h: item_h - 6.0,
            };
            if selected {
                self.fill_style(Tone::Panel);
                self.round_rect(rect, 10.0);
                self.ctx.fill();
            }
            let weight = match (selected, item.setting) {
                (true, _) => 700,
                (false, false) => 500,
                (false, true) => 400,
            };
            self.font(size, weight);
            let text = item.text();
            self.text(&text, w / 2.0, y, menu.tone(i), "center");
            // The value's arrows are targets of their own, found before the item's.
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
        let mut y = y0 + items_h + spacing.under_gap;
        if let Some(n) = notice {
            y = self.notice(n, y);
        }
        y += spacing.under_gap;
        self.font(14.0, 400);
        for (line, tone) in lines {
            y = self.lines(line, w / 2.0, y, tone, "center") + 4.0;
        }
    }
}
