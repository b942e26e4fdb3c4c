//! A live room's messages: one JSON object each, a WebSocket text frame in the browser and
//! a line of `v1 room <code>` over SSH. What each means, and when it comes, is in
//! docs/spec/rooms.md.
//!
//! A key crosses as `[t, op]`: its round time in ms from the start instant, and its op's
//! number in replay format 1 ([`typepper_engine::Op::code`]), so that a racer's keys are
//! the replay they make, byte for byte.

use serde::{Deserialize, Serialize};

/// The letters a room code is drawn from: Crockford's base 32 in lower case (digits, and
/// letters but `i`, `l`, `o` and `u`, which read as others).
pub const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// A room code's length: 40 bits, too many to guess at the join rate a server allows, and
/// read aloud in two halves (`k3fq 7m2x`).
pub const CODE_LEN: usize = 8;

/// The most racers in a room; anyone past them, or arriving after the start, watches.
pub const MAX_RACERS: usize = 16;

/// From the start asked for to the text, in ms, on the server's clock.
pub const COUNTDOWN_MS: u32 = 3_000;

/// How far past the server's own round time a key's round time may be, in ms. A key
/// reaches the server after it was typed, so an honest key's time is never past the
/// server's; this covers timers' granularity only. A key further ahead was claimed
/// before it could have been sent, and its racer is out.
pub const CLOCK_ALLOWANCE_MS: u32 = 100;

/// Most keys in one `keys` message: a frame's worth, and then some.
pub const MAX_KEYS_PER_MESSAGE: usize = 64;

/// A key: its round time in ms, and its op's number.
pub type Key = (u32, u32);

/// Whether `code` is a room code: [`CODE_LEN`] letters of [`ALPHABET`].
pub fn is_code(code: &str) -> bool {
    code.len() == CODE_LEN && code.bytes().all(|b| ALPHABET.contains(&b))
}

/// The most characters a room's own text may have: about five minutes at 60 wpm, for
/// a race, and few enough that a welcome carrying it fits one PostgreSQL notification
/// between server processes (8000 bytes) however its letters are spelled.
pub const ROOM_TEXT_CHARS: usize = 1_500;

/// `POST /v1/rooms`'s body: the mode to race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Open {
    /// The mode's key: `time:15`, or `custom` with a text.
    pub mode: String,
    /// A CUSTOM TEXT room's text, made ready as the game makes a pasted one (NFC, single
    /// spaces), at most [`ROOM_TEXT_CHARS`] characters; none for every other mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// `POST /v1/rooms`'s answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opened {
    /// The room's code.
    pub code: String,
    /// The game's link to it: `https://typepper.com/?room=k3fq7m2x`.
    pub link: String,
}

/// What a client says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ask {
    /// The first message: who joins. A linked player gives their token and races under
    /// their name; anyone else gives a name for this room only. `resume` is the secret a
    /// racer was given on joining, to come back to the same place after a lost connection.
    Hello {
        /// A name for this room (3 to 20 letters, digits, `_` or `-`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// The player's token, for a linked player.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
        /// The secret from [`Say::Welcome`], to take one's place back.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resume: Option<String>,
    },
    /// Ready to race, or (again) not.
    Ready,
    /// The owner starts the countdown.
    Start,
    /// Keys typed since the last message, in order.
    Keys(Vec<Key>),
    /// After the results: the same room again, on a new seed.
    Rematch,
    /// Leaving for good (a closed tab).
    Leave,
}

/// What a racer is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// In the lobby.
    Waiting,
    /// In the lobby, ready.
    Ready,
    /// Racing.
    Typing,
    /// Their round is over.
    Done,
    /// Their connection went; they may come back within the round.
    Gone,
    /// Put out of the race by the server, with a reason.
    Out,
}

/// One racer, as the lobby and the race list them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Racer {
    /// Their number in this room.
    pub id: u32,
    /// Their name.
    pub name: String,
    /// What they are doing.
    pub state: State,
    /// A guest: they never linked a game, and the name is theirs for this room only.
    #[serde(default, skip_serializing_if = "is_false")]
    pub guest: bool,
}

fn is_false(b: &bool) -> bool {
    !b
}

/// Where the room is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Waiting for the start.
    Lobby,
    /// Counting down to the text.
    Countdown,
    /// Racing.
    Racing,
    /// Every round is over.
    Over,
}

/// A racer's finished round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finish {
    /// Who.
    pub racer: u32,
    /// Their headline's number, in the room's mode's unit ([`typepper_engine::Mode::unit`]):
    /// `92` (wpm), `31` (words in HOT PURSUIT). The game words it, as the engine's
    /// [`typepper_engine::Headline`] does.
    pub headline: u32,
    /// Their stored run, for a linked racer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// Its share link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share: Option<String>,
    /// What became of it.
    pub kept: Kept,
}

/// What became of a room's finished round: a submission's answer line as a value
/// (docs/spec/replays.md), so that the game words it once and gives it a colour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kept {
    /// Stored, and on the boards.
    Ranked,
    /// Stored and shareable, off the boards: a submission's `unranked <reason>`. The
    /// reason has no kind: a run keeps it as the sentence its answer says.
    Unranked {
        /// Why, in a sentence.
        why: String,
    },
    /// Ranked, but off the boards until its player confirms it: `pending <reason>`.
    Pending {
        /// Why, in a sentence.
        why: String,
    },
    /// Not stored: `no <kind> <reason>`.
    NotStored {
        /// What kind of reason, for a program to match on: one of [`crate::REFUSALS`]
        /// for a round a submission's checks refuse (`too_little`, `copy`), or one of
        /// a room's own ([`QUOTA`], [`GUEST_QUOTA`], [`UNAVAILABLE`]).
        kind: String,
        /// Why, in a sentence.
        why: String,
    },
}

/// [`Kept::NotStored`]'s kind for a round past its player's daily quota, which a
/// submission is refused as a whole for (HTTP's `429`).
pub const QUOTA: &str = "quota";

/// [`Kept::NotStored`]'s kind for a guest's round past their address's guest rounds an
/// hour.
pub const GUEST_QUOTA: &str = "guest_quota";

/// [`Kept::NotStored`]'s kind for a round the server could not store: its database, or
/// its verification, failed (HTTP's `503`).
pub const UNAVAILABLE: &str = "unavailable";

impl Kept {
    /// Not stored: a reason of `kind`, and its sentence.
    pub fn not_stored(kind: &str, why: impl core::fmt::Display) -> Kept {
        Kept::NotStored {
            kind: kind.into(),
            why: why.to_string(),
        }
    }
}

impl From<crate::Ranked> for Kept {
    /// A stored run's standing, as its answer line has it.
    fn from(ranked: crate::Ranked) -> Kept {
        match ranked {
            crate::Ranked::Yes => Kept::Ranked,
            crate::Ranked::No(why) => Kept::Unranked { why },
            crate::Ranked::Pending(why) => Kept::Pending { why },
        }
    }
}

/// What the server says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Say {
    /// Joined: the room, and who you are in it (`you` is `None` for a spectator).
    Welcome {
        /// Its code.
        room: String,
        /// Its mode's key: `time:15`.
        mode: String,
        /// Your racer number, or none for a spectator.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        you: Option<u32>,
        /// The secret to come back with after a lost connection.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resume: Option<String>,
        /// Who may start it.
        owner: u32,
        /// The link that joins it, `<game>/?room=<code>`: a racer who joined by its code
        /// alone can pass it on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        link: Option<String>,
        /// A CUSTOM TEXT room's text, which every round of the room is on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// Everyone in the room, and where it is: after any change.
    Lobby {
        /// Where the room is.
        phase: Phase,
        /// The racers, in joining order.
        racers: Vec<Racer>,
        /// Who may start it: the owner passes on when they leave (0: no racer).
        #[serde(default)]
        owner: u32,
    },
    /// The text comes in this many ms.
    Countdown(u32),
    /// The text: every round starts now, on this seed, in the room's mode. The seed
    /// crosses as a decimal string, as an issued seed does.
    Go(#[serde(with = "crate::decimal")] u64),
    /// A racer's keys, as the server took them.
    Keys {
        /// Whose.
        racer: u32,
        /// The keys.
        keys: Vec<Key>,
    },
    /// Back after a lost connection: the round is this far along and these keys were yours.
    Resume {
        /// The round's seed, a decimal string.
        #[serde(with = "crate::decimal")]
        seed: u64,
        /// The round time now, in ms.
        at: u32,
        /// Every key of yours the server has.
        keys: Vec<Key>,
    },
    /// A racer is out of the race, and why.
    Out {
        /// Who.
        racer: u32,
        /// Why, in a sentence for their screen.
        why: String,
    },
    /// Every round is over: the finishers, best first.
    Results(Vec<Finish>),
    /// Your last message was refused, and why; the connection stays unless it says so.
    Refused(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finished round's JSON, both ways: the shape docs/spec/rooms.md shows.
    #[test]
    fn a_finish_crosses_as_values() {
        let table = [
            (
                Finish {
                    racer: 1,
                    headline: 92,
                    run: Some("7Xf9qyuC".into()),
                    share: Some("https://r.typepper.com/7Xf9qyuC".into()),
                    kept: Kept::Ranked,
                },
                r#"{"racer":1,"headline":92,"run":"7Xf9qyuC","share":"https://r.typepper.com/7Xf9qyuC","kept":"ranked"}"#,
            ),
            (
                Finish {
                    racer: 2,
                    headline: 31,
                    run: Some("abcdEFGH".into()),
                    share: Some("http://x/r/abcdEFGH".into()),
                    kept: Kept::Unranked {
                        why: "raced as a guest".into(),
                    },
                },
                r#"{"racer":2,"headline":31,"run":"abcdEFGH","share":"http://x/r/abcdEFGH","kept":{"unranked":{"why":"raced as a guest"}}}"#,
            ),
            (
                Finish {
                    racer: 3,
                    headline: 140,
                    run: None,
                    share: None,
                    kept: Kept::Pending {
                        why: "far above your ranked best".into(),
                    },
                },
                r#"{"racer":3,"headline":140,"kept":{"pending":{"why":"far above your ranked best"}}}"#,
            ),
            (
                Finish {
                    racer: 4,
                    headline: 9,
                    run: None,
                    share: None,
                    kept: Kept::not_stored("too_little", "too little typing to keep"),
                },
                r#"{"racer":4,"headline":9,"kept":{"not_stored":{"kind":"too_little","why":"too little typing to keep"}}}"#,
            ),
        ];
        for (finish, json) in table {
            assert_eq!(serde_json::to_string(&finish).unwrap(), json);
            assert_eq!(serde_json::from_str::<Finish>(json).unwrap(), finish);
        }
    }

    #[test]
    fn a_stored_run_s_standing_is_what_it_kept() {
        assert_eq!(Kept::from(crate::Ranked::Yes), Kept::Ranked);
        assert_eq!(
            Kept::from(crate::Ranked::No("drills are never ranked".into())),
            Kept::Unranked {
                why: "drills are never ranked".into()
            }
        );
        assert_eq!(
            Kept::from(crate::Ranked::Pending("far above".into())),
            Kept::Pending {
                why: "far above".into()
            }
        );
    }
}
