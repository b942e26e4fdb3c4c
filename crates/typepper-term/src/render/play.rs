//! A round: the clock and the heat, the text with the carets, the lead.

use ratatui::Frame;
use ratatui::layout::{Alignment, Position, Rect};
use ratatui::style::{Modifier, Stylize as _};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use typepper_game::layout::{LINES, Scroll};
use typepper_game::model::{Play, Tone};

use super::{Palette, below, column, rows};

/// The widest the text of a round is laid out, in columns: wider lines are hard to read.
const TEXT_COLS: u16 = 72;

/// The cells a glyph takes, as the terminal draws it: two for `中` and `🌶`; one for a
/// character of no width of its own (a combining mark, a control character), which is
/// drawn as [`shown`] makes it.
fn cells(ch: char) -> usize {
    use unicode_width::UnicodeWidthChar as _;
    ch.width().filter(|&w| w > 0).unwrap_or(1)
}

/// A glyph as drawn: a character of no width (which the terminal would draw on the cell
/// before, or not at all) on a dotted circle, so every key typed shows.
fn shown(ch: char) -> String {
    use unicode_width::UnicodeWidthChar as _;
    match ch.width() {
        Some(0) => format!("◌{ch}"),
        None => "�".into(),
        Some(_) => ch.to_string(),
    }
}

/// The heat gauge: a bar in the tier's colour, and its number and pepper.
fn gauge<'a>(play: &Play, width: u16, p: &Palette) -> Line<'a> {
    let heat = play.heat;
    let label = format!(" {}", play.heat_label());
    let bar = usize::from(width.saturating_sub(label.chars().count() as u16)).max(4);
    // Eighths of a cell, so the bar moves with every point of heat.
    let eighths = bar * 8 * usize::from(heat) / 100;
    let mut filled = "█".repeat(eighths / 8);
    if eighths % 8 > 0 {
        filled.push([' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'][eighths % 8]);
    }
    let rest = bar.saturating_sub(filled.chars().count());
    Line::from(vec![
        p.span(filled, play.heat_tone()),
        p.span("·".repeat(rest), Tone::Dim),
        p.span(label, play.heat_tone()),
    ])
}

pub(super) fn draw(frame: &mut Frame, area: Rect, play: &Play, scroll: &mut Scroll, p: &Palette) {
    let col = column(area, TEXT_COLS);
    let top = area.height.saturating_sub(10) / 3;
    let status = below(col, top);
    let clock = play.clock.big();
    let mut tail = vec![];
    if let Some(live) = &play.live {
        tail.push(p.span(format!("   {live}"), Tone::Text));
    }
    if let Some(flame) = play.flame_line() {
        tail.push(p.span(format!("   {flame}"), Tone::Wrong));
    }
    // The clock, the speed and the flame are what a typist glances at; the title gives
    // way to them, its text's settings first (`WORDS 25 · punctuation · français` is
    // `WORDS 25` in a narrow window), and then all of it.
    let width = unicode_width::UnicodeWidthStr::width;
    let used = width(clock.as_str()) + tail.iter().map(|s| width(&s.content)).sum::<usize>();
    let room = usize::from(col.width).saturating_sub(used);
    let title = play.mode.title();
    let parts: Vec<&str> = title.split(" · ").collect();
    let title = (0..=parts.len())
        .rev()
        .map(|n| parts[..n].join(" · "))
        .find(|t| t.is_empty() || width(t.as_str()) + 2 <= room)
        .unwrap_or_default();
    let mut head = vec![
        p.span(clock, play.clock_tone())
            .add_modifier(Modifier::BOLD),
    ];
    if !title.is_empty() {
        head.push(p.span(format!("  {title}"), Tone::Dim));
    }
    head.extend(tail);
    let head = Line::from(head);
    frame.render_widget(Paragraph::new(head), status);
    let gauge_row = below(status, 1);
    frame.render_widget(Paragraph::new(gauge(play, col.width, p)), gauge_row);

    let text = below(gauge_row, 2);
    let lines = scroll.lines(play, usize::from(col.width), &cells);
    let mut out = vec![];
    let mut caret = None;
    let mut ghosts = vec![];
    let flame_at = play.flame.map(|f| f.div_euclid(1000));
    for (li, line) in lines.iter().enumerate() {
        let mut spans = vec![];
        let mut at = 0;
        for &(wi, c) in line {
            let Some(word) = play.word(wi) else { continue };
            if c > at {
                spans.push(Span::raw(" ".repeat(c - at)));
            }
            at = c;
            for (gi, g) in word.glyphs.iter().enumerate() {
                let tone = play.glyph_tone(word, gi);
                let mut style = p.style(tone);
                if play.marks(word, Some(gi)) || play.marks(word, None) {
                    style = style.add_modifier(Modifier::UNDERLINED);
                }
                // Without colour a wrong word's underline runs under all of it: its wrong
                // and extra letters stand out reversed.
                if p.mono() && matches!(tone, Tone::Wrong | Tone::Extra) && !play.blind {
                    style = style.add_modifier(Modifier::REVERSED);
                }
                // The flame: the cell it stands on burns.
                if flame_at == Some(i64::from(word.offset) + gi as i64) {
                    style = p
                        .style(Tone::Wrong)
                        .add_modifier(Modifier::REVERSED | Modifier::BOLD);
                }
                spans.push(Span::styled(shown(g.ch), style));
            }
            if wi == play.caret.0 {
                caret = Some((c + word.col_of(play.caret.1, &cells), li));
            }
            for g in play.ghosts.iter().filter(|g| g.caret.0 == wi) {
                ghosts.push((c + word.col_of(g.caret.1, &cells), li));
            }
            at += word.cols(&cells);
        }
        out.push(Line::from(spans));
    }
    frame.render_widget(Paragraph::new(out), text);
    let cell = |(x, y): (usize, usize)| {
        Position::new(
            text.x + (x as u16).min(text.width.saturating_sub(1)),
            text.y + y as u16,
        )
    };
    // The ghost's caret is its cell, reversed in the ghost's colour; yours is the
    // terminal's own cursor.
    for at in ghosts.into_iter().map(cell) {
        if let Some(c) = frame.buffer_mut().cell_mut(at) {
            c.set_style(p.style(Tone::Ghost).add_modifier(Modifier::REVERSED));
        }
    }
    if let Some(at) = caret.map(cell) {
        frame.set_cursor_position(at);
    }
    let mut below_text = below(text, LINES as u16 + 1);
    if let Some(prompt) = play.prompt {
        // Wrapped where the terminal is narrow, not cut.
        frame.render_widget(
            Paragraph::new(Line::from(p.span(prompt, Tone::Dim)))
                .alignment(Alignment::Center)
                .wrap(Wrap { trim: true }),
            below_text,
        );
        below_text = below(below_text, rows(prompt, below_text.width));
    }
    if let Some((line, tone)) = &play.lead {
        frame.render_widget(
            Paragraph::new(Line::from(p.span(line.as_str(), *tone))).alignment(Alignment::Center),
            below_text,
        );
        below_text = below(below_text, 1);
    }
    // In a room, everyone else by name, place and speed: a cell can't carry a label.
    if play.ghosts.iter().any(|g| g.tag.is_some()) {
        let names: Vec<String> = play.ghosts.iter().map(|g| g.caret_label()).collect();
        frame.render_widget(
            Paragraph::new(Line::from(p.span(names.join("   "), Tone::Ghost)))
                .alignment(Alignment::Center),
            below_text,
        );
    }
}
