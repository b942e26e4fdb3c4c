//! The menu: the wordmark, the modes, and who plays.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Stylize as _};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
use typepper_game::model::{Menu, Tone, WORDMARK};

use super::{Palette, below, rows};

/// `typepper`, its pepper in the accent.
fn title<'a>(p: &Palette) -> Line<'a> {
    Line::from(
        WORDMARK
            .map(|(text, tone)| p.span(text, tone).add_modifier(Modifier::BOLD))
            .to_vec(),
    )
}

pub(super) fn draw(frame: &mut Frame, area: Rect, menu: &Menu, p: &Palette) {
    // The modes and the settings are always drawn whole. Where the screen is short (40×16,
    // with its hints on six rows), what else says it goes first: the tagline and the
    // blank rows, then `g races your best here` (the hints offer it), then the wordmark,
    // then the lines under the menu (the hints say `l link` too), and last the blank row
    // between the modes and the settings, which are dimmer than the modes without it.
    let rows_of = |line: Option<&str>| line.map_or(0, |l| rows(l, area.width));
    let (last, race, daily) = (
        rows_of(menu.last_round.as_deref()),
        rows_of(menu.race.as_deref()),
        rows_of(menu.daily.as_deref()),
    );
    let settings = menu.items.iter().any(|i| i.setting);
    let items = menu.items.len() as u16;
    let gap = u16::from(settings);
    let under = last + rows_of(Some(&menu.player));
    let fits = |rows: u16| area.height >= rows;
    let show_gap = fits(items + gap);
    let show_under = fits(items + gap + under);
    let show_title = fits(items + gap + under + 1);
    let show_race = fits(items + gap + under + 1 + race);
    let show_daily = fits(items + gap + under + 1 + race + daily);
    let roomy = fits(items + gap + under + 1 + race + daily + 3);
    let mut lines = vec![];
    if show_title {
        lines.push(title(p));
    }
    if roomy {
        lines.push(Line::from(p.span(menu.tagline, Tone::Dim)));
        lines.push(Line::default());
    }
    for (i, item) in menu.items.iter().enumerate() {
        if show_gap && item.setting && !menu.items[..i].iter().any(|i| i.setting) {
            lines.push(Line::default());
        }
        let selected = i == menu.selected;
        let label = item.text();
        let mark = if selected { "▸ " } else { "  " };
        let mut spans = vec![p.span(format!("{mark}{label}"), menu.tone(i))];
        if selected {
            spans[0] = spans[0].clone().add_modifier(Modifier::BOLD);
        }
        if let Some(badge) = item.badge() {
            spans.push(p.span(format!("  {badge}"), Tone::Dim));
        }
        lines.push(Line::from(spans));
    }
    if roomy {
        lines.push(Line::default());
    }
    if let Some(line) = menu.daily.as_ref().filter(|_| show_daily) {
        lines.push(Line::from(p.span(line.as_str(), Tone::Accent)));
    }
    if let Some(last) = menu.last_round.as_ref().filter(|_| show_under) {
        lines.push(Line::from(p.span(last.as_str(), Tone::Dim)));
    }
    if let Some(line) = menu.race.as_ref().filter(|_| show_race) {
        lines.push(Line::from(p.span(line.as_str(), Tone::Ghost)));
    }
    if show_under {
        lines.push(Line::from(p.span(menu.player.as_str(), Tone::Dim)));
    }
    // Rows as wrapped: the lines under the modes may take two each.
    let tall: usize = lines
        .iter()
        .map(|l| l.width().div_ceil(usize::from(area.width.max(1))).max(1))
        .sum();
    let tall = u16::try_from(tall).unwrap_or(u16::MAX);
    let top = area.height.saturating_sub(tall) / 3;
    frame.render_widget(
        // Not trimmed: the unpicked items' two spaces keep them under the picked one.
        Paragraph::new(lines)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: false }),
        below(area, top),
    );
}
