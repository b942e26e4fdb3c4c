//! What the results show: the headline, the chart and stats, a race's verdict.

use core::fmt::Write as _;

use crate::model::Chart;
use crate::model::Tone;
use typepper_engine::Decimal;
use typepper_engine::Score;
/// A finished round.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// `92 wpm`.
    pub headline: String,
    /// `BLITZ 15s`.
    pub title: String,
    /// A quote's author and work: `— Jane Austen, Pride and Prejudice`.
    pub source: Option<String>,
    /// Every stat, in order.
    pub stats: Vec<Stat>,
    /// Its share link, once the server has it.
    pub share: Option<String>,
    /// It was someone else's round.
    pub watched: bool,
    /// It was a race: both sides.
    pub race: Option<Race>,
    /// Wpm and raw each second, the errors, and in a race the ghost's wpm.
    pub chart: Chart,
}

/// A finished race, side by side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    /// Who the ghost was.
    pub name: String,
    /// `you won by 4 wpm`, `ada won by 3 words`, `a tie at 92 wpm`.
    pub verdict: String,
    /// Your headline minus the ghost's: who won, for the verdict's colour.
    pub margin: i64,
    /// The headline, wpm and accuracy of each, with the difference.
    pub rows: Vec<Versus>,
    /// The seconds (from 1) at whose end the lead had changed hands.
    pub changes: Vec<u32>,
}

/// One number of a race's results, for you and the ghost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Versus {
    /// `score`, `wpm`, `accuracy`.
    pub label: &'static str,
    /// Yours.
    pub you: String,
    /// The ghost's.
    pub them: String,
    /// Yours minus the ghost's: `+4.4`, `−1.5%`, `±0`.
    pub diff: String,
    /// The difference's colour: ahead, behind or even.
    pub tone: Tone,
}

impl Versus {
    /// The ghost's, as drawn after yours: `vs 88 wpm`.
    pub fn against(&self) -> String {
        format!("vs {}", self.them)
    }
}

impl Race {
    /// The verdict's colour: who won.
    pub fn tone(&self) -> Tone {
        Tone::lead(self.margin)
    }

    /// The race in one line: `you won by 4 wpm · score 92 wpm vs 88 wpm (+4 wpm) · …
    /// · the lead changed hands at 3 s`.
    pub fn line(&self) -> String {
        let mut out = self.verdict.clone();
        for v in &self.rows {
            let _ = write!(out, " · {} {} vs {} ({})", v.label, v.you, v.them, v.diff);
        }
        match &self.changes[..] {
            [] => {}
            changes => {
                let at: Vec<String> = changes.iter().map(|s| format!("{s} s")).collect();
                let _ = write!(out, " · the lead changed hands at {}", at.join(", "));
            }
        }
        out
    }
}

impl Results {
    /// `share https://r.typepper.com/7Xf9qyuC`, once it has a link.
    pub fn share_line(&self) -> Option<String> {
        self.share.as_ref().map(|link| format!("share {link}"))
    }

    /// Every stat in one line: `92 wpm · BLITZ 15s · wpm 92 · raw 95 · …`.
    pub fn line(&self) -> String {
        let mut out = format!("{} · {}", self.headline, self.title);
        for s in &self.stats {
            let _ = write!(out, " · {} {}", s.label, s.value);
        }
        out
    }
}

/// One stat of a result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stat {
    /// `wpm`, `accuracy`.
    pub label: &'static str,
    /// `92.50`, `98%`, `15 BELL PEPPER`.
    pub value: String,
    /// How it is coloured.
    pub tone: Tone,
}

/// `92 wpm · BLITZ 15s`, a round's line.
pub fn headline(score: &Score) -> String {
    format!("{} · {}", score.headline(), score.mode)
}

/// Hundredths with their sign: `+4.4`, `−1.5`, `±0`.
pub fn signed(x100: i64) -> String {
    let abs = Decimal(u32::try_from(x100.unsigned_abs()).unwrap_or(u32::MAX));
    match x100.signum() {
        1 => format!("+{abs}"),
        -1 => format!("−{abs}"),
        _ => "±0".into(),
    }
}
