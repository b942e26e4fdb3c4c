//! What your replays say about your typing: per key and per letter pair, how often it was
//! asked for, how often it went wrong, and how long it took.
//!
//! Each replay is played again through the engine, so a mistake is exactly what the rules
//! judge one. At every input the round shows which key the text asks for next: the
//! current word's next letter, or a space once the word is typed (extras included). Then:
//! - a judged keystroke counts for the key asked: *seen*, and an *error* when the rules
//!   judge it wrong (a wrong letter, a letter where a space was due, a space before the
//!   word was done);
//! - a space that commits a word early leaves its other letters *missed*: each is seen,
//!   and an error;
//! - a correct keystroke's *time* is the time since the input before it, whatever that
//!   was (a backspace included);
//! - a letter pair `ab` is seen when `b` is asked right after `a` was typed correctly at
//!   the place before it, in one word, with nothing between; its time and errors are
//!   `b`'s there.
//!
//! Times are summarised as the median and the slow end (p90), nearest rank. Pairs are
//! listed once seen [`MIN_PAIR_SEEN`] times; fewer say little.

use core::fmt;

use typepper_engine::{Op, Replay};

/// A letter pair is listed once seen this often: under it, one slip is a large share.
pub const MIN_PAIR_SEEN: u32 = 10;
/// The worst keys and pairs rank only what was seen this often.
pub const MIN_KEY_SEEN: u32 = 10;
/// A letter is drilled for its errors once it went wrong this often…
pub const DRILL_MIN_ERRORS: u32 = 3;
/// …and at least this many times your error rate over every key, in tenths (1.5×): one
/// slip on a common letter is noise, not a weak key.
pub const DRILL_ERRORS_X10: u32 = 15;
/// A letter is drilled for its time once its median is this many times yours over every
/// key, in tenths (1.2×).
pub const DRILL_SLOW_X10: u32 = 12;
/// The most letters one drill picks.
pub const DRILL_LETTERS: usize = 5;
/// The trend compares the last this many rounds…
pub const RECENT: usize = 10;
/// …against this many before them.
pub const BEFORE: usize = 40;

/// One key's or pair's numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Times it was asked for.
    pub seen: u32,
    /// Times it went wrong.
    pub errors: u32,
    /// Each correct keystroke's time since the input before it, in ms; sorted once all
    /// are in ([`Tally::finish`]), since the keys screen reads percentiles every frame.
    times: Vec<u32>,
}

impl Tally {
    fn add(&mut self, correct: bool, time: Option<u32>) {
        self.seen += 1;
        self.errors += u32::from(!correct);
        if let (true, Some(t)) = (correct, time) {
            self.times.push(t);
        }
    }

    /// Sorts the times, for the percentiles: after the last [`Tally::add`].
    fn finish(&mut self) {
        // A heap sort, not `sort_unstable`: the same order (these are plain integers),
        // and the standard library's pattern-defeating quicksort was 1.8 KB gzip of the
        // browser's wasm for this one call (docs/PERFORMANCE.md, issue 41). A key's few
        // thousand times sort in well under a millisecond either way.
        let times = std::mem::take(&mut self.times);
        self.times = std::collections::BinaryHeap::from(times).into_sorted_vec();
    }

    /// Errors per seen, in hundredths of a percent.
    pub fn error_x100(&self) -> u32 {
        if self.seen == 0 {
            return 0;
        }
        (u64::from(self.errors) * 10_000 / u64::from(self.seen)) as u32
    }

    /// The median time, in ms.
    pub fn median_ms(&self) -> Option<u32> {
        self.rank(50)
    }

    /// The slow end: the 90th percentile time, in ms.
    pub fn p90_ms(&self) -> Option<u32> {
        self.rank(90)
    }

    /// The `p`th percentile, nearest rank.
    fn rank(&self, p: usize) -> Option<u32> {
        let n = self.times.len();
        (n > 0).then(|| self.times[(n * p).div_ceil(100).max(1) - 1])
    }

    fn merge(&mut self, other: &Tally) {
        self.seen += other.seen;
        self.errors += other.errors;
        self.times.extend(&other.times);
    }
}

/// A key's numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    /// The key: a letter, or `' '`.
    pub key: char,
    /// Its numbers.
    pub stat: Tally,
}

/// A letter pair's numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The two letters.
    pub pair: [char; 2],
    /// The second letter's numbers after the first.
    pub stat: Tally,
}

/// The analysis of a set of replays.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    /// Rounds that played.
    pub rounds: usize,
    /// Rounds that didn't (other rules, an unknown mode), left out.
    pub skipped: usize,
    /// Every key asked for, in key order (space first).
    pub keys: Vec<Key>,
    /// Every pair seen, in pair order; [`Analysis::pairs`] lists those seen enough.
    all_pairs: Vec<Pair>,
    /// Every key together.
    pub overall: Tally,
}

/// How the worst are picked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum By {
    /// The error rate, then the slow end.
    #[default]
    Errors,
    /// The median time, then the error rate.
    Time,
}

impl By {
    /// The other one.
    pub fn toggle(self) -> By {
        match self {
            By::Errors => By::Time,
            By::Time => By::Errors,
        }
    }
}

impl Analysis {
    /// The replays' analysis; replays that don't play are counted and left out.
    pub fn of<'a>(replays: impl IntoIterator<Item = &'a Replay>) -> Analysis {
        let mut keys: Vec<Key> = vec![];
        let mut pairs: Vec<Pair> = vec![];
        let mut out = Analysis::default();
        for replay in replays {
            if play(replay, &mut keys, &mut pairs).is_ok() {
                out.rounds += 1;
            } else {
                out.skipped += 1;
            }
        }
        for k in &mut keys {
            out.overall.merge(&k.stat);
            k.stat.finish();
        }
        out.overall.finish();
        for p in &mut pairs {
            p.stat.finish();
        }
        out.keys = keys;
        out.all_pairs = pairs;
        out
    }

    /// The pairs seen at least [`MIN_PAIR_SEEN`] times.
    pub fn pairs(&self) -> impl Iterator<Item = &Pair> {
        self.all_pairs
            .iter()
            .filter(|p| p.stat.seen >= MIN_PAIR_SEEN)
    }

    /// A key's numbers, if it was asked for.
    pub fn key(&self, key: char) -> Option<&Tally> {
        self.keys.iter().find(|k| k.key == key).map(|k| &k.stat)
    }

    /// The `n` worst letters seen at least [`MIN_KEY_SEEN`] times, worst first.
    /// By errors, only those that went wrong: a key never wrong is no one's worst.
    pub fn worst_keys(&self, by: By, n: usize) -> Vec<&Key> {
        let candidates: Vec<&Key> = self
            .keys
            .iter()
            .filter(|k| k.key.is_ascii_lowercase() && k.stat.seen >= MIN_KEY_SEEN)
            .filter(|k| by == By::Time || k.stat.errors > 0)
            .collect();
        worst(candidates, |k| &k.stat, by, n)
    }

    /// The letters asked for, but too seldom to rank ([`MIN_KEY_SEEN`]): the keyboard
    /// shades them, the lists leave them out.
    pub fn unranked(&self) -> String {
        self.keys
            .iter()
            .filter(|k| k.key.is_ascii_lowercase() && k.stat.seen < MIN_KEY_SEEN)
            .map(|k| k.key)
            .collect()
    }

    /// The `n` worst pairs of [`Analysis::pairs`], worst first.
    pub fn worst_pairs(&self, by: By, n: usize) -> Vec<&Pair> {
        let candidates = self.pairs().filter(|p| by == By::Time || p.stat.errors > 0);
        worst(candidates.collect(), |p| &p.stat, by, n)
    }

    /// The table ([`fmt::Display`]), then the worst keys by each measure and the drill:
    /// what the golden files freeze, natively and in wasm.
    pub fn report(&self) -> String {
        let mut out = self.to_string();
        for (label, by) in [("errors", By::Errors), ("time", By::Time)] {
            let worst: Vec<String> = self
                .worst_keys(by, 10)
                .iter()
                .map(|k| k.key.to_string())
                .collect();
            out += &format!("worst by {label}: {}\n", worst.join(" "));
        }
        out += &format!("drill: {:?}\n", self.drill());
        out
    }

    /// The letters of a drill: the weak ones, at most [`DRILL_LETTERS`]. Weak by errors
    /// first, worst first: wrong [`DRILL_MIN_ERRORS`] times or more, at 1.5× your error
    /// rate over every key or more; then weak by time: a median 1.2× yours or more. None
    /// when no letter is weak.
    pub fn drill(&self) -> Option<String> {
        let all = &self.overall;
        let by_errors = self
            .worst_keys(By::Errors, DRILL_LETTERS)
            .into_iter()
            .filter(|k| {
                k.stat.errors >= DRILL_MIN_ERRORS
                    && k.stat.error_x100() * 10 >= all.error_x100() * DRILL_ERRORS_X10
            });
        let slow = |k: &&Key| {
            let (Some(m), Some(mine)) = (k.stat.median_ms(), all.median_ms()) else {
                return false;
            };
            m * 10 >= mine * DRILL_SLOW_X10
        };
        let by_time = self
            .worst_keys(By::Time, DRILL_LETTERS)
            .into_iter()
            .filter(slow);
        let mut letters = String::new();
        for k in by_errors.chain(by_time) {
            if letters.len() < DRILL_LETTERS && !letters.chars().any(|c| c == k.key) {
                letters.push(k.key);
            }
        }
        (!letters.is_empty()).then_some(letters)
    }
}

/// The `n` worst of `items` (in key order), worst first; of two as bad, the earlier.
///
/// Picked one at a time rather than sorted: `n` is 10 at most, and a sort's code for each
/// item type would be most of this module's size in the browser's wasm.
fn worst<T>(mut items: Vec<&T>, stat: impl Fn(&T) -> &Tally, by: By, n: usize) -> Vec<&T> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n && !items.is_empty() {
        let mut at = 0;
        for i in 1..items.len() {
            if badness(stat(items[i]), by) > badness(stat(items[at]), by) {
                at = i;
            }
        }
        out.push(items.remove(at));
    }
    out
}

/// How bad a key or pair is, `by` one measure then the other: bigger is worse.
fn badness(s: &Tally, by: By) -> (u32, u32) {
    let (errors, time) = (s.error_x100(), s.median_ms().unwrap_or(0));
    match by {
        By::Errors => (errors, s.p90_ms().unwrap_or(0)),
        By::Time => (time, errors),
    }
}

/// The entry for `key` in `list`, which stays in key order: found, or made in its place.
fn entry<T, K: Ord + Copy>(
    list: &mut Vec<T>,
    key: K,
    key_of: impl Fn(&T) -> K,
    new: impl FnOnce(K) -> T,
) -> &mut T {
    let at = list
        .binary_search_by_key(&key, key_of)
        .unwrap_or_else(|at| {
            list.insert(at, new(key));
            at
        });
    &mut list[at]
}

/// `key`'s numbers in `keys`.
fn stat_of(keys: &mut Vec<Key>, key: char) -> &mut Tally {
    let new = |key| Key {
        key,
        stat: Tally::default(),
    };
    &mut entry(keys, key, |k| k.key, new).stat
}

/// `pair`'s numbers in `pairs`.
fn pair_of(pairs: &mut Vec<Pair>, pair: [char; 2]) -> &mut Tally {
    let new = |pair| Pair {
        pair,
        stat: Tally::default(),
    };
    &mut entry(pairs, pair, |p| p.pair, new).stat
}

/// Plays `replay`, adding what each input shows to `keys` and `pairs`.
fn play(replay: &Replay, keys: &mut Vec<Key>, pairs: &mut Vec<Pair>) -> Result<(), ()> {
    replay.score().map_err(|_| ())?;
    let mut round = replay.setup().map_err(|_| ())?;
    let mut last_t: Option<u32> = None;
    // The place (word, letter) and letter of the last correct keystroke, if it was the
    // input just before.
    let mut last_right: Option<(usize, usize, char)> = None;
    for (t, op) in replay.timeline() {
        let t = t.ok_or(())?;
        let view = round.view(t);
        let (word, typed) = view.caret();
        let target: Vec<char> = view
            .word(word)
            .map(|w| w.target().chars().collect())
            .unwrap_or_default();
        let asked = target.get(typed).copied().unwrap_or(' ');
        let fx = round.apply(t, op).map_err(|_| ())?;
        let gap = last_t.map(|l| t - l);
        last_t = Some(t);
        let mut right = None;
        if let Some(correct) = fx.judged {
            stat_of(keys, asked).add(correct, gap);
            if let Some((w, at, a)) = last_right
                && w == word
                && at + 1 == typed
                && asked != ' '
            {
                pair_of(pairs, [a, asked]).add(correct, gap);
            }
            if correct && asked != ' ' {
                right = Some((word, typed, asked));
            }
            // A space before the word was done leaves its other letters missed.
            if op == Op::Char(' ') && typed < target.len() {
                for &c in &target[typed + 1..] {
                    stat_of(keys, c).add(false, None);
                }
            }
        }
        last_right = right;
    }
    Ok(())
}

/// The last [`RECENT`] rounds against the [`BEFORE`] before them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trend {
    /// The last rounds.
    pub recent: Analysis,
    /// The rounds before them.
    pub before: Analysis,
}

impl Trend {
    /// The trend of `replays`, oldest first.
    pub fn of(replays: &[Replay]) -> Trend {
        let split = replays.len().saturating_sub(RECENT);
        let from = split.saturating_sub(BEFORE);
        Trend {
            recent: Analysis::of(&replays[split..]),
            before: Analysis::of(&replays[from..split]),
        }
    }

    /// One key's errors, then against now: `8.1% → 4.0%`, when both spans saw it.
    pub fn key(&self, key: char) -> Option<String> {
        let (before, recent) = (self.before.key(key)?, self.recent.key(key)?);
        Some(format!(
            "{} → {}",
            percent(before.error_x100()),
            percent(recent.error_x100())
        ))
    }

    /// `errors 4.2% → 3.1% · median 182 → 171 ms` for one key's numbers, or overall.
    pub fn line(before: Option<&Tally>, recent: Option<&Tally>) -> String {
        format!(
            "errors {} → {} · median {} → {} ms",
            errors(before),
            errors(recent),
            median(before),
            median(recent)
        )
    }

    /// `errors 3.1% · median 171 ms`: the numbers of rounds with none before them to
    /// compare with.
    pub fn alone(recent: Option<&Tally>) -> String {
        format!("errors {} · median {} ms", errors(recent), median(recent))
    }
}

/// A stat's error rate, `–` when nothing was seen (no number, not 0%).
fn errors(stat: Option<&Tally>) -> String {
    stat.filter(|s| s.seen > 0)
        .map_or("–".into(), |s| percent(s.error_x100()))
}

/// A stat's median time, `–` when nothing was seen.
fn median(stat: Option<&Tally>) -> String {
    stat.filter(|s| s.seen > 0)
        .and_then(Tally::median_ms)
        .map_or("–".into(), |m| m.to_string())
}

/// A profile's keys analysis (the server's, over a player's latest runs) in words, a line
/// a list: `most missed keys: q 12.5%, x 9.0%`, `slowest pairs: th 180 ms`. Both shells
/// and the profile page say it so.
pub fn summary(keys: &typepper_api::profile::Keys) -> Vec<String> {
    let lists = [
        ("most missed keys: ", &keys.missed, false),
        ("slowest keys: ", &keys.slowest, true),
        ("most missed pairs: ", &keys.missed_pairs, false),
        ("slowest pairs: ", &keys.slowest_pairs, true),
    ];
    let mut out = vec![];
    for (label, lines, time) in lists {
        if lines.is_empty() {
            continue;
        }
        let mut said = label.to_owned();
        for (i, l) in lines.iter().enumerate() {
            let value = match time {
                true => [&l.median_ms.to_string(), " ms"].concat(),
                false => percent(l.error_x100),
            };
            let comma = if i == 0 { "" } else { ", " };
            said.push_str(&[comma, &l.key, " ", &value].concat());
        }
        out.push(said);
    }
    out
}

/// Hundredths of a percent as `4.2%`, to a tenth.
pub fn percent(x100: u32) -> String {
    format!("{}.{}%", x100 / 100, x100 % 100 / 10)
}

/// A key as it is named: `space`, or the letter.
pub fn name(key: char) -> String {
    if key == ' ' {
        "space".into()
    } else {
        key.to_string()
    }
}

/// The table the golden files hold: every key, then the pairs seen enough.
impl fmt::Display for Analysis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = |m: Option<u32>| m.map_or("-".into(), |m| m.to_string());
        writeln!(f, "rounds {} skipped {}", self.rounds, self.skipped)?;
        writeln!(f, "key     seen  errors  error%  median  p90")?;
        let row = |f: &mut fmt::Formatter<'_>, name: &str, s: &Tally| {
            writeln!(
                f,
                "{name:<6} {:>5} {:>7} {:>7} {:>7} {:>4}",
                s.seen,
                s.errors,
                percent(s.error_x100()),
                ms(s.median_ms()),
                ms(s.p90_ms())
            )
        };
        for k in &self.keys {
            row(f, &name(k.key), &k.stat)?;
        }
        row(f, "all", &self.overall)?;
        writeln!(f, "pairs seen {MIN_PAIR_SEEN}+ times")?;
        for p in self.pairs() {
            row(f, &format!("{}{}", p.pair[0], p.pair[1]), &p.stat)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use typepper_engine::Mode;

    /// An analysis of these keys: (key, seen, errors, each correct one's time in ms).
    fn analysis(keys: &[(char, u32, u32, u32)]) -> Analysis {
        let mut out = Analysis::default();
        for &(key, seen, errors, ms) in keys {
            let mut stat = Tally {
                seen,
                errors,
                times: vec![ms; (seen - errors) as usize],
            };
            stat.finish();
            out.overall.merge(&stat);
            out.keys.push(Key { key, stat });
        }
        out.overall.finish();
        out
    }

    #[test]
    fn drills_drill_only_letters_weak_enough() {
        // The player's rounds: n and r went wrong often; t, i and e once each, as any key
        // does now and then. The drill is n and r, not `nrtie`.
        let common = [('t', 80, 1, 120), ('i', 60, 1, 120), ('e', 120, 1, 120)];
        let rest = [('a', 70, 0, 120), ('o', 60, 0, 120), ('s', 50, 0, 120)];
        let weak = [('n', 50, 6, 125), ('r', 45, 4, 120)];
        let a = analysis(&[&weak[..], &common[..], &rest[..]].concat());
        assert_eq!(a.drill().as_deref(), Some("nr"));
        // A letter slow enough is drilled too, after the error-prone ones.
        let slow = [('k', 30, 0, 200)];
        let a = analysis(&[&weak[..], &common[..], &rest[..], &slow[..]].concat());
        assert_eq!(a.drill().as_deref(), Some("nrk"));
        // Two errors are not enough, nor is a rate near your own.
        let a = analysis(&[('n', 20, 2, 120), ('e', 400, 20, 120), ('t', 100, 5, 120)]);
        assert_eq!(a.drill(), None, "e and t at your own rate; n twice");
        // Nothing weak: no drill.
        assert_eq!(analysis(&[&common[..], &rest[..]].concat()).drill(), None);
    }

    #[test]
    fn the_worst_keys_by_errors_leave_out_keys_never_wrong() {
        let a = analysis(&[('a', 30, 0, 100), ('b', 30, 3, 100), ('q', 4, 1, 300)]);
        let by_errors: Vec<char> = a.worst_keys(By::Errors, 10).iter().map(|k| k.key).collect();
        assert_eq!(by_errors, ['b'], "no 0.0% wrong");
        let by_time: Vec<char> = a.worst_keys(By::Time, 10).iter().map(|k| k.key).collect();
        assert_eq!(
            by_time,
            ['b', 'a'],
            "by time every key ranks, errors breaking ties"
        );
        // q is shaded on the keyboard but seen too seldom to rank: the screen says so.
        assert_eq!(a.unranked(), "q");
    }

    fn replay(mode: &str, text: &str) -> Replay {
        format!("typepper replay\nengine 1\nmode {mode}\nseed 42\n{text}")
            .parse()
            .unwrap()
    }

    #[test]
    fn a_slip_a_fix_and_a_skip_count_where_the_rules_say() {
        // Seed 42 starts "dream week": d, r, a slip (x for e), backspace, e, a, m, space,
        // then w and a space that skips "eek".
        let r = replay(
            "zen",
            "+0 'd'\n+100 'r'\n+100 'x'\n+100 backspace\n+150 'e'\n+100 'a'\n+100 'm'\n+100 space\n+200 'w'\n+100 space\n+100 end\n",
        );
        assert_eq!(r.play().unwrap().1.mode, Mode::ZEN);
        let a = Analysis::of([&r]);
        assert_eq!(a.rounds, 1);
        let e = a.key('e').unwrap();
        // Asked at "dr_eam" (x wrong, then e right after the backspace), and three times
        // in "w_eek": the space there (wrong), then two missed.
        assert_eq!((e.seen, e.errors), (4, 3));
        assert_eq!(e.median_ms(), Some(150), "from the backspace");
        let space = a.key(' ').unwrap();
        assert_eq!((space.seen, space.errors), (1, 0), "the early space is e's");
        assert_eq!(a.key('k').unwrap().errors, 1, "missed");
        assert_eq!(
            a.key('d').unwrap().median_ms(),
            None,
            "the first key has no time"
        );
        // "re" went wrong (the x), and "we" (the early space); the e typed after the
        // backspace ends no pair.
        let pairs: Vec<_> = a
            .all_pairs
            .iter()
            .map(|p| (p.pair, p.stat.errors))
            .collect();
        assert_eq!(
            pairs,
            [
                (['a', 'm'], 0),
                (['d', 'r'], 0),
                (['e', 'a'], 0),
                (['r', 'e'], 1),
                (['w', 'e'], 1)
            ]
        );
    }

    #[test]
    fn times_sort_as_the_standard_sort_would() {
        // The heap sort that replaced `sort_unstable` (issue 41), on a few thousand times
        // with repeats, as a long history gives one key.
        let mut s = Tally::default();
        let mut x = 12_345_u32;
        for _ in 0..5_000 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            s.add(true, Some(x >> 22));
        }
        let mut sorted = s.times.clone();
        sorted.sort_unstable();
        s.finish();
        assert_eq!(s.times, sorted);
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let mut s = Tally::default();
        for t in [50, 10, 40, 20, 30] {
            s.add(true, Some(t));
        }
        s.add(false, Some(1));
        s.finish();
        assert_eq!((s.median_ms(), s.p90_ms()), (Some(30), Some(50)));
        assert_eq!(s.error_x100(), 1666);
        assert_eq!(percent(1666), "16.6%");
    }
}
