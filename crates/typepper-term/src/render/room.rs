//! A live room: its lobby, countdown and results.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Modifier, Style, Stylize as _};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use typepper_game::layout;
use typepper_game::model::{Room, RoomRow, Tone};

use super::{Palette, below, column};

/// A room: its name and link, the name being picked, the countdown, and everyone in it
/// (the finishers, at the end), a row each.
pub(super) fn draw(frame: &mut Frame, area: Rect, r: &Room, p: &Palette) {
    let col = column(area, 100);
    let w = usize::from(col.width);
    // Sentences are wrapped, not cut: the lobby's caption, a finisher's state.
    let wrap = |text: &str, width: usize| -> Vec<String> {
        let fits = |t: &str| unicode_width::UnicodeWidthStr::width(t) <= width;
        layout::wrap(text, fits)
            .into_iter()
            .map(str::to_owned)
            .collect()
    };
    let mut lines = vec![Line::from(Span::styled(
        r.title.as_str(),
        Style::default().add_modifier(Modifier::BOLD),
    ))];
    for line in wrap(&r.caption, w) {
        lines.push(Line::from(p.span(line, Tone::Dim)));
    }
    if let Some(link) = &r.link {
        lines.push(Line::from(p.span(link.as_str(), Tone::Accent)));
    }
    lines.push(Line::default());
    let mut cursor = None;
    if let Some(name) = &r.name {
        cursor = Some(lines.len());
        lines.push(Line::from(p.span(format!("name: {name}"), Tone::Accent)));
    }
    if let Some(big) = &r.big {
        lines.push(Line::from(p.span(big.as_str(), Tone::Accent)).bold());
    }
    lines.push(Line::default());
    let head = lines.len() as u16;
    frame.render_widget(Paragraph::new(lines), col);
    if let Some(row) = cursor {
        let x = col.x + 6 + r.name.as_deref().map_or(0, |n| n.chars().count() as u16);
        frame.set_cursor_position(Position::new(x.min(col.right()), col.y + row as u16));
    }
    let rows_area = below(col, head);
    // Four columns where they fit, as the browser draws them; else two lines a row: the
    // place, the name and the score, then the state under the name.
    // An empty column (a lobby's places) takes no room.
    let widest = |cell: fn(&RoomRow) -> &str| {
        let width = r.rows.iter().map(|row| cell(row).chars().count()).max();
        width.filter(|&w| w > 0).map_or(0, |w| w + 2)
    };
    let (place, name) = (widest(|r| &r.place), widest(|r| &r.name));
    let (state, score) = (widest(|r| &r.state), widest(|r| &r.score));
    let one_line = 2 + place + name + state + score <= w;
    let picked = r.selected.unwrap_or(usize::MAX);
    // Two lines or more a row: each state wrapped under its name, every row as tall as
    // the tallest, so that the list scrolls by whole rows.
    let states: Vec<Vec<String>> = r
        .rows
        .iter()
        .map(|row| match one_line {
            true => vec![],
            false => wrap(&row.state, w.saturating_sub(2 + place)),
        })
        .collect();
    let per = 1 + states.iter().map(Vec::len).max().unwrap_or(0);
    let mut lines = vec![];
    for (i, (row, wrapped)) in r.rows.iter().zip(states).enumerate() {
        let mark = if i == picked { "▸ " } else { "  " };
        let mut first = vec![
            p.span(format!("{mark}{:<place$}", row.place), Tone::Dim),
            p.span(format!("{:<name$}", row.name), row.tone),
        ];
        if one_line {
            first.push(p.span(format!("{:<state$}", row.state), row.state_tone));
        }
        let used = 2 + place + name + if one_line { state } else { 0 };
        let score_w = w.saturating_sub(used);
        first.push(p.span(format!("{:>score_w$}", row.score), row.tone));
        lines.push(Line::from(first));
        let indent = " ".repeat(2 + place);
        let mut under: Vec<Line> = wrapped
            .into_iter()
            .map(|l| Line::from(p.span(format!("{indent}{l}"), row.state_tone)))
            .collect();
        under.resize(per - 1, Line::default());
        lines.extend(under);
    }
    let visible = (usize::from(rows_area.height) / per).max(1);
    let first = picked
        .min(r.rows.len())
        .saturating_sub(visible / 2)
        .min(r.rows.len().saturating_sub(visible));
    let shown = lines.into_iter().skip(first * per);
    frame.render_widget(Paragraph::new(shown.collect::<Vec<_>>()), rows_area);
}
