//! The results: the headline, the stats, a race's numbers, the chart.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Stylize as _};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Dataset, GraphType, Paragraph};
use typepper_game::layout;
use typepper_game::model::{Chart, Race, Results, Stat, Tone};

use super::{Palette, below, column};

pub(super) fn draw(frame: &mut Frame, area: Rect, r: &Results, p: &Palette) {
    let col = column(area, 100);
    let headline = p
        .span(r.headline.as_str(), Tone::Accent)
        .add_modifier(Modifier::BOLD);
    let fits = |t: &str| unicode_width::UnicodeWidthStr::width(t) <= usize::from(col.width);
    let mut head = if fits(&format!("{}  {}", r.headline, r.title)) {
        vec![Line::from(vec![
            headline,
            p.span(format!("  {}", r.title), Tone::Dim),
        ])]
    } else {
        // A title with its text's settings (`WORDS 25 · punctuation · français`) is
        // longer than a narrow window: under the headline, broken between its parts.
        let mut head = vec![Line::from(headline)];
        let title = layout::wrap(&r.title, fits);
        head.extend(title.into_iter().map(|l| Line::from(p.span(l, Tone::Dim))));
        head
    };
    if let Some(source) = &r.source {
        // A quote's author and work, broken as a long title is.
        let lines = layout::wrap(source, fits);
        head.extend(lines.into_iter().map(|l| Line::from(p.span(l, Tone::Text))));
    }
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

/// How many stats a row of `width` columns takes, and each one's width: as many as fit
/// with two columns between them, spread evenly over the fewest rows.
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
pub(super) fn draw_chart(frame: &mut Frame, area: Rect, chart: &Chart, p: &Palette) {
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
                    axis(chart.x_label(0)),
                    axis(chart.x_label(seconds - 1)),
                ]),
        )
        .y_axis(
            Axis::default()
                .bounds([0.0, top])
                .labels(vec![axis("0".into()), axis(chart.top.to_string())]),
        );
    frame.render_widget(plot, area);
}
