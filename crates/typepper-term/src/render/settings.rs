//! The settings: each setting and its value, the picked one's line under them.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Stylize as _};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
use typepper_game::model::{SettingsList, Tone};

use super::{Palette, below, column, header, list};

pub(super) fn draw(frame: &mut Frame, area: Rect, s: &SettingsList, p: &Palette) {
    let col = column(area, 60);
    let head = header(s.title, Line::default(), 3);
    frame.render_widget(Paragraph::new(head), col);
    let width = s.rows.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
    let rows: Vec<Line> = s
        .rows
        .iter()
        .enumerate()
        .map(|(i, (name, value))| {
            let picked = i == s.selected;
            let (mark, value) = if picked {
                ("▸ ", format!("‹ {value} ›"))
            } else {
                ("  ", format!("  {value}"))
            };
            let value = p.span(value, s.tone(i));
            Line::from(vec![
                p.span(format!("{mark}{name:<width$}  "), Tone::Dim),
                if picked {
                    value.add_modifier(Modifier::BOLD)
                } else {
                    value
                },
            ])
        })
        .collect();
    // The about takes its two rows under the list; where the window is short the list
    // scrolls to keep the picked row in sight.
    let rows_area = below(col, 3);
    let shown = (rows.len() as u16)
        .min(rows_area.height.saturating_sub(3))
        .max(1);
    frame.render_widget(Paragraph::new(list(rows, s.selected, shown)), rows_area);
    let about = Paragraph::new(Line::from(p.span(s.about, Tone::Dim)))
        .alignment(Alignment::Left)
        .wrap(Wrap { trim: true });
    frame.render_widget(about, below(rows_area, shown + 1));
}
