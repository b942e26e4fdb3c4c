//! The custom text screen: the text being pasted or typed, in a box that shows its end.

use ratatui::Frame;
use ratatui::layout::{Alignment, Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use typepper_game::model::{TextEntry, Tone};

use super::{Palette, below, column};

pub(super) fn draw(frame: &mut Frame, area: Rect, entry: &TextEntry, p: &Palette) {
    let col = column(area, 80);
    let head = vec![
        Line::from(Span::styled(
            entry.title,
            Style::default().add_modifier(Modifier::BOLD),
        )),
        Line::from(p.span(entry.about, Tone::Dim)),
    ];
    let head_rows = 1 + wrapped_rows(entry.about, col.width);
    frame.render_widget(
        Paragraph::new(head)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true }),
        Rect {
            height: head_rows.min(col.height),
            ..col
        },
    );
    let top = below(col, head_rows + 1);
    // The box takes what is left but the count's line under it.
    let field = Rect {
        height: top.height.saturating_sub(1).min(14),
        ..top
    };
    if field.height < 3 || field.width < 4 {
        return;
    }
    let inner = (field.width - 2, field.height - 2);
    let rows = rows_of(&entry.draft, inner.0);
    let shown = &rows[rows.len().saturating_sub(usize::from(inner.1))..];
    let lines: Vec<Line> = shown
        .iter()
        .map(|r| Line::from(p.span(r.clone(), Tone::Text)))
        .collect();
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .border_style(p.style(Tone::Dim)),
        ),
        field,
    );
    // The caret after the last character, where typing goes.
    let last = shown.last().map_or(0, |r| r.chars().count() as u16);
    let (x, y) = match last >= inner.0 {
        true => (0, shown.len() as u16),
        false => (last, shown.len().saturating_sub(1) as u16),
    };
    if y < inner.1 {
        frame.set_cursor_position(Position::new(field.x + 1 + x, field.y + 1 + y));
    }
    let count = p.span(entry.count.as_str(), entry.count_tone());
    frame.render_widget(
        Paragraph::new(Line::from(count)).alignment(Alignment::Center),
        Rect {
            y: field.bottom(),
            height: 1.min(area.bottom().saturating_sub(field.bottom())),
            ..col
        },
    );
}

/// The draft as rows of at most `width` characters: each of its lines, cut where it runs
/// out of room (a terminal's text box shows a paste as it came, lines and all).
fn rows_of(draft: &str, width: u16) -> Vec<String> {
    let width = usize::from(width.max(1));
    let mut rows = vec![];
    for line in draft.split('\n') {
        let chars: Vec<char> = line.chars().filter(|c| !c.is_control()).collect();
        if chars.is_empty() {
            rows.push(String::new());
        }
        rows.extend(chars.chunks(width).map(|c| c.iter().collect()));
    }
    rows
}

/// How many rows `text` takes wrapped at `width`, roughly as a paragraph wraps it.
fn wrapped_rows(text: &str, width: u16) -> u16 {
    let len = text.chars().count() as u16;
    len.div_ceil(width.max(1)).max(1) + 1
}
