//! The terminal renderer: draws a screen's model in cells. It decides nothing the browser
//! doesn't: the words, stats and hints all come from the model; this only places and
//! colours them.
//!
//! One module a screen, as the game's model has them (`render/results.rs` draws
//! `model::Results`); here, what every screen has (the banner, the notice, the hints, a
//! window too small) and the helpers the screens share; the tones' colours in
//! `render/palette.rs`.

mod boards;
mod devices;
mod history;
mod keys;
mod link;
mod menu;
mod palette;
mod play;
mod profile;
mod results;
mod room;
mod settings;
#[cfg(test)]
mod tests;
mod text;

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use typepper_game::layout::{self, Scroll};
use typepper_game::model::{Body, Model, Tone};

pub use self::palette::{Depth, Palette};

/// The smallest window, in columns and rows, the screens are laid out for: the menu
/// with all its modes, a round with its three lines, the results' headline stats. A
/// smaller one is told so rather than drawn cut short. (Larger windows show more: the
/// results' chart, the hints on fewer lines.)
pub const MIN_SIZE: (u16, u16) = (40, 16);

/// Draws `model` on the whole frame. `scroll` keeps the round's lines between frames.
pub fn draw(frame: &mut Frame, model: &Model, scroll: &mut Scroll, p: &Palette) {
    let area = frame.area();
    // A theme that paints its own background paints all of it.
    frame.buffer_mut().set_style(area, p.base());
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        return draw_too_small(frame, model, p);
    }
    let footer = format!("{} · {}", model.hints, model.quits());
    let fits = |t: &str| unicode_width::UnicodeWidthStr::width(t) <= usize::from(area.width);
    // The hints take as many lines as they wrap to where the terminal is narrow, so none
    // is cut off (the menu's six at 40 columns); never more than half the screen.
    let lines = layout::wrap(&footer, fits);
    let hint_rows = (lines.len() as u16).clamp(1, (area.height / 2).max(1));
    // A notice is wrapped too, not cut mid-sentence: up to three rows.
    let said = model
        .notice
        .as_ref()
        .map(|(n, tone)| (layout::wrap(n, fits), *tone));
    let notice_rows = said.as_ref().map_or(1, |(l, _)| l.len().clamp(1, 3) as u16);
    let [top, body, notice, hints] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(notice_rows),
        Constraint::Length(hint_rows),
    ])
    .areas(area);
    if let Some(banner) = &model.banner {
        let style = p
            .style(Tone::Wrong)
            .add_modifier(Modifier::REVERSED | Modifier::BOLD);
        let line = Line::from(Span::styled(format!(" {banner} "), style));
        frame.render_widget(Paragraph::new(line).alignment(Alignment::Center), top);
    }
    if let Some((said, tone)) = said {
        let lines: Vec<Line> = said
            .into_iter()
            .map(|l| Line::from(p.span(l, tone)))
            .collect();
        frame.render_widget(Paragraph::new(lines).alignment(Alignment::Center), notice);
    }
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|l| Line::from(p.span(l, Tone::Dim)))
        .collect();
    frame.render_widget(Paragraph::new(lines).alignment(Alignment::Center), hints);
    match &model.body {
        Body::Menu(menu) => menu::draw(frame, body, menu, p),
        Body::Play(play) => play::draw(frame, body, play, scroll, p),
        Body::Results(r) => results::draw(frame, body, r, p),
        Body::History(h) => history::draw(frame, body, h, p),
        Body::Link(link) => link::draw(frame, body, link, p),
        Body::Devices(d) => devices::draw(frame, body, d, p),
        Body::Boards(b) => boards::draw(frame, body, b, p),
        Body::Keys(k) => keys::draw(frame, body, k, p),
        Body::Profile(v) => profile::draw(frame, body, v, p),
        Body::Room(r) => room::draw(frame, body, r, p),
        Body::Text(t) => text::draw(frame, body, t, p),
        Body::Settings(s) => settings::draw(frame, body, s, p),
    }
}

/// What a window smaller than [`MIN_SIZE`] shows: its size, the size wanted, and how to
/// leave; in the middle, wrapped to whatever width there is. The game goes on behind it.
fn draw_too_small(frame: &mut Frame, model: &Model, p: &Palette) {
    let area = frame.area();
    let (w, h) = MIN_SIZE;
    let text = format!(
        "this window is {}×{} · typepper needs {w}×{h} · make it larger · {}",
        area.width,
        area.height,
        model.quits()
    );
    let fits = |t: &str| unicode_width::UnicodeWidthStr::width(t) <= usize::from(area.width);
    let lines: Vec<Line> = layout::wrap(&text, fits)
        .into_iter()
        .map(|l| Line::from(p.span(l, Tone::Text)))
        .collect();
    let middle = below(area, area.height.saturating_sub(lines.len() as u16) / 2);
    frame.render_widget(Paragraph::new(lines).alignment(Alignment::Center), middle);
}

/// A column of at most `width` in the middle of `area`.
fn column(area: Rect, width: u16) -> Rect {
    let w = area.width.min(width);
    Rect {
        x: area.x + (area.width - w) / 2,
        width: w,
        ..area
    }
}

/// `area` less `n` rows at the top.
fn below(area: Rect, n: u16) -> Rect {
    let n = n.min(area.height);
    Rect {
        y: area.y + n,
        height: area.height - n,
        ..area
    }
}

/// How many rows `line` takes wrapped at `width` columns (a rough count: by characters).
fn rows(line: &str, width: u16) -> u16 {
    let rows = line.chars().count().div_ceil(usize::from(width.max(1)));
    u16::try_from(rows).unwrap_or(u16::MAX)
}

/// A scrolling list: `rows` lines, the `selected` one marked and kept on screen.
fn list<'a>(rows: Vec<Line<'a>>, selected: usize, height: u16) -> Vec<Line<'a>> {
    let visible = usize::from(height).max(1);
    let first = selected
        .saturating_sub(visible / 2)
        .min(rows.len().saturating_sub(visible));
    rows.into_iter().skip(first).take(visible).collect()
}

/// A list screen's head: its title in bold, `right` at the right under it, a blank line;
/// no more rows than `width` (at most three).
fn header<'a>(left: &'a str, right: Line<'a>, width: u16) -> Vec<Line<'a>> {
    vec![
        Line::from(Span::styled(
            left,
            Style::default().add_modifier(Modifier::BOLD),
        )),
        right.alignment(Alignment::Right),
        Line::default(),
    ]
    .into_iter()
    .take(usize::from(width.min(3)))
    .collect()
}
