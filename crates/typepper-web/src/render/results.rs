//! The results: the headline, the stats, a race's numbers, the chart.

use typepper_game::model::{Chart, Race, Results, Tone};

use super::{LINE, Renderer};

/// The least height of a chart worth drawing.
const MIN_CHART: f64 = 120.0;

/// The stats' table, as [`Renderer::stat_table`] lays it out.
struct Table {
    rows: usize,
    /// Stats a row.
    per: usize,
    /// Each column's width.
    cols: Vec<f64>,
    /// What is left of the width, a column's share.
    spare: f64,
    value_size: f64,
    row_h: f64,
}

/// How far below its top a race's numbers' last baseline is ([`Renderer::versus`]).
fn versus_height(race: &Race, columns: bool) -> f64 {
    match columns {
        true => 56.0,
        false => 36.0 + race.rows.len().saturating_sub(1) as f64 * 26.0,
    }
}

impl Renderer {
    /// The results: the headline with the share link and the notice beside it (or under
    /// it where they don't fit), a quote's source under the title, the stats flowed into
    /// rows, a race's numbers, the chart in what is left above the foot. Every place
    /// comes from measured text; where all of it doesn't fit over a chart (a phone's
    /// results with a long note), it moves up the screen, and the chart is left out only
    /// where even that leaves it no room.
    pub(super) fn draw_results(&mut self, r: &Results, notice: Option<(&str, Tone)>) {
        let (_, h, _) = self.size;
        let (x0, width) = self.column();
        let size = self.fit(&r.headline, width, 64.0, 800);
        let head_w = self.text_width(&r.headline);
        self.font(14.0, 500);
        let share = r.share_line();
        let side = [share.as_deref().map(|s| (s, Tone::Caret)), notice];
        let side_w = self.widest(side.iter().flatten().map(|&(s, _)| s));
        let beside = head_w + 24.0 + side_w <= width;
        let table = self.stat_table(r, width);
        let columns = r.race.as_ref().map(|race| self.race_columns(race, width));

        // How far the chart's top is below the headline's baseline.
        let wrapped = |s: &str| self.wrap(s, width).len() as f64 * LINE;
        let mut above = 36.0;
        if let Some(source) = &r.source {
            self.font(14.0, 400);
            above += wrapped(source);
        }
        if !beside {
            self.font(14.0, 500);
            above += side.iter().flatten().map(|&(s, _)| wrapped(s)).sum::<f64>();
        }
        above += 44.0 + table.rows as f64 * table.row_h + 10.0;
        if let (Some(race), Some(columns)) = (&r.race, columns) {
            above += versus_height(race, columns) + 30.0;
        }
        // The headline's baseline: a sixth down the screen, or higher where the chart
        // (its legend above it, its seconds under it) would have less than its least;
        // never so high that the headline's digits leave the screen.
        let natural = (h * 0.16).max(90.0) + 20.0;
        let base = natural
            .min(self.bottom - 30.0 - MIN_CHART - above)
            .max(size * 0.8 + 8.0);

        self.fit(&r.headline, width, 64.0, 800);
        self.text(&r.headline, x0, base, Tone::Accent, "left");
        self.font(16.0, 600);
        self.text(&r.title, x0, base + 30.0, Tone::Dim, "left");
        let mut y = base + 30.0 + 6.0;
        if let Some(source) = &r.source {
            // A quote's author and work, under its title, wrapped where it is long.
            self.font(14.0, 400);
            y = self.lines(source, x0, y + LINE, Tone::Text, "left") - LINE;
        }
        self.font(14.0, 500);
        for (n, (line, tone)) in side.into_iter().flatten().enumerate() {
            if beside {
                let at = base - size * 0.45 + n as f64 * 24.0;
                self.text(line, x0 + width, at, tone, "right");
            } else {
                y = self.lines(line, x0, y + LINE, tone, "left") - LINE;
            }
        }

        // The stats.
        y += 44.0;
        for row in r.stats.chunks(table.per) {
            let mut x = x0;
            for (stat, cell) in row.iter().zip(&table.cols) {
                self.font(12.0, 600);
                self.text(stat.label, x, y, Tone::Dim, "left");
                self.font(table.value_size, 700);
                self.text(&stat.value, x, y + 26.0, stat.tone, "left");
                x += cell + table.spare;
            }
            y += table.row_h;
        }
        let mut chart_top = y + 10.0;
        if let (Some(race), Some(columns)) = (&r.race, columns) {
            chart_top = self.versus(race, columns, x0, chart_top, width) + 30.0;
        }
        let chart_h = (self.bottom - chart_top - 30.0).min(220.0);
        if chart_h >= MIN_CHART * 0.4 {
            self.chart(&r.chart, x0, chart_top, width, chart_h);
        }
    }

    /// The stats as a table, its rows as even as their number lets them be (HOT
    /// PURSUIT's last two stats sat spread across a row of their own), each column as
    /// wide as its widest cell: the fewest rows whose columns fit in `width`.
    fn stat_table(&self, r: &Results, width: f64) -> Table {
        let narrow = width < 520.0;
        let (value_size, row_h) = if narrow { (18.0, 52.0) } else { (20.0, 62.0) };
        let wide: Vec<f64> = r
            .stats
            .iter()
            .map(|s| {
                self.font(12.0, 600);
                let label = self.text_width(s.label);
                self.font(value_size, 700);
                label.max(self.text_width(&s.value)) + 24.0
            })
            .collect();
        let n = r.stats.len();
        let (mut rows, mut per, mut cols) = (1, n, wide.clone());
        while per > 1 && cols.iter().sum::<f64>() > width {
            rows += 1;
            per = n.div_ceil(rows);
            cols = vec![0.0; per];
            for (i, w) in wide.iter().enumerate() {
                cols[i % per] = cols[i % per].max(*w);
            }
        }
        let spare = (width - cols.iter().sum::<f64>()).max(0.0) / per as f64;
        Table {
            rows: n.div_ceil(per.max(1)),
            per: per.max(1),
            cols,
            spare,
            value_size,
            row_h,
        }
    }

    /// Whether a race's numbers fit in columns across `width`, or take a line each.
    fn race_columns(&self, race: &Race, width: f64) -> bool {
        let cell = width / race.rows.len().max(1) as f64;
        race.rows.iter().all(|v| {
            self.font(18.0, 700);
            let you = self.text_width(&v.you);
            self.font(18.0, 500);
            let them = self.text_width(&v.against());
            self.font(14.0, 600);
            you + them + self.text_width(&v.diff) + 28.0 <= cell
        })
    }

    /// A race's results: who won, and each number beside the ghost's, in `columns` or a
    /// line each. Returns the baseline of the last.
    fn versus(&self, race: &Race, columns: bool, x0: f64, y: f64, width: f64) -> f64 {
        self.font(20.0, 800);
        self.text(&race.verdict, x0, y + 4.0, race.tone(), "left");
        let cell = width / race.rows.len().max(1) as f64;
        let mut last = y;
        for (i, v) in race.rows.iter().enumerate() {
            let (x, at) = if columns {
                (x0 + i as f64 * cell, y + 56.0)
            } else {
                (x0 + 96.0, y + 36.0 + i as f64 * 26.0)
            };
            self.font(12.0, 600);
            if columns {
                self.text(v.label, x, y + 32.0, Tone::Dim, "left");
            } else {
                self.text(v.label, x0, at, Tone::Dim, "left");
            }
            self.font(18.0, 700);
            self.text(&v.you, x, at, Tone::Text, "left");
            let mut after = x + self.text_width(&v.you) + 8.0;
            self.font(18.0, 500);
            let them = v.against();
            self.text(&them, after, at, Tone::Ghost, "left");
            after += self.text_width(&them) + 12.0;
            self.font(14.0, 600);
            self.text(&v.diff, after, at, v.tone, "left");
            last = at;
        }
        last
    }

    /// The model's chart: its lines back to front, its error dots, a bar where the lead
    /// changed hands, the wpm ticks, about six seconds labelled, the legend above.
    pub(super) fn chart(&self, chart: &Chart, x: f64, y: f64, width: f64, height: f64) {
        let ctx = &self.ctx;
        let max = f64::from(chart.top);
        let plot_x = x + 36.0;
        let plot_w = width - 36.0;
        self.font(11.0, 400);
        ctx.set_line_width(1.0);
        // Every tick a line; a label only where it clears the last one labelled.
        let mut labelled = f64::INFINITY;
        for v in chart.ticks() {
            let gy = y + height - f64::from(v) / max * height;
            self.stroke_style(Tone::Faint);
            ctx.begin_path();
            ctx.move_to(plot_x, gy);
            ctx.line_to(plot_x + plot_w, gy);
            ctx.stroke();
            if labelled - gy >= 14.0 {
                self.text(&v.to_string(), plot_x - 8.0, gy + 4.0, Tone::Dim, "right");
                labelled = gy;
            }
        }
        let n = chart.seconds;
        if n == 0 {
            return;
        }
        let px = |i: usize| {
            if n == 1 {
                plot_x + plot_w / 2.0
            } else {
                plot_x + i as f64 / (n - 1) as f64 * plot_w
            }
        };
        let py = |x100: u32| y + height - (f64::from(x100) / 100.0 / max).min(1.0) * height;
        // Where the lead changed hands: a bar at the end of that second.
        self.stroke_style(Tone::Caret);
        ctx.set_line_width(1.5);
        for &s in &chart.changes {
            let cx = px((s as usize).saturating_sub(1));
            ctx.begin_path();
            ctx.move_to(cx, y);
            ctx.line_to(cx, y + height);
            ctx.stroke();
        }
        ctx.set_line_join("round");
        for line in chart.lines() {
            self.stroke_style(line.tone);
            ctx.set_line_width(if line.bold { 2.5 } else { 1.5 });
            ctx.begin_path();
            for (i, v) in line.points().enumerate() {
                if i == 0 {
                    ctx.move_to(px(i), py(v));
                } else {
                    ctx.line_to(px(i), py(v));
                }
            }
            ctx.stroke();
            // A line of one point (a profile's first round) is a dot.
            if n == 1
                && let Some(v) = line.points().next()
            {
                self.fill_style(line.tone);
                ctx.begin_path();
                let _ = ctx.arc(px(0), py(v), 4.0, 0.0, core::f64::consts::TAU);
                ctx.fill();
            }
        }
        self.fill_style(Tone::Wrong);
        for (i, v) in chart.errors() {
            ctx.begin_path();
            let _ = ctx.arc(px(i), py(v) - 10.0, 3.0, 0.0, core::f64::consts::TAU);
            ctx.fill();
        }
        for i in chart.labelled_seconds() {
            // Centred under its second, but kept inside the plot's ends.
            let label = chart.x_label(i);
            let half = self.text_width(&label) / 2.0;
            // (min and max, not clamp: clamp's check would bring float printing along.)
            let at = px(i).min(plot_x + plot_w - half).max(plot_x + half);
            self.text(&label, at, y + height + 16.0, Tone::Dim, "center");
        }
        // The legend, right to left from the plot's right edge.
        let mut right = plot_x + plot_w;
        for (text, tone) in chart.legend() {
            self.text(text, right, y - 8.0, tone, "right");
            right -= self.text_width(text) + 12.0;
        }
    }
}
