//! The results of a round: its score, chart and stats, a race's verdict, and what became
//! of sending it; from here a round is played again, watched, raced or shared.

use typepper_engine::{Decimal, Headline, Hundredths, Replay, Score, Tier};

use crate::app::{App, Effect, Key, Now, Screen};
use crate::model::Race;
use crate::model::Results;
use crate::model::Stat;
use crate::model::Versus;
use crate::model::signed;
use crate::model::{
    BACK, Body, COPY, Chart, Kind, MENU, Model, Tap, Tone, banner, race_banner, tap,
};

/// The results of a round.
#[derive(Clone, Debug)]
pub struct Finished {
    /// Its score.
    pub score: Score,
    /// The round, to watch again.
    pub replay: Replay,
    /// It was a replay, not yours: nothing was kept.
    pub watched: bool,
    /// Whose round it was, when watched and known.
    pub who: Option<String>,
    /// It was a race: the ghost's side.
    pub race: Option<Box<RaceEnd>>,
    /// The server's id for it, once sent: for the race link.
    pub run: Option<String>,
    /// When it ended (your rounds), which names its history line and outbox entry.
    pub unix_ms: Option<u64>,
    /// Its share link, once the server has it.
    pub share: Option<String>,
    /// What became of sending it, for the screen.
    pub note: Option<String>,
    /// The daily it was a round of, if it was one of yours.
    pub daily: Option<u32>,
    /// When the screen came up (ms on the monotonic clock): letter keys wait
    /// [`RESULTS_HOLD_MS`] from it.
    pub since: f64,
}

/// A finished race: the ghost's side of the results.
#[derive(Clone, Debug)]
pub struct RaceEnd {
    /// Who the ghost was.
    pub name: String,
    /// Its replay, to race again.
    pub replay: Replay,
    /// What its whole round scored.
    pub score: Score,
    /// The seconds at whose end the lead had changed hands.
    pub changes: Vec<u32>,
}

/// How long the results ignore letter keys after a round ends, in ms: keys typed through
/// the end of a round were read as commands (`h` opened history, `r` watched the round, `g`
/// raced it), and HOT PURSUIT ends without warning. Monkeytype holds its results a moment
/// too. Tab, enter and esc work at once.
pub const RESULTS_HOLD_MS: f64 = 1_000.0;

impl App {
    /// A key on the results.
    pub(crate) fn results_key(&mut self, key: Key, now: Now) -> Vec<Effect> {
        let mut fx = vec![];
        let Screen::Results(results) = &mut self.screen else {
            return fx;
        };
        // Letters typed through the end of a round are not commands.
        if matches!(key, Key::Char(_)) && now.mono - results.since < RESULTS_HOLD_MS {
            return fx;
        }
        let (mode, seed, watched) = (results.score.mode, results.replay.seed, results.watched);
        let daily = results.daily;
        match key {
            // After a race, the same race again.
            Key::Tab | Key::Enter if results.race.is_some() => {
                let race = results
                    .race
                    .as_ref()
                    .map(|r| (r.replay.clone(), r.name.clone()));
                if let Some((replay, name)) = race
                    && let Err(why) = self.race(replay, name)
                {
                    fx.push(Effect::Warn(why));
                }
            }
            // After a replay, play that round yourself; after yours, a new one.
            Key::Tab | Key::Enter => {
                let replay = results.replay.clone();
                self.play_like(&replay, mode, watched.then_some(seed));
            }
            Key::Escape => self.back(),
            Key::Char('r') => {
                let (replay, who) = (results.replay.clone(), results.who.clone());
                if let Err(why) = self.watch(replay, who, now.mono) {
                    fx.push(Effect::Warn(why));
                }
            }
            Key::Char('g') => {
                let (who, ended) = (results.who.clone(), results.unix_ms);
                let replay = results.replay.clone();
                // Your round is named as the history and the menu name it.
                let name = match who {
                    _ if !watched => self
                        .history
                        .iter()
                        .find(|e| Some(e.unix_ms) == ended)
                        .map_or_else(|| "your last round".to_owned(), |e| self.yours(e)),
                    Some(who) => who,
                    None => "the replay".to_owned(),
                };
                if let Err(why) = self.race(replay, name) {
                    fx.push(Effect::Warn(why));
                }
            }
            Key::Char('c') => {
                if let Some(link) = &results.share {
                    fx.push(Effect::Copy(link.clone()));
                    results.note = Some("link copied".into());
                }
            }
            Key::Char('C') => {
                if let Some(link) = race_link(self.game_url.as_deref(), results) {
                    fx.push(Effect::Copy(link));
                    results.note = Some("race link copied".into());
                } else if results.share.is_some() && !results.watched {
                    // A terminal game knows the server's SSH address, not the
                    // page the game is served on; the share page links to it.
                    results.note = Some("no race link here: the share link (c) races it".into());
                }
            }
            Key::Char('h') => self.open_history(),
            // The board of the round's mode: a quote's own, one of the menu's, or a word
            // that there is none.
            Key::Char('b') => match daily {
                Some(number) => fx.extend(self.open_daily_board(number)),
                None => fx.extend(self.open_board_of(mode)),
            },
            _ => {}
        }
        fx
    }

    pub(crate) fn results_screen(&self, r: &Finished, mut notice: Option<(String, Tone)>) -> Model {
        // What became of the round (sent, offline, unranked, a link copied): news,
        // not an error.
        if let Some(note) = &r.note {
            notice = Some((note.clone(), Tone::Dim));
        }
        // Said on every round of yours, not once on the menu: the play-test's
        // read-only data dir was forgotten by the second round.
        if let Some(why) = self.unkept.as_ref().filter(|_| !r.watched) {
            let unkept = ["not kept: ", why].concat();
            let line = match &r.note {
                Some(note) => [note, " · ", &unkept].concat(),
                None => unkept,
            };
            notice = Some((line, Tone::Wrong));
        }
        let race_link = race_link(self.game_url.as_deref(), r).is_some();
        let hints = if r.watched && self.list.is_some() {
            "tab or enter play this round yourself · r watch again · g race it · esc back"
        } else if r.watched {
            "tab or enter play this round yourself · r watch again · g race it · esc menu"
        } else if r.race.is_some() && self.list.is_some() {
            // A race started from a list goes back to it.
            match (r.share.is_some(), race_link) {
                (true, true) => {
                    "tab or enter race again · r watch yours · c copy link · C copy race link · esc back"
                }
                (true, false) => "tab or enter race again · r watch yours · c copy link · esc back",
                _ => "tab or enter race again · r watch yours · esc back",
            }
        } else if r.race.is_some() {
            match (r.share.is_some(), race_link) {
                (true, true) => {
                    "tab or enter race again · r watch yours · c copy link · C copy race link · esc menu"
                }
                (true, false) => "tab or enter race again · r watch yours · c copy link · esc menu",
                _ => "tab or enter race again · r watch yours · h history · esc menu",
            }
        } else {
            match (r.share.is_some(), race_link) {
                (true, true) => {
                    "tab or enter again · r watch it · g race it · c copy link · C copy race link · b board · esc menu"
                }
                (true, false) => {
                    "tab or enter again · r watch it · g race it · c copy link · h history · b board · esc menu"
                }
                _ => "tab or enter again · r watch it · g race it · h history · b board · esc menu",
            }
        };
        let banner = match &r.race {
            Some(race) => Some(race_banner(r.score.mode, &race.name)),
            None => r.watched.then(|| banner(r.score.mode, r.who.as_deref())),
        };
        let taps: &[Tap] = {
            const AGAIN: Tap = tap("again", Key::Tab);
            const WATCH: Tap = tap("watch", Key::Char('r'));
            const RACE: Tap = tap("race", Key::Char('g'));
            const PLAY: Tap = tap("play it", Key::Tab);
            const RACE_AGAIN: Tap = tap("race again", Key::Tab);
            match (r.watched, r.race.is_some(), r.share.is_some()) {
                (true, ..) if self.list.is_some() => &[PLAY, WATCH, RACE, BACK],
                (true, ..) => &[PLAY, WATCH, RACE, MENU],
                (_, true, true) if self.list.is_some() => &[RACE_AGAIN, WATCH, COPY, BACK],
                (_, true, false) if self.list.is_some() => &[RACE_AGAIN, WATCH, BACK],
                (_, true, true) => &[RACE_AGAIN, WATCH, COPY, MENU],
                (_, true, false) => &[RACE_AGAIN, WATCH, MENU],
                (_, false, true) => &[AGAIN, WATCH, RACE, COPY, MENU],
                (_, false, false) => &[AGAIN, WATCH, RACE, MENU],
            }
        };
        Model {
            kind: Kind::Results,
            banner,
            notice,
            hints,
            taps,
            body: Body::Results(results(r)),
        }
    }
}

/// The link that races a round you played, once the server has it and the shell knows
/// where the game is served.
pub fn race_link(game_url: Option<&str>, results: &Finished) -> Option<String> {
    let (game, id) = (game_url?, results.run.as_deref()?);
    (!results.watched).then(|| format!("{game}?race={id}"))
}

fn results(r: &Finished) -> Results {
    let s = &r.score;
    let c = s.chars;
    let tier = Tier::of(s.peak_heat);
    let stat = |label, value: String| Stat {
        label,
        value,
        tone: Tone::Text,
    };
    // wpm and raw to the hundredth both, so they read as the same kind of number; each
    // count of characters under its own name, so none is a bare number in a row.
    let mut stats = vec![
        stat("wpm", Hundredths(s.wpm_x100).to_string()),
        stat("raw", Hundredths(s.raw_x100).to_string()),
        stat("accuracy", format!("{}%", Decimal(s.accuracy_x100.into()))),
        stat(
            "consistency",
            format!("{}%", Decimal(s.consistency_x100.into())),
        ),
        stat("words", s.words.to_string()),
        stat("correct", c.correct.to_string()),
        stat("wrong", c.wrong.to_string()),
        stat("extra", c.extra.to_string()),
        stat("missed", c.missed.to_string()),
        Stat {
            tone: Tone::Heat(tier),
            ..stat("peak heat", format!("{} {tier}", s.peak_heat))
        },
    ];
    if let (true, Some(level)) = (s.mode.is_pursuit(), s.level) {
        stats.push(Stat {
            tone: Tone::Accent,
            ..stat("reached", format!("lv{level}"))
        });
    }
    stats.push(stat(
        "time",
        format!("{}.{} s", s.duration_ms / 1000, s.duration_ms % 1000 / 100),
    ));
    // A round of older rules is scored by them, and says so (RULES.md, "VERSION 2").
    if r.replay.engine != typepper_engine::VERSION {
        stats.push(Stat {
            tone: Tone::Dim,
            ..stat("rules", format!("VERSION {}", r.replay.engine))
        });
    }
    let race = r.race.as_deref().map(|race| versus(s, race));
    Results {
        chart: Chart::new(
            &s.samples,
            r.race.as_deref().map(|race| {
                (
                    race.name.as_str(),
                    &race.score.samples[..],
                    &race.changes[..],
                )
            }),
        ),
        headline: s.headline().to_string(),
        // A daily's round is said as the daily: `daily #6 · BLITZ 30s`.
        title: match r.daily {
            Some(n) => [typepper_api::daily::name(n), s.mode.title()].join(" · "),
            None => s.mode.title(),
        },
        source: source(s.mode),
        stats,
        share: r.share.clone(),
        watched: r.watched,
        race,
    }
}

/// Your round and the ghost's side by side.
fn versus(you: &Score, race: &RaceEnd) -> Race {
    let them = &race.score;
    let (a, b) = (you.headline(), them.headline());
    let unit = a.unit;
    let diff = i64::from(a.value) - i64::from(b.value);
    let verdict = match diff.signum() {
        1 => format!(
            "you won by {}",
            Headline {
                value: diff.unsigned_abs() as u32,
                unit
            }
        ),
        -1 => format!(
            "{} won by {}",
            race.name,
            Headline {
                value: diff.unsigned_abs() as u32,
                unit
            }
        ),
        _ => format!("a tie at {a}"),
    };
    // Each difference once: its text and its colour both read it.
    let wpm = i64::from(you.wpm_x100) - i64::from(them.wpm_x100);
    let accuracy = i64::from(you.accuracy_x100) - i64::from(them.accuracy_x100);
    let rows = vec![
        Versus {
            label: "score",
            you: a.to_string(),
            them: b.to_string(),
            diff: format!("{} {unit}", signed(diff * 100)),
            tone: Tone::lead(diff),
        },
        Versus {
            label: "wpm",
            you: Hundredths(you.wpm_x100).to_string(),
            them: Hundredths(them.wpm_x100).to_string(),
            diff: signed(wpm),
            tone: Tone::lead(wpm),
        },
        Versus {
            label: "accuracy",
            you: format!("{}%", Decimal(you.accuracy_x100.into())),
            them: format!("{}%", Decimal(them.accuracy_x100.into())),
            diff: format!("{}%", signed(accuracy)),
            tone: Tone::lead(accuracy),
        },
    ];
    Race {
        name: race.name.clone(),
        verdict,
        margin: diff,
        rows,
        changes: race.changes.clone(),
    }
}

/// A quote's author and work, as its results credit them: `— Jane Austen, Pride and
/// Prejudice` (`— Jane Austen` when the work isn't known).
pub(crate) fn source(mode: typepper_engine::Mode) -> Option<String> {
    let typepper_engine::Base::Quote(n) = mode.base() else {
        return None;
    };
    let p = typepper_engine::quotes::passage(mode.prose().language, n)?;
    Some(match p.work {
        "" => format!("— {}", p.author),
        work => format!("— {}, {work}", p.author),
    })
}
