//! The keys screen: the keyboard shaded, the worst keys and pairs, the trend and the drill.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style, Stylize as _};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use typepper_game::model::{KeyCap, Keys, Tone};

use super::{Palette, below, column, rows};

/// The keys screen: the keyboard shaded by errors or time, the worst keys and pairs, the
/// trend and the drill.
pub(super) fn draw(frame: &mut Frame, area: Rect, k: &Keys, p: &Palette) {
    let col = column(area, 100);
    let mut lines = vec![
        Line::from(vec![
            Span::styled(k.title, Style::default().add_modifier(Modifier::BOLD)),
            p.span(format!("  {}", k.by), Tone::Accent),
        ]),
        Line::from(p.span(k.caption.as_str(), Tone::Dim)),
        Line::default(),
    ];
    if let Some(empty) = k.empty {
        lines.push(Line::from(p.span(empty, Tone::Dim)));
        frame.render_widget(Paragraph::new(lines), col);
        return;
    }
    // The trend and the drill take the last rows, as many as they wrap to, after a
    // blank one; the lists share what is left.
    let offer = k.offer().map(|(offer, drill)| format!("{offer} {drill}"));
    let foot_rows: u16 = [Some(k.trend.as_str()), offer.as_deref(), k.no_drill]
        .into_iter()
        .flatten()
        .map(|line| rows(line, col.width))
        .sum();
    // The keyboard is a picture of what the lists say: where the screen is too short for
    // both (40×16), the lists stay, a heading and two rows each at least.
    let keyboard = k.keyboard.len() as u16 + 1;
    let lists_fit = col.height.saturating_sub(3 + keyboard + 1 + foot_rows) >= 6;
    let keyboard: &[Vec<KeyCap>] = if lists_fit { &k.keyboard } else { &[] };
    // Each row a little to the right of the one above, as on a keyboard.
    for (i, row) in keyboard.iter().enumerate() {
        let mut spans = vec![Span::raw(" ".repeat(1 + 2 * i))];
        for cap in row {
            // A cell's colour is its own background here: reversed, as a key cap.
            // One never asked is its letter alone.
            let style = match cap.shade {
                Some(_) => p
                    .style(cap.tone())
                    .add_modifier(Modifier::REVERSED | Modifier::BOLD),
                None => p.style(cap.ink()),
            };
            spans.push(Span::styled(format!(" {} ", cap.key), style));
            spans.push(Span::raw(" "));
        }
        lines.push(Line::from(spans));
    }
    if !keyboard.is_empty() {
        lines.push(Line::default());
    }
    let used = lines.len() as u16;
    frame.render_widget(Paragraph::new(lines), col);
    let rest = below(col, used);
    let lists = Rect {
        height: rest.height.saturating_sub(1 + foot_rows),
        ..rest
    };
    let side_by_side = col.width >= 96;
    let (keys_area, pairs_area) = if side_by_side {
        let [a, b] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
            .areas(lists);
        (a, b)
    } else {
        let [a, b] =
            Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(lists);
        (a, b)
    };
    for (area, list) in [keys_area, pairs_area].into_iter().zip(&k.lists) {
        let mut out = vec![Line::from(p.span(list.title, Tone::Dim))];
        if list.lines.is_empty() {
            out.push(Line::from(p.span(format!("  {}", list.none), Tone::Dim)));
        }
        // The note goes last, but always shows, on as many rows as it wraps to.
        let note = list
            .note
            .as_ref()
            .map_or(0, |n| rows(&format!("  {n}"), area.width));
        let room = usize::from(area.height).saturating_sub(1 + usize::from(note));
        let worst = list.lines.iter().take(room).enumerate();
        out.extend(worst.map(|(n, r)| Line::from(p.span(format!("  {r}"), list.tone(n)))));
        if let Some(note) = &list.note {
            out.push(Line::from(p.span(format!("  {note}"), Tone::Dim)));
        }
        frame.render_widget(Paragraph::new(out).wrap(Wrap { trim: false }), area);
    }
    let mut foot = vec![Line::from(p.span(k.trend.as_str(), Tone::Dim))];
    if let Some((offer, drill)) = k.offer() {
        foot.push(Line::from(vec![
            p.span(format!("{offer} "), Tone::Dim),
            p.span(drill, Tone::Accent).add_modifier(Modifier::BOLD),
        ]));
    }
    if let Some(why) = k.no_drill {
        foot.push(Line::from(p.span(why, Tone::Dim)));
    }
    frame.render_widget(
        Paragraph::new(foot).wrap(Wrap { trim: false }),
        below(rest, lists.height + 1),
    );
}
