//! The terminal renderer: draws a screen's model in cells. It decides nothing the browser
//! doesn't: the words, stats and hints all come from the model; this only places and
//! colours them.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Position, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize as _};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Borders, Dataset, GraphType, Paragraph, Wrap};
use typepper_engine::Tier;
use typepper_game::layout::{self, LINES, Scroll};
use typepper_game::model::{
    Boards, Body, Chart, History, KeyCap, Keys, Link, Menu, Model, Play, Race, Results, Room,
    RoomRow, Stat, Tone, WORDMARK,
};

/// The widest the text of a round is laid out, in columns: wider lines are hard to read.
const TEXT_COLS: u16 = 72;

/// The smallest window, in columns and rows, the screens are laid out for: the menu
/// with all its modes, a round with its three lines, the results' headline stats. A
/// smaller one is told so rather than drawn cut short. (Larger windows show more: the
/// results' chart, the hints on fewer lines.)
pub const MIN_SIZE: (u16, u16) = (40, 16);

/// How many colours the terminal shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// None (`NO_COLOR`): states are told apart by bold, dim and underline.
    Mono,
    /// The 16 ANSI colours.
    Ansi16,
    /// The xterm 256-colour palette.
    Indexed256,
    /// 24-bit colour.
    TrueColor,
}

impl Depth {
    /// What the environment says: `NO_COLOR` (any value but empty), else `COLORTERM`
    /// (`truecolor`, `24bit`), else `TERM` (`…256color…`; `dumb` has none).
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Depth {
        if var("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            return Depth::Mono;
        }
        let colorterm = var("COLORTERM").unwrap_or_default();
        if colorterm == "truecolor" || colorterm == "24bit" {
            return Depth::TrueColor;
        }
        match var("TERM").unwrap_or_default().as_str() {
            "dumb" => Depth::Mono,
            t if t.contains("256color") => Depth::Indexed256,
            _ => Depth::Ansi16,
        }
    }
}

/// Styles for a terminal's depth.
#[derive(Clone, Copy, Debug)]
pub struct Palette {
    depth: Depth,
}

impl Palette {
    /// A palette for `depth`.
    pub fn new(depth: Depth) -> Palette {
        Palette { depth }
    }

    fn style(&self, tone: Tone) -> Style {
        // The game's colour for the role, and the nearest of the 16 where that is all
        // there is; without colour, what bold, dim and underline can say.
        let heat = |t| match t {
            Tier::Bell => (Color::Green, Modifier::empty()),
            Tier::Jalapeno => (Color::LightGreen, Modifier::empty()),
            Tier::Serrano => (Color::Yellow, Modifier::empty()),
            Tier::Habanero => (Color::LightYellow, Modifier::BOLD),
            Tier::Ghost => (Color::LightRed, Modifier::BOLD),
            Tier::Reaper => (Color::Magenta, Modifier::BOLD),
        };
        let (ansi, mono) = match tone {
            // The terminal's own colours stand for the canvas's text and background.
            Tone::Text | Tone::Background => return Style::default(),
            Tone::Dim | Tone::Faint | Tone::Panel | Tone::Burnt => (Color::DarkGray, Modifier::DIM),
            Tone::Wrong | Tone::Behind => (Color::LightRed, Modifier::UNDERLINED),
            Tone::Extra => (Color::Red, Modifier::UNDERLINED | Modifier::DIM),
            Tone::Accent | Tone::Caret => (Color::Yellow, Modifier::BOLD),
            Tone::Ghost | Tone::Even => (Color::LightBlue, Modifier::ITALIC),
            Tone::Ahead => heat(Tier::Bell),
            Tone::Gold => heat(Tier::Reaper),
            Tone::Silver => heat(Tier::Habanero),
            Tone::Bronze => heat(Tier::Serrano),
            Tone::Heat(t) => heat(t),
        };
        let rgb = tone.rgb();
        match self.depth {
            Depth::Mono => Style::default().add_modifier(mono),
            Depth::Ansi16 => Style::default().fg(ansi),
            Depth::Indexed256 => Style::default().fg(Color::Indexed(xterm256(rgb))),
            Depth::TrueColor => {
                Style::default().fg(Color::Rgb((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8))
            }
        }
    }

    fn span<'a>(&self, text: impl Into<std::borrow::Cow<'a, str>>, tone: Tone) -> Span<'a> {
        Span::styled(text, self.style(tone))
    }
}

/// The nearest colour of xterm's 6×6×6 cube.
fn xterm256(rgb: u32) -> u8 {
    const LEVELS: [u32; 6] = [0, 95, 135, 175, 215, 255];
    let nearest = |v: u32| -> u8 {
        let (i, _) = LEVELS
            .iter()
            .enumerate()
            .min_by_key(|&(_, &l)| l.abs_diff(v))
            .unwrap_or((0, &0));
        i as u8
    };
    let (r, g, b) = (rgb >> 16 & 0xff, rgb >> 8 & 0xff, rgb & 0xff);
    16 + 36 * nearest(r) + 6 * nearest(g) + nearest(b)
}

/// Draws `model` on the whole frame. `scroll` keeps the round's lines between frames.
pub fn draw(frame: &mut Frame, model: &Model, scroll: &mut Scroll, p: &Palette) {
    let area = frame.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        return draw_too_small(frame, model, p);
    }
    let footer = format!("{} · {}", model.hints, model.quits());
    let fits = |t: &str| unicode_width::UnicodeWidthStr::width(t) <= usize::from(area.width);
    // The hints take as many lines as they wrap to where the terminal is narrow, so none
    // is cut off (the menu's five at 40 columns); never more than a third of the screen.
    let lines = layout::wrap(&footer, fits);
    let hint_rows = (lines.len() as u16).clamp(1, (area.height / 3).max(1));
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
        Body::Menu(menu) => draw_menu(frame, body, menu, p),
        Body::Play(play) => draw_play(frame, body, play, scroll, p),
        Body::Results(r) => draw_results(frame, body, r, p),
        Body::History(h) => draw_history(frame, body, h, p),
        Body::Link(link) => draw_link(frame, body, link, p),
        Body::Boards(b) => draw_boards(frame, body, b, p),
        Body::Keys(k) => draw_keys(frame, body, k, p),
        Body::Room(r) => draw_room(frame, body, r, p),
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

/// `typepper`, its pepper in the accent.
fn title<'a>(p: &Palette) -> Line<'a> {
    Line::from(
        WORDMARK
            .map(|(text, tone)| p.span(text, tone).add_modifier(Modifier::BOLD))
            .to_vec(),
    )
}

fn draw_menu(frame: &mut Frame, area: Rect, menu: &Menu, p: &Palette) {
    // Where the screen is short (40×16, with its hints on five rows), what else says it
    // goes first: the tagline and the blank rows, then `g races your best here` (the
    // hints offer it), then the wordmark; the modes and the lines under them stay whole.
    let rows_of = |line: Option<&str>| line.map_or(0, |l| rows(l, area.width));
    let (last, race) = (
        rows_of(menu.last_round.as_deref()),
        rows_of(menu.race.as_deref()),
    );
    let needed = menu.items.len() as u16 + last + rows_of(Some(&menu.player));
    let roomy = area.height >= 1 + 3 + needed + race;
    let show_race = area.height >= 1 + needed + race;
    let show_title = area.height > needed;
    let mut lines = vec![];
    if show_title {
        lines.push(title(p));
    }
    if roomy {
        lines.push(Line::from(p.span(menu.tagline, Tone::Dim)));
        lines.push(Line::default());
    }
    for (i, item) in menu.items.iter().enumerate() {
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
    if let Some(last) = &menu.last_round {
        lines.push(Line::from(p.span(last.as_str(), Tone::Dim)));
    }
    if let Some(line) = menu.race.as_ref().filter(|_| show_race) {
        lines.push(Line::from(p.span(line.as_str(), Tone::Ghost)));
    }
    lines.push(Line::from(p.span(menu.player.as_str(), Tone::Dim)));
    // Rows as wrapped: the lines under the modes may take two each.
    let tall = lines.len() as u16 + needed.saturating_sub(menu.items.len() as u16 + 2);
    let top = area.height.saturating_sub(tall) / 3;
    frame.render_widget(
        // Not trimmed: the unpicked items' two spaces keep them under the picked one.
        Paragraph::new(lines)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: false }),
        below(area, top),
    );
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

fn draw_play(frame: &mut Frame, area: Rect, play: &Play, scroll: &mut Scroll, p: &Palette) {
    let col = column(area, TEXT_COLS);
    let top = area.height.saturating_sub(10) / 3;
    let status = below(col, top);
    let mut head = vec![
        p.span(play.clock.big(), play.clock_tone())
            .add_modifier(Modifier::BOLD),
        p.span(format!("  {}", play.mode.title()), Tone::Dim),
    ];
    if let Some(live) = &play.live {
        head.push(p.span(format!("   {live}"), Tone::Text));
    }
    if let Some(flame) = play.flame_line() {
        head.push(p.span(format!("   {flame}"), Tone::Wrong));
    }
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
                if word.missed(gi) || word.done_wrong() {
                    style = style.add_modifier(Modifier::UNDERLINED);
                }
                // Without colour a wrong word's underline runs under all of it: its wrong
                // and extra letters stand out reversed.
                if p.depth == Depth::Mono && matches!(tone, Tone::Wrong | Tone::Extra) {
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

fn draw_results(frame: &mut Frame, area: Rect, r: &Results, p: &Palette) {
    let col = column(area, 100);
    let mut head = vec![Line::from(vec![
        p.span(r.headline.as_str(), Tone::Accent)
            .add_modifier(Modifier::BOLD),
        p.span(format!("  {}", r.title), Tone::Dim),
    ])];
    if let Some(share) = r.share_line() {
        head.push(Line::from(p.span(share, Tone::Caret)));
    }
    let (per_row, cell) = grid(&r.stats, usize::from(col.width));
    let mut labels = vec![];
    let mut values = vec![];
    let mut grid = vec![];
    for (i, s) in r.stats.iter().enumerate() {
        labels.push(p.span(format!("{:<cell$}", s.label), Tone::Dim));
        let value = &s.value;
        values.push(
            p.span(format!("{value:<cell$}"), s.tone)
                .add_modifier(Modifier::BOLD),
        );
        if (i + 1) % per_row == 0 || i + 1 == r.stats.len() {
            grid.push(Line::from(std::mem::take(&mut labels)));
            grid.push(Line::from(std::mem::take(&mut values)));
        }
    }
    let race = r.race.as_ref().map(|race| versus(race, col.width, p));
    let rest = race.as_ref().map_or(0, Vec::len) + head.len() + 1;
    // Where the table doesn't fit the height (40×16 lost peak heat's value and the
    // time), each stat is `label value` on one line, as many to a line as fit.
    if rest + grid.len() > usize::from(col.height) {
        grid = flow(&r.stats, usize::from(col.width), p);
    }
    head.push(Line::default());
    head.extend(grid);
    head.extend(race.into_iter().flatten());
    let used = head.len() as u16;
    frame.render_widget(Paragraph::new(head), col);
    let chart_area = below(col, used + 1);
    if chart_area.height >= 5 {
        draw_chart(frame, chart_area, &r.chart, p);
    }
}

/// How many stats a row of `width` columns takes, and each one's width: as many as fit
/// with two columns between them, spread evenly over the fewest rows.
/// The stats as `label value`, two spaces apart, as many to a line as `width` holds.
fn flow<'a>(stats: &'a [Stat], width: usize, p: &Palette) -> Vec<Line<'a>> {
    let mut lines = vec![];
    let (mut line, mut used) = (vec![], 0);
    for s in stats {
        let wide = s.label.chars().count() + 1 + s.value.chars().count();
        if used > 0 && used + 2 + wide > width {
            lines.push(Line::from(std::mem::take(&mut line)));
            used = 0;
        }
        if used > 0 {
            line.push(Span::raw("  "));
            used += 2;
        }
        line.push(p.span(format!("{} ", s.label), Tone::Dim));
        line.push(
            p.span(s.value.as_str(), s.tone)
                .add_modifier(Modifier::BOLD),
        );
        used += wide;
    }
    lines.push(Line::from(line));
    lines
}

fn grid(stats: &[Stat], width: usize) -> (usize, usize) {
    let widest = stats
        .iter()
        .map(|s| s.label.chars().count().max(s.value.chars().count()) + 2)
        .max()
        .unwrap_or(1);
    let fits = (width / widest).max(1);
    let rows = stats.len().div_ceil(fits).max(1);
    let per_row = stats.len().div_ceil(rows).max(1);
    (per_row, width / per_row)
}

/// A race's results: who won, then each number beside the ghost's, as many to a line as
/// `width` takes.
fn versus<'a>(race: &'a Race, width: u16, p: &Palette) -> Vec<Line<'a>> {
    let mut lines = vec![Line::from(
        p.span(race.verdict.as_str(), race.tone())
            .add_modifier(Modifier::BOLD),
    )];
    let mut line: Vec<Span> = vec![];
    let mut used = 0;
    for v in &race.rows {
        let parts = [
            (format!("{} ", v.label), Tone::Dim),
            (format!("{} ", v.you), Tone::Text),
            (format!("{} ", v.against()), Tone::Ghost),
            (format!("({})   ", v.diff), v.tone),
        ];
        let len: usize = parts.iter().map(|(t, _)| t.chars().count()).sum();
        if used > 0 && used + len > usize::from(width) {
            lines.push(Line::from(std::mem::take(&mut line)));
            used = 0;
        }
        used += len;
        line.extend(parts.into_iter().map(|(text, ink)| p.span(text, ink)));
    }
    lines.push(Line::from(line));
    lines
}

/// The model's chart in braille: its lines, its error dots, a bar where the lead changed
/// hands, its legend on the line above.
fn draw_chart(frame: &mut Frame, area: Rect, chart: &Chart, p: &Palette) {
    let top = f64::from(chart.top);
    let point = |i: usize, x100: u32| (i as f64 + 1.0, f64::from(x100) / 100.0);
    let series: Vec<(Tone, Vec<(f64, f64)>)> = chart
        .lines()
        .map(|l| {
            (
                l.tone,
                l.points().enumerate().map(|(i, v)| point(i, v)).collect(),
            )
        })
        .collect();
    let errors: Vec<(f64, f64)> = chart.errors().map(|(i, v)| point(i, v)).collect();
    let changes: Vec<[(f64, f64); 2]> = chart
        .changes
        .iter()
        .map(|&s| [(f64::from(s), 0.0), (f64::from(s), top)])
        .collect();
    let line = |data, tone| {
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(p.style(tone))
            .data(data)
    };
    let mut datasets: Vec<Dataset> = changes.iter().map(|bar| line(bar, Tone::Caret)).collect();
    datasets.extend(series.iter().map(|(tone, data)| line(data, *tone)));
    datasets.push(
        Dataset::default()
            .marker(Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(p.style(Tone::Wrong))
            .data(&errors),
    );
    // The legend, on the line above the plot, right to left as the model lists it.
    let mut legend = vec![];
    for (i, (text, tone)) in chart.legend().enumerate() {
        let gap = if i == 0 { "" } else { "  " };
        legend.insert(0, p.span(format!("{text}{gap}"), tone));
    }
    let legend = Line::from(legend).alignment(Alignment::Right);
    frame.render_widget(Paragraph::new(legend), Rect { height: 1, ..area });
    let area = below(area, 1);
    let axis = |label: String| Span::styled(label, p.style(Tone::Dim));
    let seconds = chart.seconds.max(1);
    let plot = ratatui::widgets::Chart::new(datasets)
        .x_axis(
            Axis::default()
                .bounds([1.0, (seconds as f64).max(2.0)])
                .labels(vec![
                    axis(Chart::second(0)),
                    axis(Chart::second(seconds - 1)),
                ]),
        )
        .y_axis(
            Axis::default()
                .bounds([0.0, top])
                .labels(vec![axis("0".into()), axis(chart.top.to_string())]),
        );
    frame.render_widget(plot, area);
}

/// The keys screen: the keyboard shaded by errors or time, the worst keys and pairs, the
/// trend and the drill.
fn draw_keys(frame: &mut Frame, area: Rect, k: &Keys, p: &Palette) {
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

fn draw_history(frame: &mut Frame, area: Rect, h: &History, p: &Palette) {
    let col = column(area, 100);
    let head = header(
        h.title,
        Line::from(p.span(h.caption.as_str(), Tone::Dim)),
        3,
    );
    frame.render_widget(Paragraph::new(head), col);
    let rows_area = below(col, 3);
    if let Some(empty) = h.empty {
        frame.render_widget(
            Paragraph::new(Line::from(p.span(empty, Tone::Dim))).alignment(Alignment::Center),
            below(rows_area, rows_area.height / 3),
        );
        return;
    }
    let w = usize::from(col.width);
    // Under 60 columns the date goes without its year and the accuracy and link go, so
    // that the score stays whole (at 40 a HOT PURSUIT row lost it); the title gives way
    // last, cut with an ellipsis.
    let narrow = w < 60;
    let (date_w, tail_w) = if narrow { (11, 0) } else { (16, 17) };
    let title_w = w.saturating_sub(2 + date_w + 1 + 12 + tail_w).max(4);
    let rows = h
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mark = if i == h.selected { "▸ " } else { "  " };
            let date = r.date.get(16 - date_w..).unwrap_or(&r.date);
            let mut spans = vec![
                p.span(format!("{mark}{date:<date_w$} "), Tone::Dim),
                p.span(format!("{:<title_w$} ", cut(&r.title, title_w)), Tone::Text),
                p.span(format!("{:>11} ", r.headline), h.tone(i))
                    .add_modifier(Modifier::BOLD),
            ];
            if !narrow {
                spans.push(p.span(format!("{:>8} ", r.accuracy), Tone::Dim));
                spans.push(p.span(format!("{:>7}", r.shared()), Tone::Dim));
            }
            Line::from(spans)
        })
        .collect();
    frame.render_widget(
        Paragraph::new(list(rows, h.selected, rows_area.height)),
        rows_area,
    );
}

/// `text` in at most `width` columns: cut, with `…` last, where it is longer.
fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// A room: its name and link, the name being picked, the countdown, and everyone in it
/// (the finishers, at the end), a row each.
fn draw_room(frame: &mut Frame, area: Rect, r: &Room, p: &Palette) {
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

fn draw_link(frame: &mut Frame, area: Rect, link: &Link, p: &Palette) {
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

fn draw_boards(frame: &mut Frame, area: Rect, b: &Boards, p: &Palette) {
    let col = column(area, 100);
    let right = Line::from(vec![
        p.span(format!("{} ", b.picker), Tone::Accent)
            .add_modifier(Modifier::BOLD),
        p.span(b.caption, Tone::Dim),
    ]);
    frame.render_widget(Paragraph::new(header(b.title, right, 3)), col);
    let rows_area = below(col, 3);
    if let Some((say, tone)) = &b.say {
        frame.render_widget(
            Paragraph::new(Line::from(p.span(say.as_str(), *tone))).alignment(Alignment::Center),
            below(rows_area, rows_area.height / 3),
        );
    }
    let lines = b
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mark = if i == b.selected { "▸" } else { " " };
            Line::from(vec![
                p.span(format!("{mark}{:>4}  ", r.rank), r.medal),
                p.span(format!("{:<22}", r.name), Tone::Text),
                p.span(format!("{:>12}", r.score), b.tone(i))
                    .add_modifier(Modifier::BOLD),
                p.span(format!("{:>10}", r.accuracy), Tone::Dim),
            ])
        })
        .collect();
    frame.render_widget(
        Paragraph::new(list(lines, b.selected, rows_area.height)),
        rows_area,
    );
}

#[cfg(test)]
mod tests {
    //! Every screen, drawn at 80×24 and 120×40, against golden text in
    //! `tests/golden/terminal/` (`TYPEPPER_BLESS=1` rewrites them: review the diff).

    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use typepper_api::BoardRow;
    use typepper_engine::Mode;
    use typepper_engine::synth::{Typist, synth};
    use typepper_game::app::{App, Key, Now};
    use typepper_game::request::Answer;
    use typepper_game::storage::{Entry, Stored};
    use typepper_game::zone::Fixed;

    // The smallest the game says it fits (`MIN_SIZE`), a classic terminal, a big one.
    const SIZES: [(u16, u16); 3] = [(40, 16), (80, 24), (120, 40)];

    fn at(mono: f64) -> Now {
        Now {
            mono,
            unix_ms: 1_796_154_720_000 + mono as u64,
        }
    }

    /// A game with three rounds in its history, as the tests' fixed seed makes them:
    /// HOT PURSUIT's title is the longest, and the ZEN was a room's race.
    fn game() -> App {
        let pursuit = Mode::pursuit(20).unwrap_or(Mode::Zen);
        let entries: Vec<Entry> = [Mode::BLITZ_15, Mode::Zen, pursuit]
            .into_iter()
            .enumerate()
            .map(|(i, mode)| {
                let replay = synth(mode, 40 + i as u64, &Typist::default());
                Entry {
                    unix_ms: 1_796_154_720_000 + i as u64 * 3_600_000,
                    score: replay.play().unwrap().1,
                    replay,
                    share: (i == 0).then(|| "https://r.typepper.com/7Xf9qyuC".into()),
                    room: i == 1,
                }
            })
            .collect();
        let stored = Stored {
            history: typepper_game::storage::format_history(&entries),
            ..Stored::default()
        };
        App::new(7, &stored, None).0
    }

    /// Types `n` words of the round on screen, right but for one wrong key, 120 ms a key.
    fn type_words(app: &mut App, n: usize, t: &mut f64) {
        for w in 0..n {
            let model = app.model(*t, &Fixed(0));
            let Body::Play(play) = &model.body else {
                panic!("not playing")
            };
            let target = play.word(play.caret.0).unwrap().target();
            for (i, c) in target.chars().chain([' ']).enumerate() {
                let c = if w == 1 && i == 1 { 'q' } else { c };
                app.key(Key::Char(c), at(*t));
                *t += 120.0;
            }
        }
    }

    /// The screens, each a model.
    fn screens() -> Vec<(&'static str, Model)> {
        let zone = Fixed(0);
        let mut out = vec![];
        let mut app = game();
        out.push(("menu", app.model(0.0, &zone)));

        app.key(Key::Char('1'), at(0.0));
        out.push(("blitz-start", app.model(0.0, &zone)));
        let mut t = 1000.0;
        type_words(&mut app, 6, &mut t);
        app.key(Key::Char('x'), at(t));
        out.push(("blitz-typing", app.model(t, &zone)));
        app.tick(at(17_000.0));
        out.push(("results", app.model(17_000.0, &zone)));

        app.key(Key::Escape, at(17_000.0));
        app.key(Key::Char('p'), at(17_000.0));
        let mut t = 17_000.0;
        type_words(&mut app, 4, &mut t);
        out.push(("pursuit", app.model(t + 2_500.0, &zone)));

        app.key(Key::Escape, at(t));
        app.key(Key::Char('h'), at(t));
        out.push(("history", app.model(t, &zone)));
        app.key(Key::Enter, at(t));
        out.push(("replay", app.model(t + 3_000.0, &zone)));

        // Esc goes back to the history, and again to the menu.
        app.key(Key::Escape, at(t));
        app.key(Key::Escape, at(t));
        app.key(Key::Char('l'), at(t));
        for c in "ada".chars() {
            app.key(Key::Char(c), at(t));
        }
        out.push(("link", app.model(t, &zone)));

        app.key(Key::Escape, at(t));
        app.key(Key::Char('b'), at(t));
        out.push(("boards-loading", app.model(t, &zone)));
        let rows = (1..=4)
            .map(|rank| BoardRow {
                rank,
                name: ["ada", "grace", "linus", "ken"][rank as usize - 1].into(),
                score: 130 - rank * 9,
                wpm: f64::from(130 - rank * 9),
                accuracy: 99.5 - f64::from(rank),
                run: format!("run0000{rank}"),
                time: "2026-12-01T19:52:00Z".into(),
            })
            .collect();
        let board = Answer::Board {
            mode: "time:15".into(),
            rows: Ok(rows),
        };
        app.answer(board, at(t));
        app.key(Key::Down, at(t));
        out.push(("boards", app.model(t, &zone)));

        // Your best BLITZ 15s, raced: ahead of it at first, then behind.
        app.key(Key::Escape, at(t));
        app.key(Key::Char('g'), at(t));
        let start = t;
        type_words(&mut app, 5, &mut t);
        app.tick(at(t));
        out.push(("race", app.model(t, &zone)));
        app.tick(at(start + 16_000.0));
        out.push(("race-results", app.model(start + 16_000.0, &zone)));

        app.key(Key::Escape, at(t));
        app.key(Key::Char('k'), at(t));
        out.push(("keys", app.model(t, &zone)));

        // A room's lobby, race and results, as the tour plays them.
        let stops = typepper_game::tour::stops();
        for (file, stop) in [
            ("room-lobby", "room, lobby"),
            ("room-race", "playing, a room's race"),
            ("room-results", "room, results"),
        ] {
            let stop = stops.iter().find(|s| s.name == stop).expect(stop);
            out.push((file, stop.model.clone()));
        }
        out
    }

    fn text_of(terminal: &Terminal<TestBackend>) -> String {
        let buffer = terminal.backend().buffer();
        let mut out = String::new();
        for y in 0..buffer.area.height {
            let mut line = String::new();
            let mut x = 0;
            while x < buffer.area.width {
                let symbol = buffer[(x, y)].symbol();
                line.push_str(symbol);
                // A wide character's second cell is part of it.
                x += unicode_width::UnicodeWidthStr::width(symbol).max(1) as u16;
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    #[test]
    fn every_screen_at_three_sizes_matches_its_golden_text() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/terminal");
        let bless = std::env::var_os("TYPEPPER_BLESS").is_some();
        let palette = Palette::new(Depth::TrueColor);
        let mut wrong = vec![];
        for (name, model) in screens() {
            for (w, h) in SIZES {
                let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
                terminal
                    .draw(|f| draw(f, &model, &mut Scroll::default(), &palette))
                    .unwrap();
                let text = text_of(&terminal);
                let path = dir.join(format!("{name}-{w}x{h}.txt"));
                if bless {
                    std::fs::create_dir_all(&dir).unwrap();
                    std::fs::write(&path, &text).unwrap();
                } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                    wrong.push(format!("{}:\n{text}", path.display()));
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "drawn otherwise than golden (TYPEPPER_BLESS=1 to accept):\n{}",
            wrong.join("\n")
        );
    }

    /// Every screen is drawn at every size, from one cell up, without a panic; below
    /// [`MIN_SIZE`] each says the window is too small, and from it up none does.
    #[test]
    fn a_window_too_small_says_so_and_no_size_panics() {
        let palette = Palette::new(Depth::TrueColor);
        let (min_w, min_h) = MIN_SIZE;
        let small = [(1, 1), (1, 60), (200, 1), (min_w - 1, 40), (120, min_h - 1)];
        let whole = (min_w..min_w + 12).flat_map(|w| (min_h..min_h + 10).map(move |h| (w, h)));
        for (name, model) in screens() {
            for (w, h) in small.into_iter().chain(whole.clone()) {
                let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
                terminal
                    .draw(|f| draw(f, &model, &mut Scroll::default(), &palette))
                    .unwrap();
                let text = text_of(&terminal);
                let says = text.split_whitespace().collect::<Vec<_>>().join(" ");
                let too_small = w < min_w || h < min_h;
                assert_eq!(
                    says.contains(&format!("typepper needs {min_w}×{min_h}")),
                    too_small && w >= 20,
                    "{name} at {w}×{h}:\n{text}"
                );
                if too_small && w >= 20 {
                    assert!(says.contains(&format!("this window is {w}×{h}")), "{text}");
                    assert!(says.contains(model.quits()), "{text}");
                }
            }
        }
    }

    #[test]
    fn every_word_of_every_screen_of_the_tour_is_drawn() {
        let palette = Palette::new(Depth::TrueColor);
        let mut missing = vec![];
        for stop in typepper_game::tour::stops() {
            let mut terminal = Terminal::new(TestBackend::new(200, 60)).unwrap();
            terminal
                .draw(|f| draw(f, &stop.model, &mut Scroll::default(), &palette))
                .unwrap();
            let text = text_of(&terminal);
            for word in stop.missing(&text) {
                missing.push(format!("{}: {word:?} not in\n{text}", stop.name));
            }
        }
        assert!(missing.is_empty(), "{}", missing.join("\n"));
    }

    #[test]
    fn the_caret_is_the_terminal_s_cursor_on_the_current_glyph() {
        let mut app = game();
        app.key(Key::Char('1'), at(0.0));
        let mut t = 0.0;
        type_words(&mut app, 1, &mut t);
        app.key(Key::Char('x'), at(t));
        let model = app.model(t, &Fixed(0));
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        terminal
            .draw(|f| {
                draw(
                    f,
                    &model,
                    &mut Scroll::default(),
                    &Palette::new(Depth::Ansi16),
                )
            })
            .unwrap();
        let pos = terminal.get_cursor_position().unwrap();
        let Body::Play(play) = &model.body else {
            panic!()
        };
        let first = play.word(0).unwrap().glyphs.len() as u16;
        let text = text_of(&terminal);
        let row: Vec<&str> = text.lines().collect();
        let line = row[pos.y as usize];
        // One word and a space typed, then one key of the second.
        assert_eq!(pos.x, 4 + first + 1 + 1, "{line}");
    }

    #[test]
    fn wide_characters_keep_the_caret_on_its_cell_and_the_line_whole() {
        let mut app = game();
        app.key(Key::Char('z'), at(0.0));
        let Body::Play(play) = app.model(0.0, &Fixed(0)).body else {
            panic!()
        };
        let first = play.word(0).unwrap().target();
        // The word, then a paste of wide extras and a combining mark.
        for c in first.chars().chain("中文中文\u{301}".chars()) {
            app.key(Key::Char(c), at(0.0));
        }
        let model = app.model(0.0, &Fixed(0));
        let Body::Play(play) = &model.body else {
            panic!()
        };
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        let palette = Palette::new(Depth::Ansi16);
        terminal
            .draw(|f| draw(f, &model, &mut Scroll::default(), &palette))
            .unwrap();
        let pos = terminal.get_cursor_position().unwrap();
        let text = text_of(&terminal);
        let line = text.lines().nth(usize::from(pos.y)).unwrap();
        let n = first.chars().count() as u16;
        // 4 columns of margin, the word, four wide extras, the mark on its circle.
        assert_eq!(pos.x, 4 + n + 8 + 1, "{line}");
        assert!(
            line.contains(&format!("{first}中文中文◌\u{301} ")),
            "{line}"
        );
        // Every word on the line whole, in order.
        let shown: Vec<&str> = line.split_whitespace().skip(1).collect();
        let want: Vec<String> = (1..=shown.len())
            .map(|i| play.word(i).unwrap().target())
            .collect();
        assert_eq!(shown, want, "{line}");
    }

    #[test]
    fn colours_follow_the_terminal_and_no_color() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        assert_eq!(
            Depth::from_env(env(&[("NO_COLOR", "1"), ("COLORTERM", "truecolor")])),
            Depth::Mono
        );
        assert_eq!(
            Depth::from_env(env(&[("NO_COLOR", ""), ("COLORTERM", "truecolor")])),
            Depth::TrueColor
        );
        assert_eq!(
            Depth::from_env(env(&[("TERM", "tmux-256color")])),
            Depth::Indexed256
        );
        assert_eq!(Depth::from_env(env(&[("TERM", "xterm")])), Depth::Ansi16);
        assert_eq!(Depth::from_env(env(&[("TERM", "dumb")])), Depth::Mono);
        let wrong = |d| Palette::new(d).style(Tone::Wrong);
        assert_eq!(
            wrong(Depth::TrueColor).fg,
            Some(Color::Rgb(0xff, 0x4d, 0x5e))
        );
        assert_eq!(
            wrong(Depth::Indexed256).fg,
            Some(Color::Indexed(xterm256(0xff4d5e)))
        );
        assert_eq!(wrong(Depth::Ansi16).fg, Some(Color::LightRed));
        assert_eq!(wrong(Depth::Mono).fg, None);
        assert!(
            wrong(Depth::Mono)
                .add_modifier
                .contains(Modifier::UNDERLINED)
        );
        assert_eq!(xterm256(0xff0000), 196);
        assert_eq!(xterm256(0x000000), 16);
    }

    #[test]
    fn under_no_color_the_wrong_letter_of_a_finished_word_stands_out() {
        let mut app = game();
        app.key(Key::Char('1'), at(0.0));
        let mut t = 0.0;
        // The second word (`screen`) has its second letter typed wrong, and is finished:
        // the text shows the letter it should have been.
        type_words(&mut app, 2, &mut t);
        let model = app.model(t, &Fixed(0));
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        let palette = Palette::new(Depth::Mono);
        terminal
            .draw(|f| draw(f, &model, &mut Scroll::default(), &palette))
            .unwrap();
        let buffer = terminal.backend().buffer();
        let row = (0..buffer.area.height)
            .find(|&y| {
                (0..80).any(|x| {
                    let c = &buffer[(x, y)];
                    c.style().add_modifier.contains(Modifier::UNDERLINED)
                })
            })
            .unwrap_or_else(|| panic!("the wrong word on screen:\n{}", text_of(&terminal)));
        let cells: Vec<(String, bool, bool)> = (0..80)
            .map(|x| &buffer[(x, row)])
            .map(|c| {
                let m = c.style().add_modifier;
                (
                    c.symbol().to_owned(),
                    m.contains(Modifier::UNDERLINED),
                    m.contains(Modifier::REVERSED),
                )
            })
            .collect();
        let reversed: Vec<&str> = cells.iter().filter(|c| c.2).map(|c| c.0.as_str()).collect();
        assert_eq!(reversed, ["c"], "only the wrong letter: {cells:?}");
        let underlined: String = cells.iter().filter(|c| c.1).map(|c| c.0.as_str()).collect();
        assert_eq!(underlined, "screen", "the word is underlined whole");
    }
}
