//! The history: your last rounds, a row each.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Stylize as _};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use typepper_game::model::{History, Tone};

use super::{Palette, below, column, header, list};

pub(super) fn draw(frame: &mut Frame, area: Rect, h: &History, p: &Palette) {
    let col = column(area, 100);
    let head = header(
        h.title,
        Line::from(p.span(h.caption.as_str(), Tone::Dim)),
        3,
    );
    frame.render_widget(Paragraph::new(head), col);
    let rows_area = below(col, 3);
    if let Some(empty) = h.empty {
        frame.render_widget(
            Paragraph::new(Line::from(p.span(empty, Tone::Dim))).alignment(Alignment::Center),
            below(rows_area, rows_area.height / 3),
        );
        return;
    }
    let w = usize::from(col.width);
    // Under 60 columns the date goes without its year and the accuracy and link go, so
    // that the score stays whole (at 40 a HOT PURSUIT row lost it); the title gives way
    // last, cut with an ellipsis.
    let narrow = w < 60;
    let (date_w, tail_w) = if narrow { (11, 0) } else { (16, 17) };
    let title_w = w.saturating_sub(2 + date_w + 1 + 12 + tail_w).max(4);
    let rows = h
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mark = if i == h.selected { "▸ " } else { "  " };
            let date = r.date.get(16 - date_w..).unwrap_or(&r.date);
            let mut spans = vec![
                p.span(format!("{mark}{date:<date_w$} "), Tone::Dim),
                p.span(format!("{:<title_w$} ", cut(&r.title, title_w)), Tone::Text),
                p.span(format!("{:>11} ", r.headline), h.tone(i))
                    .add_modifier(Modifier::BOLD),
            ];
            if !narrow {
                spans.push(p.span(format!("{:>8} ", r.accuracy), Tone::Dim));
                spans.push(p.span(format!("{:>7}", r.shared()), Tone::Dim));
            }
            Line::from(spans)
        })
        .collect();
    frame.render_widget(
        Paragraph::new(list(rows, h.selected, rows_area.height)),
        rows_area,
    );
}

/// `text` in at most `width` columns: cut, with `…` last, where it is longer.
fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}
