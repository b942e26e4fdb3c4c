//! The devices screen: the player's devices, a row each, or a code for another device
//! with its link's QR code, two rows of modules to a line of half blocks.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize as _};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use typepper_game::model::{CodeCard, Devices, Tone};

use super::{Palette, below, column, header, list};

pub(super) fn draw(frame: &mut Frame, area: Rect, d: &Devices, p: &Palette) {
    let col = column(area, 100);
    let head = header(d.title, Line::from(p.span(d.status.as_str(), Tone::Dim)), 3);
    frame.render_widget(Paragraph::new(head), col);
    let rows_area = below(col, 3);
    if let Some((say, tone)) = &d.say {
        frame.render_widget(
            Paragraph::new(Line::from(p.span(say.as_str(), *tone))).alignment(Alignment::Center),
            below(rows_area, rows_area.height / 3),
        );
    }
    if let Some(code) = &d.code {
        return draw_code(frame, rows_area, code, p);
    }
    let rows = (d.rows.iter().enumerate())
        .map(|(i, r)| {
            let mark = if i == d.selected { "▸ " } else { "  " };
            let tone = if r.this { Tone::Accent } else { Tone::Text };
            Line::from(vec![
                p.span(mark, Tone::Dim),
                p.span(r.name.as_str(), tone).add_modifier(Modifier::BOLD),
                p.span(format!("  {}", r.detail), Tone::Dim),
            ])
        })
        .collect();
    frame.render_widget(
        Paragraph::new(list(rows, d.selected, rows_area.height)),
        rows_area,
    );
}

/// The code, when it works until, the QR code where the window has room for it, the
/// link and where to type it.
fn draw_code(frame: &mut Frame, area: Rect, c: &CodeCard, p: &Palette) {
    let mut lines = vec![
        Line::from(
            p.span(c.code.as_str(), Tone::Accent)
                .add_modifier(Modifier::BOLD),
        ),
        Line::from(p.span(c.until.as_str(), Tone::Dim)),
        Line::default(),
    ];
    let qr = qr_lines(&c.qr, p);
    // The code and its words must fit: the QR code only where it has the room.
    let fits = |n: usize| n + lines.len() + 3 <= usize::from(area.height);
    if qr
        .first()
        .is_some_and(|l| l.width() <= usize::from(area.width))
        && fits(qr.len())
    {
        lines.extend(qr);
        lines.push(Line::default());
    }
    lines.push(Line::from(p.span(c.link.as_str(), Tone::Dim)));
    lines.push(Line::from(p.span(c.how, Tone::Dim)));
    let para = Paragraph::new(lines)
        .alignment(Alignment::Center)
        .wrap(ratatui::widgets::Wrap { trim: true });
    frame.render_widget(para, area);
}

/// QR rows as lines of half blocks, each cell the module above (its foreground) and the
/// one below (its background), in a quiet zone of four light modules: black on white,
/// whatever the theme, as a scanner reads it. With no colours at all (`NO_COLOR`), a
/// light module is a full block and a dark one a space: the terminal's own colours,
/// which scanners read too when they are light on dark.
fn qr_lines(rows: &[String], p: &Palette) -> Vec<Line<'static>> {
    let n = rows.len() + 8;
    let dark = |r: usize, c: usize| -> bool {
        let (r, c) = (r.wrapping_sub(4), c.wrapping_sub(4));
        rows.get(r).and_then(|row| row.as_bytes().get(c)) == Some(&b'1')
    };
    (0..n.div_ceil(2))
        .map(|line| {
            let spans: Vec<Span<'static>> = (0..n)
                .map(|c| {
                    let (top, bottom) = (dark(2 * line, c), dark(2 * line + 1, c));
                    if p.mono() {
                        let cell = match (top, bottom) {
                            (false, false) => "█",
                            (false, true) => "▀",
                            (true, false) => "▄",
                            (true, true) => " ",
                        };
                        return Span::raw(cell);
                    }
                    let color = |dark| if dark { Color::Black } else { Color::White };
                    Span::styled("▀", Style::new().fg(color(top)).bg(color(bottom)))
                })
                .collect();
            Line::from(spans)
        })
        .collect()
}
