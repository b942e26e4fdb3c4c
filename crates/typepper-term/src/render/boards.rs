//! The boards: each player's best run of a mode in a period.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Stylize as _};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use typepper_game::layout;
use typepper_game::model::{Boards, Tone};

use super::{Palette, below, column, header, list};

pub(super) fn draw(frame: &mut Frame, area: Rect, b: &Boards, p: &Palette) {
    let col = column(area, 100);
    let fits = |t: &str| unicode_width::UnicodeWidthStr::width(t) <= usize::from(col.width);
    let picker = |text| p.span(text, Tone::Accent).add_modifier(Modifier::BOLD);
    let head = if fits(&format!("{} {}", b.picker, b.caption)) {
        let right = Line::from(vec![
            picker(format!("{} ", b.picker)),
            p.span(b.caption.as_str(), Tone::Dim),
        ]);
        header(b.title, right, 3)
    } else {
        // A narrow window, or a mode with its text's settings (`‹ WORDS 100 · punctuation
        // · numbers · українська ›`): the picker takes the two rows under the title if it
        // needs them, and the caption (the period) the row left, if one is.
        let mut head = header(b.title, Line::default(), 1);
        let lines = layout::wrap(&b.picker, fits);
        let two = lines.len() > 1;
        let lines = lines
            .into_iter()
            .take(2)
            .map(|l| Line::from(picker(l.to_owned())));
        head.extend(lines.map(|l| l.alignment(Alignment::Right)));
        if !two {
            head.push(
                Line::from(p.span(b.caption.as_str(), Tone::Dim)).alignment(Alignment::Right),
            );
        }
        head
    };
    frame.render_widget(Paragraph::new(head), col);
    let rows_area = below(col, 3);
    if let Some((say, tone)) = &b.say {
        frame.render_widget(
            Paragraph::new(Line::from(p.span(say.as_str(), *tone))).alignment(Alignment::Center),
            below(rows_area, rows_area.height / 3),
        );
    }
    // The name's column gives way where the window is narrow (a name is cut with `…`),
    // so that the score and the accuracy are always whole.
    let name_w = usize::from(col.width)
        .saturating_sub(7 + 9 + 9)
        .clamp(4, 22);
    let lines = b
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mark = if i == b.selected { "▸" } else { " " };
            let name = if r.name.chars().count() > name_w {
                let cut: String = r.name.chars().take(name_w - 1).collect();
                cut + "…"
            } else {
                r.name.clone()
            };
            Line::from(vec![
                p.span(format!("{mark}{:>4}  ", r.rank), r.medal),
                p.span(format!("{name:<name_w$}"), Tone::Text),
                p.span(format!("{:>9}", r.score), b.tone(i))
                    .add_modifier(Modifier::BOLD),
                p.span(format!("{:>9}", r.accuracy), Tone::Dim),
            ])
        })
        .collect();
    frame.render_widget(
        Paragraph::new(list(lines, b.selected, rows_area.height)),
        rows_area,
    );
}
