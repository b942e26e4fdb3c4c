//! The results chart, built once: its lines, its scale, its marks and its legend. A shell
//! only draws it (the canvas in lines and dots, the terminal in braille).
//!
//! The lines are read straight from the samples rather than copied into series of their
//! own: the chart is rebuilt with every frame's model, and the browser's wasm pays for
//! every copy and comparison in bytes.

use typepper_api::profile::Point;
use typepper_engine::Sample;

use crate::palette::Tone;

/// The y-axis steps, in wpm.
const STEP: u32 = 20;

/// A line of the chart: its colour, whether it is drawn heavier (your wpm), and its
/// points, one a second from second 1, in hundredths of a wpm.
pub struct Line<'a> {
    /// Its colour.
    pub tone: Tone,
    /// Drawn heavier than the others.
    pub bold: bool,
    /// The seconds it is read from.
    pub samples: &'a [Sample],
    /// What it reads of each second.
    pub value: fn(&Sample) -> u32,
}

impl Line<'_> {
    /// Its points, second 1 first.
    pub fn points(&self) -> impl Iterator<Item = u32> + '_ {
        self.samples.iter().map(self.value)
    }
}

/// A round's chart, or a race's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chart {
    /// Your round, each second.
    samples: Vec<Sample>,
    /// The ghost's round, each second; empty outside a race.
    ghost: Vec<Sample>,
    /// `ada wpm`: the ghost's line in the legend.
    ghost_label: Option<String>,
    /// The seconds (from 1) at whose end the lead changed hands.
    pub changes: Vec<u32>,
    /// The y-axis's top, in wpm: 10 % above the highest point, up to a step of 20.
    pub top: u32,
    /// How many seconds (or points of a profile's) the x-axis spans.
    pub seconds: usize,
    /// A profile's chart: the number of each point's last round. Its points are rounds,
    /// not seconds, and their lines wpm and accuracy. Empty for a round's chart.
    rounds: Vec<u32>,
}

impl Chart {
    /// Your samples, and a race's ghost's name, samples and lead changes.
    pub fn new(samples: &[Sample], race: Option<(&str, &[Sample], &[u32])>) -> Chart {
        let (ghost_label, ghost, changes) = match race {
            Some((name, ghost, changes)) => (
                Some(format!("{name} wpm")),
                ghost.to_vec(),
                changes.to_vec(),
            ),
            None => (None, vec![], vec![]),
        };
        let highest = samples
            .iter()
            .map(|s| s.wpm_x100.max(s.raw_x100))
            .chain(ghost.iter().map(|s| s.wpm_x100))
            .max()
            .unwrap_or(0);
        // 10 % of headroom, to the step above: integer hundredths, so both shells agree.
        let top = (u64::from(highest) * 11)
            .div_ceil(u64::from(STEP) * 1000)
            .max(1) as u32
            * STEP;
        Chart {
            seconds: samples.len().max(ghost.len()),
            samples: samples.to_vec(),
            ghost,
            ghost_label,
            changes,
            top,
            rounds: vec![],
        }
    }

    /// A player's chart over their rounds (a profile's points): each point's wpm and
    /// accuracy drawn as a round's wpm and raw are.
    pub fn rounds(points: &[Point]) -> Chart {
        let mut rounds = Vec::with_capacity(points.len());
        let mut samples = Vec::with_capacity(points.len());
        for p in points {
            rounds.push(p.round);
            samples.push(Sample {
                wpm_x100: p.wpm_x100,
                raw_x100: p.accuracy_x100,
                errors: 0,
            });
        }
        Chart {
            rounds,
            ..Chart::new(&samples, None)
        }
    }

    /// The lines, back to front: the ghost's wpm in a race, raw, wpm.
    pub fn lines(&self) -> impl Iterator<Item = Line<'_>> {
        let ghost = Line {
            tone: Tone::Ghost,
            bold: false,
            samples: &self.ghost,
            value: |s| s.wpm_x100,
        };
        let raw = Line {
            tone: Tone::Dim,
            bold: false,
            samples: &self.samples,
            value: |s| s.raw_x100,
        };
        let wpm = Line {
            tone: Tone::Accent,
            bold: true,
            samples: &self.samples,
            value: |s| s.wpm_x100,
        };
        [ghost, raw, wpm]
            .into_iter()
            .filter(|l| !l.samples.is_empty())
    }

    /// The seconds (from 0) that had errors, and the height of their mark (raw, x100).
    pub fn errors(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        self.samples
            .iter()
            .enumerate()
            .filter(|(_, s)| s.errors > 0)
            .map(|(i, s)| (i, s.raw_x100))
    }

    /// The legend, as read from the right: `wpm`, `raw`, `errors •`, and in a race
    /// `ada wpm` and (when it did) `lead changed │`; on a profile's, `wpm` and
    /// `accuracy %`.
    pub fn legend(&self) -> impl Iterator<Item = (&str, Tone)> {
        let over_rounds = !self.rounds.is_empty();
        [
            Some(("wpm", Tone::Accent)),
            Some(if over_rounds { "accuracy %" } else { "raw" }).map(|l| (l, Tone::Dim)),
            (!over_rounds).then_some(("errors •", Tone::Wrong)),
            self.ghost_label.as_deref().map(|l| (l, Tone::Ghost)),
            (!self.changes.is_empty()).then_some(("lead changed │", Tone::Caret)),
        ]
        .into_iter()
        .flatten()
    }

    /// The y-axis's labelled values, from 0 to the top: every 20 wpm, every 40 past 120.
    pub fn ticks(&self) -> impl Iterator<Item = u32> {
        let every = if self.top > 120 { 2 * STEP } else { STEP };
        (0..=self.top).step_by(every as usize)
    }

    /// The seconds (from 0) the x-axis labels: about six whatever the length.
    pub fn labelled_seconds(&self) -> impl Iterator<Item = usize> {
        let n = self.seconds;
        let every = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600]
            .into_iter()
            .find(|e| n / e <= 6)
            .unwrap_or(n.max(1));
        (every - 1..n).step_by(every)
    }

    /// A point's label on the x-axis: its second (`5s` for index 4), or on a profile's
    /// chart its last round (`#312`).
    pub fn x_label(&self, i: usize) -> String {
        match self.rounds.get(i) {
            Some(round) => ["#", &round.to_string()].concat(),
            None => [&(i + 1).to_string(), "s"].concat(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(wpm: u32, raw: u32, errors: u32) -> Sample {
        Sample {
            wpm_x100: wpm * 100,
            raw_x100: raw * 100,
            errors,
        }
    }

    #[test]
    fn the_scale_leaves_a_tenth_of_headroom_to_the_next_step_of_twenty() {
        let top = |wpm| Chart::new(&[sample(wpm, wpm, 0)], None).top;
        assert_eq!(top(0), 20);
        assert_eq!(top(90), 100);
        // 10 % above 100 is 110: the step above is 120.
        assert_eq!(top(100), 120);
        assert_eq!(top(109), 120);
        assert_eq!(top(110), 140);
        let chart = Chart::new(&[sample(150, 150, 0)], None);
        assert_eq!(chart.top, 180);
        assert_eq!(chart.ticks().collect::<Vec<_>>(), [0, 40, 80, 120, 160]);
    }

    #[test]
    fn a_profile_s_chart_is_wpm_and_accuracy_over_rounds() {
        let point = |round, wpm_x100, accuracy_x100| Point {
            round,
            wpm_x100,
            accuracy_x100,
        };
        let chart = Chart::rounds(&[point(2, 5_000, 9_500), point(4, 6_000, 9_700)]);
        let legend: Vec<&str> = chart.legend().map(|(l, _)| l).collect();
        assert_eq!(legend, ["wpm", "accuracy %"]);
        assert_eq!(
            (chart.x_label(0), chart.x_label(1)),
            ("#2".into(), "#4".into())
        );
        // Accuracy is on the same scale: 97 % tops 60 wpm.
        assert_eq!(chart.top, 120);
        assert_eq!(chart.errors().count(), 0);
        assert_eq!(Chart::new(&[sample(1, 1, 0)], None).x_label(4), "5s");
    }

    #[test]
    fn a_race_adds_the_ghost_s_line_its_name_and_where_the_lead_changed() {
        let you = [sample(80, 90, 1), sample(85, 95, 0)];
        let ghost = [sample(100, 100, 0), sample(90, 90, 0), sample(95, 95, 0)];
        let chart = Chart::new(&you, Some(("ada", &ghost, &[2])));
        let legend: Vec<&str> = chart.legend().map(|(l, _)| l).collect();
        assert_eq!(
            legend,
            ["wpm", "raw", "errors •", "ada wpm", "lead changed │"]
        );
        let lines: Vec<(Tone, Vec<u32>)> = chart
            .lines()
            .map(|l| (l.tone, l.points().map(|p| p / 100).collect()))
            .collect();
        assert_eq!(
            lines,
            [
                (Tone::Ghost, vec![100, 90, 95]),
                (Tone::Dim, vec![90, 95]),
                (Tone::Accent, vec![80, 85])
            ]
        );
        assert_eq!(chart.errors().collect::<Vec<_>>(), [(0, 9000)]);
        assert_eq!((chart.seconds, chart.top), (3, 120));

        let alone = Chart::new(&you, None);
        assert_eq!(alone.lines().count(), 2);
        assert_eq!(alone.legend().count(), 3);
    }

    #[test]
    fn about_six_seconds_are_labelled_whatever_the_length() {
        let label = |n: usize| {
            let chart = Chart::new(&vec![sample(50, 50, 0); n], None);
            chart
                .labelled_seconds()
                .map(|i| chart.x_label(i))
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(label(3), "1s 2s 3s");
        assert_eq!(label(15), "5s 10s 15s");
        assert_eq!(label(60), "10s 20s 30s 40s 50s 60s");
        assert_eq!(label(0), "");
    }
}
