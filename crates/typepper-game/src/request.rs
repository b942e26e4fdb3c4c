//! What the game asks of the server, and what comes back: the one typed seam every shell
//! carries, however it reaches the server (HTTP from the browser, `ssh` from the
//! terminal, a direct call inside the server's own `ssh` game).
//!
//! A shell turns each [`Request`] into its own transport, and hands the result back as an
//! [`Answer`] to the app (`App::answer`); when it can't, it says why with a
//! [`Failure`], whose `Display` is the only wording of it.

use std::fmt;

use typepper_api::devices::{DeviceCode, Devices};
use typepper_api::profile::Profile;
use typepper_api::room::{Opened, Say};
use typepper_api::{BoardRow, IssuedSeed, Period, Player};
use typepper_engine::said::quoted;
use typepper_engine::{Base, Language, Mode, quotes, words};

/// A request to the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `POST /v1/submit` with `body` as `token`'s player.
    Submit {
        /// The player's token.
        token: String,
        /// Back-to-back rounds, each after its claimed score.
        body: Vec<u8>,
        /// The outbox keys of the rounds, in body order.
        keys: Vec<String>,
    },
    /// `POST /v1/players` for this name: link the game.
    Link(String),
    /// `GET /v1/boards/<mode>?period=<period>`.
    Board(String, Period),
    /// `GET /v1/runs/<id>`: a run's replay bytes. The id is a run id
    /// ([`typepper_api::is_run_id`]): the game asks for no other.
    Run(String),
    /// `POST /v1/seeds` for this mode key with the player's token.
    Seed {
        /// The player's token.
        token: String,
        /// The mode key.
        mode: String,
    },
    /// `POST /v1/rooms` for this mode key (and a custom room's text).
    OpenRoom(typepper_api::room::Open),
    /// `POST /v1/devices/claim` with this code, as typed: this device becomes the code's
    /// player (answered as [`Answer::Linked`]). The shell names the device itself.
    Claim(String),
    /// `POST /v1/devices/code` with the player's token: a code for another device.
    DeviceCode(String),
    /// `GET /v1/devices` with the player's token.
    Devices(String),
    /// `DELETE /v1/devices/<id>` with the player's token.
    RemoveDevice {
        /// The player's token.
        token: String,
        /// The device's id.
        id: String,
    },
    /// `GET /v1/players/<name>`: a player's profile. The name is a name
    /// ([`typepper_api::check_name`]): the game asks for no other.
    Profile(String),
    /// `GET /v1/daily` (today's) or `/v1/daily/<n>`, with the player's token when linked:
    /// the daily, its board, and where the player stands on it.
    Daily {
        /// The player's token, if linked.
        token: Option<String>,
        /// A past daily's number; `None` for today's.
        number: Option<u32>,
    },
    /// `GET /v1/settings` with the player's token: the settings kept with the player.
    Settings(String),
    /// `PUT /v1/settings` with the player's token: keeps `text` as the player's settings.
    SaveSettings {
        /// The player's token.
        token: String,
        /// The settings file.
        text: String,
    },
    /// `GET /words/<file name>` or `/quotes/<file name>` ([`Need::path`]): a language's
    /// word list or quotes, which a build without them (the browser's) installs before a
    /// round needs them. The game asks only for a file its build lacks; a shell whose
    /// build has every file answers with [`Need::file_here`].
    File(Need),
}

/// A file a round needs and a build may lack (the browser's carries none, English's
/// words included): a language's word list, or its quotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Need {
    /// A word list, served at `/words/<file name>`.
    Words(Language),
    /// Passages for QUOTE rounds, served at `/quotes/<file name>`.
    Quotes(Language),
}

impl Need {
    /// What a round of `mode` needs: its quotes for a QUOTE, else its language's words.
    pub fn of(mode: Mode) -> Need {
        let language = mode.prose().language;
        match mode.base() {
            Base::Quote(_) => Need::Quotes(language),
            _ => Need::Words(language),
        }
    }

    /// Where the game's origin serves it: `/words/fr.<checksum>.txt`,
    /// `/quotes/en.<checksum>.txt`.
    pub fn path(self) -> String {
        match self {
            Need::Words(language) => format!("/words/{}", language.file_name()),
            Need::Quotes(language) => {
                format!(
                    "/quotes/{}",
                    quotes::file_name(language).unwrap_or_default()
                )
            }
        }
    }

    /// Whether this build has it (carried, or installed).
    pub fn is_in(self) -> bool {
        match self {
            Need::Words(language) => language.words().is_some(),
            Need::Quotes(language) => quotes::passages(language).is_some(),
        }
    }

    /// Installs `file` for the run, if it is the one the rules were frozen with.
    pub fn install(self, file: String) -> Result<(), String> {
        match self {
            Need::Words(language) => words::install(language, file).map_err(|e| e.to_string()),
            Need::Quotes(language) => quotes::install(language, file).map_err(|e| e.to_string()),
        }
    }

    /// Its file as this build has it, if it does ([`list_file`], [`quotes::file`]).
    pub fn file_here(self) -> Option<String> {
        match self {
            Need::Words(language) => list_file(language),
            Need::Quotes(language) => quotes::file(language),
        }
    }
}

impl fmt::Display for Need {
    /// `the français words`, `the english quotes`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Need::Words(language) => write!(f, "the {} words", language.name()),
            Need::Quotes(language) => write!(f, "the {} quotes", language.name()),
        }
    }
}

impl Request {
    /// The answer this build gives itself, with no server: a word list it carries (the
    /// terminal's and the server's builds carry every one, so the game never asks them
    /// for one). `None` for every request that goes to the server.
    pub fn answered_here(&self) -> Option<Answer> {
        let Request::File(need) = *self else {
            return None;
        };
        let missing = || Failure::CantAsk(format!("this build doesn't have {need}"));
        Some(Answer::File {
            need,
            file: need.file_here().ok_or_else(missing),
        })
    }

    /// The answer that says this request failed, for `why`.
    pub fn failed(self, why: Failure) -> Answer {
        match self {
            Request::Submit { keys, .. } => Answer::Submitted {
                keys,
                answer: Err(why),
            },
            Request::Link(_) => Answer::Linked(Err(why)),
            Request::Board(mode, period) => Answer::Board {
                mode,
                period,
                rows: Err(why),
            },
            Request::Run(id) => Answer::Run {
                id,
                bytes: Err(why),
            },
            Request::Seed { mode, .. } => Answer::Seed {
                mode,
                answer: Err(why),
            },
            Request::OpenRoom(_) => Answer::RoomOpened(Err(why)),
            Request::Claim(_) => Answer::Linked(Err(why)),
            Request::DeviceCode(_) => Answer::DeviceCode(Err(why)),
            Request::Devices(_) => Answer::Devices(Err(why)),
            Request::RemoveDevice { id, .. } => Answer::DeviceRemoved { id, done: Err(why) },
            Request::Profile(name) => Answer::Profile {
                name,
                profile: Err(why),
            },
            Request::Daily { number, .. } => Answer::Daily {
                number,
                daily: Err(why),
            },
            Request::Settings(_) => Answer::Settings(Err(why)),
            Request::SaveSettings { .. } => Answer::SettingsSaved(Err(why)),
            Request::File(need) => Answer::File {
                need,
                file: Err(why),
            },
        }
    }
}

impl Answer {
    /// Why the server no longer takes this game's token or key, when it said so: the
    /// device was removed, or the account deleted.
    pub fn not_linked(&self) -> Option<&str> {
        let failure = match self {
            Answer::Submitted { answer, .. } => answer.as_ref().err(),
            Answer::Seed { answer, .. } => answer.as_ref().err(),
            Answer::Devices(answer) => answer.as_ref().err(),
            Answer::DeviceCode(answer) => answer.as_ref().err(),
            Answer::DeviceRemoved { done, .. } => done.as_ref().err(),
            Answer::Settings(answer) => answer.as_ref().err(),
            Answer::SettingsSaved(answer) => answer.as_ref().err(),
            _ => None,
        };
        match failure {
            Some(Failure::NotLinked(why)) => Some(why),
            _ => None,
        }
    }
}

/// What the server said to a [`Request`], or what a live room says.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// To [`Request::Submit`]: the answer lines.
    Submitted {
        /// The outbox keys of the rounds sent.
        keys: Vec<String>,
        /// One line a round, in body order.
        answer: Result<String, Failure>,
    },
    /// To [`Request::Link`].
    Linked(Result<Player, Failure>),
    /// To [`Request::Board`].
    Board {
        /// The mode key.
        mode: String,
        /// The period asked for.
        period: Period,
        /// Its rows.
        rows: Result<Vec<BoardRow>, Failure>,
    },
    /// To [`Request::Run`].
    Run {
        /// The run.
        id: String,
        /// Its replay bytes.
        bytes: Result<Vec<u8>, Failure>,
    },
    /// To [`Request::Seed`].
    Seed {
        /// The mode key.
        mode: String,
        /// The seed.
        answer: Result<IssuedSeed, Failure>,
    },
    /// To [`Request::OpenRoom`].
    RoomOpened(Result<Opened, Failure>),
    /// To [`Request::DeviceCode`].
    DeviceCode(Result<DeviceCode, Failure>),
    /// To [`Request::Devices`].
    Devices(Result<Devices, Failure>),
    /// To [`Request::RemoveDevice`].
    DeviceRemoved {
        /// The device's id.
        id: String,
        /// Whether it went.
        done: Result<(), Failure>,
    },
    /// To [`Request::Profile`].
    Profile {
        /// Whose.
        name: String,
        /// Their profile.
        profile: Result<Profile, Failure>,
    },
    /// To [`Request::Daily`].
    Daily {
        /// The number asked for; `None` for today's.
        number: Option<u32>,
        /// The daily.
        daily: Result<typepper_api::daily::Daily, Failure>,
    },
    /// To [`Request::Settings`]: the player's settings file (empty: none kept yet).
    Settings(Result<String, Failure>),
    /// To [`Request::SaveSettings`].
    SettingsSaved(Result<(), Failure>),
    /// To [`Request::File`]: the file, which the game checks before it plays it.
    File {
        /// What it is.
        need: Need,
        /// The file's text.
        file: Result<String, Failure>,
    },
    /// The room connection the app asked to join (`Effect::JoinRoom`) is up.
    RoomConnected,
    /// What the room says.
    RoomSaid(Say),
    /// The room's connection closed, and why, in words.
    RoomClosed(String),
}

/// Why a request got no answer from the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The server couldn't be reached, and why: the rounds wait for later.
    Unreachable(String),
    /// The shell can't ask at all, in its own words (no server set; no key the server
    /// takes): the rounds wait for later, as when it is unreachable.
    CantAsk(String),
    /// The token or key is no player's: the game must link again. The server's sentence.
    NotLinked(String),
    /// The server refused it, with its sentence.
    Refused(String),
    /// No such run: it never was, or it expired.
    NoSuchRun,
    /// What was asked for as a run isn't a run id ([`typepper_api::is_run_id`]).
    NotARunId(String),
    /// The server's answer isn't the `what` asked for (`a seed`), and why when known.
    Unreadable {
        /// What was expected.
        what: &'static str,
        /// What was wrong with it.
        why: Option<String>,
    },
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Unreachable(why) => write!(f, "the server is unreachable ({why})"),
            Failure::CantAsk(why) | Failure::NotLinked(why) | Failure::Refused(why) => {
                f.write_str(why)
            }
            Failure::NoSuchRun => f.write_str("no such run: missing or expired"),
            Failure::NotARunId(id) => write!(f, "{} is not a run id", quoted(id)),
            Failure::Unreadable { what, why: None } => {
                write!(f, "the server's answer isn't {what}")
            }
            Failure::Unreadable {
                what,
                why: Some(why),
            } => write!(f, "the server's answer isn't {what} ({why})"),
        }
    }
}

impl std::error::Error for Failure {}

/// The file of `language`'s list, as the server serves it at `/words/<file name>`: each
/// word followed by a newline. `None` when this build doesn't have the list (the
/// browser's, before it is installed) or what it has isn't the list the rules were
/// frozen with.
pub fn list_file(language: Language) -> Option<String> {
    let words = language.words()?;
    let mut file = String::with_capacity(words.iter().map(|w| w.len() + 1).sum());
    for word in words {
        file.push_str(word);
        file.push('\n');
    }
    (typepper_engine::words::checksum(file.as_bytes()) == language.checksum()).then_some(file)
}

/// What is said when a kept file can't be written: the round was played and counts all
/// the same (it is in the outbox, or on the server).
pub fn unsaved(why: &str) -> String {
    format!("{why}: the round still counts")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_request_answers_what_was_asked_for() {
        let answer = Request::Board("time:15".into(), Period::Week).failed(Failure::NoSuchRun);
        assert_eq!(
            answer,
            Answer::Board {
                mode: "time:15".into(),
                period: Period::Week,
                rows: Err(Failure::NoSuchRun)
            }
        );
        let Answer::Submitted { keys, answer } = Request::Submit {
            token: "t".into(),
            body: vec![1],
            keys: vec!["k".into()],
        }
        .failed(Failure::Unreachable("down".into())) else {
            panic!("a submission's failure answers the submission");
        };
        assert_eq!(keys, ["k"]);
        let why = answer.unwrap_err();
        assert_eq!(why.to_string(), "the server is unreachable (down)");
    }

    #[test]
    fn every_list_file_is_the_one_its_checksum_names() {
        for language in Language::ALL {
            let file = list_file(language).expect("the game's tests carry every list");
            assert_eq!(
                typepper_engine::words::checksum(file.as_bytes()),
                language.checksum(),
                "{}",
                language.code()
            );
            assert_eq!(file.lines().count(), language.words().unwrap().len());
        }
    }

    #[test]
    fn an_answer_that_does_not_read_says_what_it_is_not() {
        let unreadable = Failure::Unreadable {
            what: "a seed",
            why: Some("eof".into()),
        };
        assert_eq!(
            unreadable.to_string(),
            "the server's answer isn't a seed (eof)"
        );
    }
}
