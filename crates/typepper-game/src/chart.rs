//! The results chart, built once: its series, its scale, its marks and its legend. A
//! shell only draws it (the canvas in lines and dots, the terminal in braille).

use typepper_engine::Sample;

use crate::palette::Tone;

/// The y-axis steps, in wpm.
const STEP: u32 = 20;

/// A line of the chart: one value a second, in hundredths of a wpm.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    /// Its colour.
    pub tone: Tone,
    /// Drawn heavier than the others: your wpm.
    pub bold: bool,
    /// Second 1 first.
    pub x100: Vec<u32>,
}

/// A round's chart, or a race's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chart {
    /// The lines, back to front: the ghost's wpm, raw, wpm.
    pub lines: Vec<Series>,
    /// The seconds (from 0) that had errors, and where the mark stands (raw, x100).
    pub errors: Vec<(usize, u32)>,
    /// The seconds (from 1) at whose end the lead changed hands.
    pub changes: Vec<u32>,
    /// The y-axis's top, in wpm: 10 % above the highest point, up to a step of 20.
    pub top: u32,
    /// How many seconds the x-axis spans.
    pub seconds: usize,
    /// Each entry, right to left as read: `wpm`, `raw`, `errors •`, `ada wpm`, `lead
    /// changed │`.
    pub legend: Vec<(String, Tone)>,
}

impl Chart {
    /// Your samples, and a race's ghost's samples and lead changes.
    pub fn new(samples: &[Sample], race: Option<(&str, &[Sample], &[u32])>) -> Chart {
        let mut lines = vec![];
        let mut legend = vec![
            ("wpm".to_owned(), Tone::Accent),
            ("raw".to_owned(), Tone::Dim),
            ("errors •".to_owned(), Tone::Wrong),
        ];
        let mut changes = vec![];
        let mut ghost_len = 0;
        if let Some((name, ghost, lead_changes)) = race {
            lines.push(Series {
                tone: Tone::Ghost,
                bold: false,
                x100: ghost.iter().map(|s| s.wpm_x100).collect(),
            });
            legend.push((format!("{name} wpm"), Tone::Ghost));
            if !lead_changes.is_empty() {
                legend.push(("lead changed │".to_owned(), Tone::Caret));
            }
            changes = lead_changes.to_vec();
            ghost_len = ghost.len();
        }
        lines.push(Series {
            tone: Tone::Dim,
            bold: false,
            x100: samples.iter().map(|s| s.raw_x100).collect(),
        });
        lines.push(Series {
            tone: Tone::Accent,
            bold: true,
            x100: samples.iter().map(|s| s.wpm_x100).collect(),
        });
        let highest = lines
            .iter()
            .flat_map(|l| l.x100.iter().copied())
            .max()
            .unwrap_or(0);
        // 10 % of headroom, to the step above: integer hundredths, so both shells agree.
        let top = (u64::from(highest) * 11)
            .div_ceil(u64::from(STEP) * 1000)
            .max(1) as u32
            * STEP;
        Chart {
            errors: samples
                .iter()
                .enumerate()
                .filter(|(_, s)| s.errors > 0)
                .map(|(i, s)| (i, s.raw_x100))
                .collect(),
            changes,
            top,
            seconds: samples.len().max(ghost_len),
            lines,
            legend,
        }
    }

    /// The y-axis's labelled values, from 0 to the top: every 20 wpm, every 40 past 120.
    pub fn ticks(&self) -> Vec<u32> {
        let every = if self.top > 120 { 2 * STEP } else { STEP };
        (0..=self.top).step_by(every as usize).collect()
    }

    /// The seconds (from 0) the x-axis labels: about six whatever the length.
    pub fn labelled_seconds(&self) -> Vec<usize> {
        let n = self.seconds;
        let every = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600]
            .into_iter()
            .find(|e| n / e <= 6)
            .unwrap_or(n.max(1));
        (0..n).filter(|i| (i + 1) % every == 0).collect()
    }

    /// A second's label: `5s` for index 4.
    pub fn second(i: usize) -> String {
        format!("{}s", i + 1)
    }
}
