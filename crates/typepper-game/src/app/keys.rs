//! The keys screen: what the history says about each key and letter pair, and the drill
//! of the worst.

use typepper_engine::{Drill, Replay};

use crate::app::{App, Effect, Key, Screen};
use crate::keys::{Analysis, By, Tally, Trend, name, percent};
use crate::model::KeyCap;
use crate::model::Keys;
use crate::model::QWERTY;
use crate::model::Worst;
use crate::model::{BACK, Body, Kind, Model, Tap, Tone, tap};

/// What the keys screen shows: the history's analysis, worked out when it opens.
#[derive(Clone, Debug)]
pub struct KeysScreen {
    /// Every round of the history.
    pub all: Analysis,
    /// The last rounds against the ones before.
    pub trend: Trend,
    /// What the keyboard is shaded by, and the worst are picked by.
    pub by: By,
}

impl App {
    /// Opens the keys screen on the history's analysis.
    pub(crate) fn open_keys(&mut self) {
        let replays: Vec<Replay> = self.history.iter().map(|e| e.replay.clone()).collect();
        self.screen = Screen::Keys(Box::new(KeysScreen {
            all: Analysis::of(&replays),
            trend: Trend::of(&replays),
            by: By::Errors,
        }));
    }

    pub(crate) fn keys_key(&mut self, key: Key) -> Vec<Effect> {
        let Screen::Keys(k) = &mut self.screen else {
            return vec![];
        };
        match key {
            Key::Escape | Key::Char('k') => self.screen = Screen::Menu,
            Key::Tab | Key::Left | Key::Right | Key::Char('t') => k.by = k.by.toggle(),
            Key::Enter | Key::Char('d') => {
                if let Some(drill) = k.all.drill().as_deref().and_then(Drill::new) {
                    return self.play_drill(drill);
                }
            }
            _ => {}
        }
        vec![]
    }

    /// The keys screen's model.
    pub(crate) fn keys_screen(&self, k: &KeysScreen, notice: Option<(String, Tone)>) -> Model {
        let rounds = self.history.len();
        let keys = keys_model(k, rounds, self.rounds_kept("from ", rounds));
        Model {
            kind: Kind::Keys,
            banner: None,
            notice,
            // `d` is offered only with something to drill.
            hints: if keys.drill.is_some() {
                "t errors or time · d drill these · esc menu"
            } else {
                "t errors or time · esc menu"
            },
            taps: if keys.drill.is_some() {
                const DRILL: Tap = tap("drill these", Key::Char('d'));
                &[DRILL, BACK]
            } else {
                &[BACK]
            },
            body: Body::Keys(keys),
        }
    }
}

/// The keys screen's model.
fn keys_model(k: &KeysScreen, rounds: usize, caption: String) -> Keys {
    let a = &k.all;
    let line = |what: String, s: &Tally| {
        let ms = |m: Option<u32>| m.map_or("–".into(), |m| format!("{m} ms"));
        format!(
            "{what:<5} {} wrong · {} · p90 {} · {}×",
            percent(s.error_x100()),
            ms(s.median_ms()),
            ms(s.p90_ms()),
            s.seen
        )
    };
    // Ranked by errors, a list leaves out what never went wrong; it says which it is.
    let none = |none_ranked: bool| match k.by {
        By::Errors if !none_ranked => "none went wrong",
        _ => "not seen enough yet",
    };
    // Shades: errors against 20% (a key wrong one time in five is as bad as it gets);
    // times between the fastest and the slowest median.
    let medians: Vec<u32> = QWERTY
        .iter()
        .flat_map(|r| r.chars())
        .filter_map(|c| a.key(c).and_then(Tally::median_ms))
        .collect();
    let (fast, slow) = (
        medians.iter().copied().min().unwrap_or(0),
        medians.iter().copied().max().unwrap_or(0),
    );
    let shade = |s: &Tally| -> Option<u8> {
        match k.by {
            By::Errors => Some((s.error_x100() / 20).min(100) as u8),
            By::Time => {
                let m = s.median_ms()?;
                Some(((m - fast) * 100 / (slow - fast).max(1)).min(100) as u8)
            }
        }
    };
    // Worked out once: the drill and why there is none both read it.
    let drill = a.drill();
    let keyboard = QWERTY
        .iter()
        .map(|row| {
            row.chars()
                .map(|key| KeyCap {
                    key,
                    shade: a.key(key).and_then(shade),
                })
                .collect()
        })
        .collect();
    Keys {
        title: "your keys",
        by: match k.by {
            By::Errors => "by errors",
            By::Time => "by time",
        },
        caption,
        keyboard,
        lists: [
            Worst {
                title: "worst keys",
                lines: a
                    .worst_keys(k.by, 10)
                    .iter()
                    .map(|key| {
                        let mut l = line(name(key.key), &key.stat);
                        if let Some(trend) = k.trend.key(key.key) {
                            l += &format!(" · then {trend}");
                        }
                        l
                    })
                    .collect(),
                none: none(a.worst_keys(By::Time, 1).is_empty()),
                note: {
                    let few = a.unranked();
                    (!few.is_empty()).then(|| {
                        format!(
                            "{few}: seen under {}×, too few to rank",
                            crate::keys::MIN_KEY_SEEN
                        )
                    })
                },
            },
            Worst {
                title: "worst pairs",
                lines: a
                    .worst_pairs(k.by, 10)
                    .iter()
                    .map(|p| line(format!("{}{}", p.pair[0], p.pair[1]), &p.stat))
                    .collect(),
                none: none(a.worst_pairs(By::Time, 1).is_empty()),
                note: None,
            },
        ],
        trend: {
            let last = match k.trend.recent.rounds {
                1 => "the last round".to_owned(),
                n => format!("the last {n} rounds"),
            };
            let (before, recent) = (&k.trend.before, &k.trend.recent.overall);
            // With none before, there is nothing to compare: the numbers alone.
            match before.rounds {
                0 => format!("{last}: {}", Trend::alone(Some(recent))),
                n => format!(
                    "{last} against the {n} before: {}",
                    Trend::line(Some(&before.overall), Some(recent))
                ),
            }
        },
        no_drill: (rounds > 0 && drill.is_none()).then_some(
            "nothing to drill yet: a letter is drilled once it went wrong 3 times at 1.5× your error rate, or takes 1.2× your time",
        ),
        drill,
        empty: (rounds == 0).then_some("no rounds yet: esc, then play some"),
    }
}
