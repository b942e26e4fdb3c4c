//! The custom text screen: its title, what is done to a text, the field the page's text
//! area lies over (`src/text_area.rs`; the draft itself is the browser's to draw and
//! edit), the count under it and a notice.

use typepper_game::model::{TextEntry, Tone};

use super::{LINE, Rect, Renderer};

/// The least height of the field: four lines of the text area's 16 px text at 1.5.
const MIN_FIELD: f64 = 4.0 * 24.0 + 24.0;
/// The widest the field gets: lines much longer than this are hard to read back.
const MAX_FIELD_W: f64 = 800.0;
/// The title's line, and the gap under the about.
const TITLE_H: f64 = 44.0;
const ABOUT_GAP: f64 = 14.0;

impl Renderer {
    pub(super) fn draw_text(&mut self, entry: &TextEntry, notice: Option<(&str, Tone)>) {
        let (w, h, _) = self.size;
        let (_, column) = self.column();
        let width = column.min(MAX_FIELD_W);
        let x0 = (w - width) / 2.0;
        // Under the field: the count's line and the notice's, wrapped.
        self.font(14.0, 500);
        let notice_lines = notice.map_or(0, |(line, _)| self.wrap(line, column).len());
        let under = 2.0 * LINE + notice_lines as f64 * LINE;
        self.font(14.0, 400);
        let about = self.wrap(entry.about, column);
        let about_h = about.len() as f64 * LINE + ABOUT_GAP;
        // The field first: where the screen is short (a phone's, its keyboard up), the
        // about goes, then the title.
        let top = (h * 0.06).clamp(12.0, 56.0);
        let room = self.bottom - under - top;
        let (title, about) = if room - TITLE_H - about_h >= MIN_FIELD {
            (true, &about[..])
        } else {
            (room - TITLE_H >= MIN_FIELD, &[][..])
        };
        let mut y = top;
        if title {
            self.fit(entry.title, column, 26.0, 700);
            self.text(entry.title, w / 2.0, y + 28.0, Tone::Text, "center");
            y += TITLE_H;
        }
        if !about.is_empty() {
            self.font(14.0, 400);
            for line in about {
                y += LINE;
                self.text(line, w / 2.0, y - 5.0, Tone::Dim, "center");
            }
            y += ABOUT_GAP;
        }
        let field = Rect {
            x: x0,
            y,
            w: width,
            h: (self.bottom - under - y).max(MIN_FIELD),
        };
        self.fill_style(Tone::Panel);
        self.round_rect(field, 12.0);
        self.ctx.fill();
        self.field = Some(field);
        let y = field.y + field.h + LINE + 4.0;
        self.font(14.0, 500);
        self.text(&entry.count, w / 2.0, y, entry.count_tone(), "center");
        if let Some(line) = notice {
            self.notice(line, y + LINE);
        }
    }
}
