//! A player's profile: their rounds and time, their chart over every round where the
//! window has the room, their runs under a heading for each kind, and their keys.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Stylize as _};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
use typepper_game::model::{Profile, Tone};

use super::results::draw_chart;
use super::{Palette, below, column, header, list, rows};

/// The chart is drawn where the window leaves the runs at least this many rows.
const RUN_ROWS: u16 = 6;

/// A run takes one line from this many columns: the mark, its title, its score, and a
/// detail with `· unranked`.
const WIDE: u16 = 2 + 24 + 10 + 2 + 32;

pub(super) fn draw(frame: &mut Frame, area: Rect, v: &Profile, p: &Palette) {
    let col = column(area, 100);
    frame.render_widget(Paragraph::new(header(&v.title, Line::default(), 1)), col);
    // The counts under the title, at the right, wrapped where the window is narrow.
    let counts: Vec<Line> = [v.status.as_str(), v.month.as_str()]
        .into_iter()
        .map(|l| Line::from(p.span(l, Tone::Dim)))
        .collect();
    let count_rows = rows(&v.status, col.width) + rows(&v.month, col.width);
    let counts_area = Rect {
        height: count_rows.min(col.height.saturating_sub(1)),
        ..below(col, 1)
    };
    frame.render_widget(
        Paragraph::new(counts)
            .alignment(Alignment::Right)
            .wrap(Wrap { trim: true }),
        counts_area,
    );
    let mut rest = below(col, 1 + count_rows);
    if let Some((say, tone)) = &v.say {
        frame.render_widget(
            Paragraph::new(Line::from(p.span(say.as_str(), *tone))).alignment(Alignment::Center),
            below(rest, rest.height / 3),
        );
    }
    // The keys at the foot, a line each where they fit (wrapped at 40 columns).
    let keys: Vec<Line> = (v.keys.iter())
        .map(|k| Line::from(p.span(k.as_str(), Tone::Dim)))
        .collect();
    let key_rows: u16 = (v.keys.iter())
        .map(|k| rows(k, rest.width))
        .sum::<u16>()
        .min(rest.height / 3);
    let keys_area = Rect {
        y: rest.y + rest.height - key_rows,
        height: key_rows,
        ..rest
    };
    frame.render_widget(Paragraph::new(keys).wrap(Wrap { trim: true }), keys_area);
    rest.height -= key_rows;
    if let Some(chart) = &v.chart {
        let height = (rest.height / 2).min(12);
        if height >= 5 && rest.height - height >= RUN_ROWS {
            draw_chart(frame, Rect { height, ..rest }, chart, p);
            rest = below(rest, height + 1);
        }
    }
    // Each group's heading above its first run; the picked run stays in view.
    let mut lines = vec![];
    let mut picked = 0;
    for (i, r) in v.rows.iter().enumerate() {
        if let Some(group) = r.group {
            lines.push(Line::from(
                p.span(group, Tone::Dim).add_modifier(Modifier::BOLD),
            ));
        }
        if i == v.selected {
            picked = lines.len();
        }
        let mark = p.span(if i == v.selected { "▸ " } else { "  " }, Tone::Dim);
        let title = p.span(format!("{:<24}", r.title), Tone::Text);
        let score = p
            .span(format!("{:>10}", r.score), v.tone(i))
            .add_modifier(Modifier::BOLD);
        let detail = p.span(format!("  {}", r.detail), Tone::Dim);
        // A run on one line where it fits, else its detail on a second.
        if col.width >= WIDE {
            lines.push(Line::from(vec![mark, title, score, detail]));
        } else {
            lines.push(Line::from(vec![mark, title, score]));
            lines.push(Line::from(detail));
        }
    }
    frame.render_widget(Paragraph::new(list(lines, picked, rest.height)), rest);
}
