//! What the game keeps, and the text of each entry: the same keys and texts in the
//! browser's localStorage and, as files, in the terminal game's data dir.
//!
//! | key | value |
//! |---|---|
//! | `last.replay` | the last round of yours, format 1 bytes as lower-case hex |
//! | `history` | your last 50 rounds, one line each, oldest first (below) |
//! | `outbox/<unix ms>` | a linked game's round not yet sent: its hex, kept until the server answers for it |
//! | `player` | the linked player: `<name> <token>` (the token is the server's secret for them) |
//! | `drill` | the last drill's letters, which the menu offers again |
//! | `live` | `off` when the live wpm and accuracy were hidden, before settings (read where `settings` doesn't say) |
//! | `settings` | the settings, a `name value` line each (the `settings` module) |
//! | `menu` | the menu's picks: `<BLITZ secs> <WORDS count> <level> <text>`, e.g. `30 25 7 /p@fr` (`-` for plain English), then the QUOTE length (`short`, `medium`, `long`, `any`) |
//! | `text` | the last custom text played, as played (NFC, single spaces) |
//!
//! A `history` line is four fields separated by one space, and `room` after them for a
//! round raced in a live room:
//!
//! ```text
//! 1 1764614400000 5450520101000000… https://r.typepper.com/7Xf9qyuC
//! 1 1764614460000 5450520101000000… https://r.typepper.com/9aB3xQ2k room
//! ```
//!
//! the line format (`1`), when the round ended (unix ms), the replay as hex, and its
//! share link or `-` until it has one. The score is not stored: playing the replay gives
//! it, so a line can't claim a score its round didn't make. A line that doesn't read is
//! skipped with a console warning; the rest still load.
//!
//! A build without every word list (the browser's) installs the lists these rounds need
//! before it reads them ([`lists_needed`]). A round whose list still isn't there is not
//! lost: its history line is written back as it was, and its outbox entry stays where it
//! is, both to be read once the list is in.

use typepper_api::Player;
use typepper_engine::said::quoted;
use typepper_engine::{Header, Mode, PlayError, Replay, Score, hex};

use crate::request::Need;

/// The history keeps this many rounds.
pub const HISTORY_MAX: usize = 50;
/// The last round's key.
pub const LAST: &str = "last.replay";
/// The history's key.
pub const HISTORY: &str = "history";
/// The outbox's keys start with this, then the round's unix ms.
pub const OUTBOX: &str = "outbox/";
/// The linked player's key.
pub const PLAYER: &str = "player";
/// The key of the last drill's letters, which the menu offers again.
pub const DRILL: &str = "drill";
/// The key of the live stats' switch before settings: `off` hid them.
pub const LIVE: &str = "live";
/// The settings' key.
pub const SETTINGS: &str = "settings";
/// The key of the menu's picks: lengths, level and the text's options.
pub const MENU: &str = "menu";
/// The key of the last custom text played.
pub const TEXT: &str = "text";
/// The key of the seat last held in a room: `<code> <secret> <name>`.
pub const ROOM: &str = "room";

/// A round of yours waiting to be sent, as kept in `outbox/<unix ms>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    /// When it ended.
    pub unix_ms: u64,
    /// Its bytes.
    pub replay: Vec<u8>,
    /// Its headline number.
    pub claim: u32,
}

impl Outgoing {
    /// Its key: `outbox/<unix ms>`.
    pub fn key(&self) -> String {
        format!("{OUTBOX}{}", self.unix_ms)
    }
}

/// What the game reads of what it kept, at boot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stored {
    /// `history`'s text.
    pub history: String,
    /// Every `outbox/…` key with its text.
    pub outbox: Vec<(String, String)>,
    /// `player`'s text.
    pub player: Option<String>,
    /// `drill`'s text: the last drill's letters.
    pub drill: Option<String>,
    /// `live`'s text: `off` hid the live stats, before settings.
    pub live: Option<String>,
    /// `settings`' text.
    pub settings: Option<String>,
    /// `room`'s text: the seat last held in a room.
    pub room: Option<String>,
    /// `menu`'s text: the menu's picks.
    pub menu: Option<String>,
    /// `text`'s text: the last custom text played.
    pub text: Option<String>,
}

/// Why a kept round doesn't read now.
enum Unread {
    /// It never will: it is dropped.
    Bad(String),
    /// Its words or quotes aren't installed: it is kept as it is, for a run that has them.
    Unlisted(Need),
}

impl From<String> for Unread {
    fn from(why: String) -> Unread {
        Unread::Bad(why)
    }
}

impl From<&str> for Unread {
    fn from(why: &str) -> Unread {
        Unread::Bad(why.into())
    }
}

/// Plays `replay`, telling a missing list apart from every other refusal.
fn play_kept(replay: &Replay) -> Result<Score, Unread> {
    match replay.score() {
        Ok(score) => Ok(score),
        Err(PlayError::Unlisted(language)) => Err(Unread::Unlisted(Need::Words(language))),
        Err(PlayError::Unquoted(language)) => Err(Unread::Unlisted(Need::Quotes(language))),
        Err(e) => Err(Unread::Bad(e.to_string())),
    }
}

/// Reads the outbox: the rounds that read, oldest first; the keys of entries that don't
/// (to remove); a warning for each of those. An entry whose language's list isn't
/// installed is neither: it stays kept, and is read (and sent) in a run that has it.
pub fn parse_outbox(entries: &[(String, String)]) -> (Vec<Outgoing>, Vec<String>, Vec<String>) {
    let (mut good, mut bad, mut warnings) = (vec![], vec![], vec![]);
    for (key, value) in entries {
        let read = || -> Result<Outgoing, Unread> {
            let ms = key.strip_prefix(OUTBOX).and_then(|k| k.parse().ok());
            let unix_ms = ms.ok_or("its key is not outbox/<unix ms>")?;
            let replay = hex::decode(value).ok_or("it is not hex")?;
            let decoded = Replay::decode(&replay).map_err(|e| e.to_string())?;
            let score = play_kept(&decoded)?;
            Ok(Outgoing {
                unix_ms,
                claim: score.headline().value,
                replay,
            })
        };
        match read() {
            // Kept in order as they come (after those with the same time, as a stable
            // sort would): `sort_by_key` brought the standard library's stable sort, 2.1 KB
            // gzip of the browser's wasm, for a list of a few rounds.
            Ok(o) => {
                let at = good.partition_point(|g: &Outgoing| g.unix_ms <= o.unix_ms);
                good.insert(at, o);
            }
            Err(Unread::Bad(why)) => {
                warnings.push(format!("outbox entry {key} dropped: {why}"));
                bad.push(key.clone());
            }
            Err(Unread::Unlisted(need)) => warnings.push(format!(
                "outbox entry {key} waits: {need} aren't loaded, so it is sent later"
            )),
        }
    }
    (good, bad, warnings)
}

/// The word lists and quotes the kept rounds need and this build lacks: the history's
/// and the outbox's. A shell without every file (the browser) installs these before
/// the game starts (`App::new`), or those rounds wait in storage unread.
pub fn lists_needed(stored: &Stored) -> Vec<Need> {
    let history = stored.history.lines().filter_map(|l| l.split(' ').nth(2));
    let outbox = stored.outbox.iter().map(|(_, value)| value.as_str());
    let mut needed = vec![];
    for text in history.chain(outbox) {
        let Some(bytes) = hex::decode(text.trim()) else {
            continue;
        };
        let need = Header::peek(&bytes)
            .ok()
            .and_then(|h| h.mode.parse::<Mode>().ok())
            .map(Need::of);
        if let Some(need) = need
            && !need.is_in()
            && !needed.contains(&need)
        {
            needed.push(need);
        }
    }
    needed
}

/// `<name> <token>`, or `<name>` alone, as `player` holds it.
pub fn parse_player(text: &str) -> Option<Player> {
    let text = text.trim();
    // A player linked over SSH by a key that was linked already has no token: its key is
    // what links it.
    let (name, token) = text.split_once(' ').unwrap_or((text, ""));
    typepper_api::check_name(name).ok()?;
    let token_ok = token.bytes().all(|b| b.is_ascii_alphanumeric());
    token_ok.then(|| Player {
        name: name.to_owned(),
        token: token.to_owned(),
    })
}

/// The text `player` holds for `player`.
pub fn format_player(player: &Player) -> String {
    if player.token.is_empty() {
        return player.name.clone();
    }
    format!("{} {}", player.name, player.token)
}

/// One round of the history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// When it ended.
    pub unix_ms: u64,
    /// The round.
    pub replay: Replay,
    /// What it scored (from playing the replay).
    pub score: Score,
    /// Its share link, once it has one.
    pub share: Option<String>,
    /// Raced in a live room.
    pub room: bool,
}

/// Reads `history` text: the entries that read, and a warning for each line that didn't.
pub fn parse_history(text: &str) -> (Vec<Entry>, Vec<String>) {
    let read = read_history(text);
    (read.entries, read.warnings)
}

/// The history as read: its rounds, the lines of rounds whose list isn't installed
/// (kept as they are), and a warning for each line that is neither.
#[derive(Debug, Default)]
pub(crate) struct ReadHistory {
    pub(crate) entries: Vec<Entry>,
    /// Each line whose round can't be played yet, with when it ended.
    pub(crate) unlisted: Vec<(u64, String)>,
    pub(crate) warnings: Vec<String>,
}

pub(crate) fn read_history(text: &str) -> ReadHistory {
    let mut read = ReadHistory::default();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match parse_line(line) {
            Ok(entry) => read.entries.push(entry),
            Err(Unread::Bad(why)) => read
                .warnings
                .push(format!("history line {} skipped: {why}", n + 1)),
            Err(Unread::Unlisted(need)) => {
                let when = line.split(' ').nth(1).and_then(|w| w.parse().ok());
                read.unlisted.push((when.unwrap_or(0), line.to_owned()));
                read.warnings.push(format!(
                    "history line {} kept unread: {need} aren't loaded",
                    n + 1
                ));
            }
        }
    }
    let excess = read.entries.len().saturating_sub(HISTORY_MAX);
    read.entries.drain(..excess);
    read
}

fn parse_line(line: &str) -> Result<Entry, Unread> {
    let fields: Vec<&str> = line.split(' ').collect();
    let (room, fields) = match fields[..] {
        [ref four @ .., "room"] => (true, four),
        ref four => (false, four),
    };
    let [version, when, replay, share] = fields[..] else {
        return Err(format!("{} fields, not 4", fields.len()).into());
    };
    if version != "1" {
        return Err(format!("line format {}, not 1", quoted(version)).into());
    }
    let unix_ms = when
        .parse()
        .map_err(|_| format!("{} is not a time", quoted(when)))?;
    let bytes = hex::decode(replay).ok_or("the replay is not hex")?;
    let replay = Replay::decode(&bytes).map_err(|e| format!("the replay: {e}"))?;
    let share = match share {
        "-" => None,
        url if url.starts_with("https://") || url.starts_with("http://") => Some(url.to_owned()),
        other => return Err(format!("{} is not a share link", quoted(other)).into()),
    };
    let score = play_kept(&replay).map_err(|e| match e {
        Unread::Bad(why) => Unread::Bad(format!("the replay: {why}")),
        unlisted => unlisted,
    })?;
    Ok(Entry {
        unix_ms,
        replay,
        score,
        share,
        room,
    })
}

/// The `history` text of `entries`.
pub fn format_history(entries: &[Entry]) -> String {
    format_history_with(entries, &[])
}

/// The `history` text of `entries` and of the `unlisted` lines kept as they were read,
/// oldest first.
pub(crate) fn format_history_with(entries: &[Entry], unlisted: &[(u64, String)]) -> String {
    let mut out = String::new();
    // Both oldest first, as read: merged, not sorted (a sort's code costs the wasm).
    let mut waiting = unlisted.iter().peekable();
    for e in entries {
        while let Some((_, line)) = waiting.next_if(|(when, _)| *when <= e.unix_ms) {
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(&format!(
            "1 {} {} {}{}\n",
            e.unix_ms,
            hex::encode(&e.replay.encode()),
            e.share.as_deref().unwrap_or("-"),
            if e.room { " room" } else { "" }
        ));
    }
    for (_, line) in waiting {
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use typepper_engine::Mode;
    use typepper_engine::synth::{Typist, synth};

    fn entry(seed: u64) -> Entry {
        let replay = synth(Mode::BLITZ_15, seed, &Typist::default());
        let (_, score) = replay.play().unwrap();
        Entry {
            unix_ms: 1_764_614_400_000 + seed,
            replay,
            score,
            share: seed
                .is_multiple_of(2)
                .then(|| format!("https://r.typepper.com/run{seed}")),
            room: seed % 3 == 1,
        }
    }

    #[test]
    fn history_round_trips() {
        let entries: Vec<Entry> = (0..4).map(entry).collect();
        let text = format_history(&entries);
        assert_eq!(text.lines().count(), 4);
        // A room's race is marked as one (the play-test found the history didn't say).
        assert!(text.lines().nth(1).unwrap().ends_with(" room"));
        assert!(!text.lines().nth(2).unwrap().contains("room"));
        assert_eq!(parse_history(&text), (entries, vec![]));
    }

    #[test]
    fn corrupted_and_foreign_lines_are_skipped_with_a_warning() {
        let good = format_history(&[entry(1)]);
        let text = format!(
            "{good}garbage\n2 1 00 -\n1 x 00 -\n1 5 zz -\n1 5 5450 -\n1 5 {} ftp://x\n{good}",
            hex::encode(&entry(3).replay.encode())
        );
        let (entries, warnings) = parse_history(&text);
        assert_eq!(entries.len(), 2);
        assert_eq!(warnings.len(), 6, "{warnings:?}");
        assert!(warnings[0].starts_with("history line 2 skipped"));
    }

    #[test]
    fn the_outbox_reads_back_and_drops_what_does_not() {
        let e = entry(4);
        let hex = hex::encode(&e.replay.encode());
        let entries = vec![
            ("outbox/20".to_owned(), hex.clone()),
            ("outbox/10".to_owned(), hex.clone()),
            ("outbox/x".to_owned(), hex.clone()),
            ("outbox/30".to_owned(), "zz".to_owned()),
        ];
        let (good, bad, warnings) = parse_outbox(&entries);
        assert_eq!(good.iter().map(|o| o.unix_ms).collect::<Vec<_>>(), [10, 20]);
        assert_eq!(good[0].claim, e.score.headline().value);
        assert_eq!(bad, ["outbox/x", "outbox/30"]);
        assert_eq!(warnings.len(), 2);
        let ada = Player {
            name: "ada".into(),
            token: "0af3".into(),
        };
        assert_eq!(parse_player(&format_player(&ada)), Some(ada));
        assert_eq!(parse_player("a b"), None);
        assert_eq!(parse_player("ada x!"), None);
        // Linked over SSH by a key linked already: a name, no token.
        let keyed = Player {
            name: "ada".into(),
            token: String::new(),
        };
        assert_eq!(format_player(&keyed), "ada");
        assert_eq!(parse_player("ada\n"), Some(keyed));
    }

    #[test]
    fn outbox_rounds_of_one_time_stay_in_storage_order() {
        // As `sort_by_key`, a stable sort, kept them before the outbox was read in order
        // (issue 41): `outbox/010` and `outbox/10` are both at 10.
        let round = |seed| hex::encode(&entry(seed).replay.encode());
        let entries = vec![
            ("outbox/30".to_owned(), round(1)),
            ("outbox/010".to_owned(), round(2)),
            ("outbox/5".to_owned(), round(3)),
            ("outbox/10".to_owned(), round(4)),
        ];
        let (good, _, _) = parse_outbox(&entries);
        let hexes: Vec<String> = good.iter().map(|o| hex::encode(&o.replay)).collect();
        assert_eq!(hexes, [round(3), round(2), round(4), round(1)]);
    }

    #[test]
    fn lines_kept_unread_for_their_list_are_written_back_in_time_order() {
        let mut entries = vec![entry(2), entry(4)];
        entries[0].unix_ms = 10;
        entries[1].unix_ms = 30;
        let waiting = |when: u64| (when, format!("1 {when} 54505201 -"));
        let unlisted = [waiting(5), waiting(20), waiting(40)];
        let text = format_history_with(&entries, &unlisted);
        let whens: Vec<&str> = text.lines().map(|l| l.split(' ').nth(1).unwrap()).collect();
        assert_eq!(whens, ["5", "10", "20", "30", "40"]);
        assert_eq!(format_history_with(&entries, &[]), format_history(&entries));
        // Every list is in this build: nothing to install before reading.
        let stored = Stored {
            history: text,
            ..Stored::default()
        };
        assert_eq!(lists_needed(&stored), []);
    }

    #[test]
    fn only_the_last_fifty_are_kept() {
        let e = entry(2);
        let text = format_history(&vec![e; 60]);
        assert_eq!(parse_history(&text).0.len(), HISTORY_MAX);
    }
}
