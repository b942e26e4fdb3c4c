//! The link screen: the name being typed in its field.

use ratatui::Frame;
use ratatui::layout::{Alignment, Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use typepper_game::model::{Link, Tone};

use super::{Palette, below, column};

pub(super) fn draw(frame: &mut Frame, area: Rect, link: &Link, p: &Palette) {
    let col = column(area, 80);
    let top = below(col, col.height.saturating_sub(7) / 3);
    let lines = vec![
        Line::from(Span::styled(
            link.title,
            Style::default().add_modifier(Modifier::BOLD),
        )),
        Line::from(p.span(link.about.as_str(), Tone::Dim)),
        Line::default(),
    ];
    frame.render_widget(Paragraph::new(lines).alignment(Alignment::Center), top);
    let field = Rect {
        x: col.x + col.width.saturating_sub(26) / 2,
        y: top.y + 3,
        width: col.width.min(26),
        height: 3.min(top.height.saturating_sub(3)),
    };
    let name = Paragraph::new(Line::from(p.span(link.name.as_str(), Tone::Accent))).block(
        Block::default()
            .borders(Borders::ALL)
            .border_style(p.style(Tone::Dim)),
    );
    frame.render_widget(name, field);
    if field.height == 3 {
        let x = field.x + 1 + (link.name.chars().count() as u16).min(field.width.saturating_sub(3));
        frame.set_cursor_position(Position::new(x, field.y + 1));
    }
    let status = Rect {
        y: field.y + field.height,
        height: 1.min(area.bottom().saturating_sub(field.y + field.height)),
        ..col
    };
    frame.render_widget(
        Paragraph::new(Line::from(p.span(link.status.as_str(), Tone::Dim)))
            .alignment(Alignment::Center),
        status,
    );
}
