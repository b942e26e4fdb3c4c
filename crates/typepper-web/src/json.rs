//! The server's JSON, read and written by hand over the browser's own `JSON.parse` and
//! `JSON.stringify`. serde's generic code for the same (through serde-wasm-bindgen) cost
//! the wasm more than a tenth of its budget, float printing for its error messages
//! among it. The test in this file checks each type both ways against serde's.

use js_sys::{Array, JSON, Reflect};
use wasm_bindgen::prelude::*;

use typepper_api::daily::{Daily, Yours};
use typepper_api::devices::{Device, DeviceCode, Devices};
use typepper_api::profile::{KeyLine, Keys, Point, Profile, ProfileRun, Typed};
use typepper_api::room::{Ask, Finish, Kept, Key, Opened, Phase, Racer, Say, State};
use typepper_api::{Board, BoardRow, IssuedSeed, Player};

/// `s` as a JSON string, quoted and escaped by the browser.
fn quoted(s: &str) -> String {
    JSON::stringify(&JsValue::from_str(s)).map_or_else(|_| "\"\"".into(), String::from)
}

/// A JSON object of string fields, those given.
pub fn object(fields: &[(&str, Option<&str>)]) -> String {
    let fields: Vec<String> = fields
        .iter()
        .filter_map(|(k, v)| v.map(|v| format!("\"{k}\":{}", quoted(v))))
        .collect();
    format!("{{{}}}", fields.join(","))
}

/// A room client's message as its JSON text (docs/spec/rooms.md).
pub fn ask(ask: &Ask) -> String {
    match ask {
        Ask::Hello {
            name,
            token,
            resume,
        } => {
            let fields = [
                ("name", name.as_deref()),
                ("token", token.as_deref()),
                ("resume", resume.as_deref()),
            ];
            format!("{{\"hello\":{}}}", object(&fields))
        }
        Ask::Ready => "\"ready\"".into(),
        Ask::Start => "\"start\"".into(),
        Ask::Rematch => "\"rematch\"".into(),
        Ask::Leave => "\"leave\"".into(),
        Ask::Keys(keys) => {
            let keys: Vec<String> = keys.iter().map(|(t, op)| format!("[{t},{op}]")).collect();
            format!("{{\"keys\":[{}]}}", keys.join(","))
        }
    }
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn text(v: &JsValue, key: &str) -> Option<String> {
    get(v, key).as_string()
}

fn number(v: &JsValue) -> Option<u32> {
    let n = v.as_f64()?;
    (n >= 0.0 && n <= f64::from(u32::MAX) && n.fract() == 0.0).then_some(n as u32)
}

/// A JSON array of `item`s. A function, not a closure, and a loop, not `collect`: each
/// closure and each collect into an `Option` was a copy of the iteration in the wasm.
fn list<T>(v: &JsValue, item: fn(&JsValue) -> Option<T>) -> Option<Vec<T>> {
    let array: &Array = v.dyn_ref()?;
    let mut out = Vec::with_capacity(array.length() as usize);
    for x in array.iter() {
        out.push(item(&x)?);
    }
    Some(out)
}

fn keys(v: &JsValue) -> Option<Vec<Key>> {
    list(v, |k| Some((number(&get(k, "0"))?, number(&get(k, "1"))?)))
}

fn seed(v: &JsValue) -> Option<u64> {
    v.as_string()?.parse().ok()
}

fn float(v: &JsValue) -> Option<f64> {
    v.as_f64()
}

/// What the server sends, read from the browser's parse of it.
pub trait FromJs: Sized {
    /// The value, if `v` is one.
    fn from_js(v: &JsValue) -> Option<Self>;
}

/// A `T` from its JSON text, or `None` if it is none.
pub fn read<T: FromJs>(json: &str) -> Option<T> {
    T::from_js(&JSON::parse(json).ok()?)
}

impl FromJs for DeviceCode {
    fn from_js(v: &JsValue) -> Option<DeviceCode> {
        Some(DeviceCode {
            code: text(v, "code")?,
            link: text(v, "link")?,
            expires_ms: float(&get(v, "expires_ms"))? as i64,
            qr: list(&get(v, "qr"), |q| q.as_string())?,
        })
    }
}

impl FromJs for Devices {
    fn from_js(v: &JsValue) -> Option<Devices> {
        Some(Devices {
            name: text(v, "name")?,
            devices: list(&get(v, "devices"), |d| {
                Some(Device {
                    id: text(d, "id")?,
                    kind: text(d, "kind")?,
                    name: text(d, "name")?,
                    added: text(d, "added")?,
                    this: get(d, "this").as_bool()?,
                })
            })?,
        })
    }
}

impl FromJs for Player {
    fn from_js(v: &JsValue) -> Option<Player> {
        Some(Player {
            name: text(v, "name")?,
            token: text(v, "token")?,
        })
    }
}

impl FromJs for IssuedSeed {
    fn from_js(v: &JsValue) -> Option<IssuedSeed> {
        Some(IssuedSeed {
            mode: text(v, "mode")?,
            seed: seed(&get(v, "seed"))?,
            expires: text(v, "expires")?,
            daily: number(&get(v, "daily")),
            unranked: text(v, "unranked"),
        })
    }
}

impl FromJs for Opened {
    fn from_js(v: &JsValue) -> Option<Opened> {
        Some(Opened {
            code: text(v, "code")?,
            link: text(v, "link")?,
        })
    }
}

fn typed(v: &JsValue) -> Option<Typed> {
    Some(Typed {
        rounds: number(&get(v, "rounds"))?,
        seconds: number(&get(v, "seconds"))?,
    })
}

fn profile_run(v: &JsValue) -> Option<ProfileRun> {
    Some(ProfileRun {
        run: text(v, "run")?,
        mode: text(v, "mode")?,
        title: text(v, "title")?,
        score: number(&get(v, "score"))?,
        unit: text(v, "unit")?,
        wpm: float(&get(v, "wpm"))?,
        accuracy: float(&get(v, "accuracy"))?,
        time: text(v, "time")?,
        ranked: get(v, "ranked").as_bool()?,
        daily: number(&get(v, "daily")),
    })
}

fn key_lines(v: &JsValue, key: &str) -> Option<Vec<KeyLine>> {
    list(&get(v, key), |l| {
        Some(KeyLine {
            key: text(l, "key")?,
            seen: number(&get(l, "seen"))?,
            error_x100: number(&get(l, "error_x100"))?,
            median_ms: number(&get(l, "median_ms"))?,
        })
    })
}

impl FromJs for Profile {
    fn from_js(v: &JsValue) -> Option<Profile> {
        let keys = get(v, "keys");
        Some(Profile {
            name: text(v, "name")?,
            joined: text(v, "joined")?,
            all: typed(&get(v, "all"))?,
            month: typed(&get(v, "month"))?,
            bests: list(&get(v, "bests"), profile_run)?,
            recent: list(&get(v, "recent"), profile_run)?,
            chart: list(&get(v, "chart"), |p| {
                Some(Point {
                    round: number(&get(p, "round"))?,
                    wpm_x100: number(&get(p, "wpm_x100"))?,
                    accuracy_x100: number(&get(p, "accuracy_x100"))?,
                })
            })?,
            keys: Keys {
                runs: number(&get(&keys, "runs"))?,
                missed: key_lines(&keys, "missed")?,
                slowest: key_lines(&keys, "slowest")?,
                missed_pairs: key_lines(&keys, "missed_pairs")?,
                slowest_pairs: key_lines(&keys, "slowest_pairs")?,
            },
        })
    }
}

impl FromJs for Board {
    fn from_js(v: &JsValue) -> Option<Board> {
        Some(Board {
            mode: text(v, "mode")?,
            title: text(v, "title")?,
            unit: text(v, "unit")?,
            month: text(v, "month")?,
            // A server from before periods sends none: its boards are months.
            period: text(v, "period").unwrap_or_else(|| "month".into()),
            rows: list(&get(v, "rows"), board_row)?,
        })
    }
}

fn board_row(r: &JsValue) -> Option<BoardRow> {
    Some(BoardRow {
        rank: number(&get(r, "rank"))?,
        name: text(r, "name")?,
        score: number(&get(r, "score"))?,
        wpm: float(&get(r, "wpm"))?,
        accuracy: float(&get(r, "accuracy"))?,
        run: text(r, "run")?,
        time: text(r, "time")?,
    })
}

impl FromJs for Daily {
    fn from_js(v: &JsValue) -> Option<Daily> {
        let yours = get(v, "yours");
        Some(Daily {
            number: number(&get(v, "number"))?,
            day: text(v, "day")?,
            ends: text(v, "ends")?,
            mode: text(v, "mode")?,
            title: text(v, "title")?,
            seed: seed(&get(v, "seed")),
            players: number(&get(v, "players"))?,
            board: list(&get(v, "board"), board_row)?,
            yours: match yours.is_object() {
                true => Some(Yours {
                    run: text(&yours, "run")?,
                    score: number(&get(&yours, "score"))?,
                    place: number(&get(&yours, "place"))?,
                    of: number(&get(&yours, "of"))?,
                }),
                false => None,
            },
        })
    }
}

impl FromJs for Say {
    fn from_js(v: &JsValue) -> Option<Say> {
        say(v)
    }
}

/// An enum's variant as serde writes one with fields: `{"<tag>": <body>}`.
fn tagged(v: &JsValue) -> Option<(String, JsValue)> {
    let object: &js_sys::Object = v.dyn_ref()?;
    let tag = js_sys::Object::keys(object).get(0).as_string()?;
    let body = get(v, &tag);
    Some((tag, body))
}

/// What became of a round: `"ranked"`, or `{"unranked": {"why"}}`, `{"pending": {"why"}}`,
/// `{"not_stored": {"kind", "why"}}`.
fn kept(v: &JsValue) -> Option<Kept> {
    if v.as_string().as_deref() == Some("ranked") {
        return Some(Kept::Ranked);
    }
    let (tag, body) = tagged(v)?;
    let why = text(&body, "why")?;
    Some(match tag.as_str() {
        "unranked" => Kept::Unranked { why },
        "pending" => Kept::Pending { why },
        "not_stored" => Kept::NotStored {
            kind: text(&body, "kind")?,
            why,
        },
        _ => return None,
    })
}

fn say(v: &JsValue) -> Option<Say> {
    let (tag, body) = tagged(v)?;
    Some(match tag.as_str() {
        "welcome" => Say::Welcome {
            room: text(&body, "room")?,
            mode: text(&body, "mode")?,
            you: number(&get(&body, "you")),
            resume: text(&body, "resume"),
            owner: number(&get(&body, "owner"))?,
            link: text(&body, "link"),
            text: text(&body, "text"),
        },
        "lobby" => Say::Lobby {
            phase: match text(&body, "phase")?.as_str() {
                "lobby" => Phase::Lobby,
                "countdown" => Phase::Countdown,
                "racing" => Phase::Racing,
                "over" => Phase::Over,
                _ => return None,
            },
            racers: list(&get(&body, "racers"), |r| {
                Some(Racer {
                    id: number(&get(r, "id"))?,
                    name: text(r, "name")?,
                    state: match text(r, "state")?.as_str() {
                        "waiting" => State::Waiting,
                        "ready" => State::Ready,
                        "typing" => State::Typing,
                        "done" => State::Done,
                        "gone" => State::Gone,
                        "out" => State::Out,
                        _ => return None,
                    },
                    guest: get(r, "guest").as_bool().unwrap_or(false),
                })
            })?,
            owner: number(&get(&body, "owner")).unwrap_or(0),
        },
        "countdown" => Say::Countdown(number(&body)?),
        "go" => Say::Go(seed(&body)?),
        "keys" => Say::Keys {
            racer: number(&get(&body, "racer"))?,
            keys: keys(&get(&body, "keys"))?,
        },
        "resume" => Say::Resume {
            seed: seed(&get(&body, "seed"))?,
            at: number(&get(&body, "at"))?,
            keys: keys(&get(&body, "keys"))?,
        },
        "out" => Say::Out {
            racer: number(&get(&body, "racer"))?,
            why: text(&body, "why")?,
        },
        "results" => Say::Results(list(&body, |f| {
            Some(Finish {
                racer: number(&get(f, "racer"))?,
                headline: number(&get(f, "headline"))?,
                run: text(f, "run"),
                share: text(f, "share"),
                kept: kept(&get(f, "kept"))?,
            })
        })?),
        "refused" => Say::Refused(body.as_string()?),
        _ => return None,
    })
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn serde_text<T: serde::Serialize>(value: &T) -> String {
        let v = serde_wasm_bindgen::to_value(value).expect("serde writes it");
        String::from(JSON::stringify(&v).expect("JSON writes it"))
    }

    #[wasm_bindgen_test]
    fn every_room_message_reads_and_writes_as_serde_has_it() {
        let says = [
            Say::Welcome {
                room: "k3fq7m2x".into(),
                mode: "time:15".into(),
                you: Some(2),
                resume: Some("s3cr\"t".into()),
                owner: 1,
                link: Some("https://typepper.test/?room=k3fq7m2x".into()),
                text: None,
            },
            Say::Welcome {
                room: "k3fq7m2x".into(),
                mode: "zen".into(),
                you: None,
                resume: None,
                owner: 1,
                link: None,
                text: None,
            },
            Say::Lobby {
                phase: Phase::Countdown,
                racers: vec![
                    Racer {
                        id: 1,
                        name: "ada".into(),
                        state: State::Ready,
                        guest: false,
                    },
                    Racer {
                        id: 2,
                        name: "bob".into(),
                        state: State::Gone,
                        guest: true,
                    },
                ],
                owner: 1,
            },
            Say::Countdown(3000),
            Say::Go(u64::MAX - 7),
            Say::Keys {
                racer: 3,
                keys: vec![(0, 99), (140, 0), (4_000_000_000, 1)],
            },
            Say::Resume {
                seed: 12_345_678_901_234_567_890,
                at: 5000,
                keys: vec![],
            },
            Say::Out {
                racer: 2,
                why: "timing as even as a metronome".into(),
            },
            Say::Results(vec![
                Finish {
                    racer: 1,
                    headline: 92,
                    run: Some("7Xf9qyuC".into()),
                    share: Some("https://r.typepper.com/7Xf9qyuC".into()),
                    kept: Kept::Ranked,
                },
                Finish {
                    racer: 2,
                    headline: 31,
                    run: Some("abcdEFGH".into()),
                    share: Some("https://r.typepper.com/abcdEFGH".into()),
                    kept: Kept::Unranked {
                        why: "raced as a \"guest\"".into(),
                    },
                },
                Finish {
                    racer: 3,
                    headline: 140,
                    run: Some("Zq0w1e2R".into()),
                    share: Some("https://r.typepper.com/Zq0w1e2R".into()),
                    kept: Kept::Pending {
                        why: "far above your ranked best".into(),
                    },
                },
                Finish {
                    racer: 4,
                    headline: 0,
                    run: None,
                    share: None,
                    kept: Kept::not_stored(
                        "too_little",
                        "too little typing to keep: 3 judged keystrokes, and a run needs 20",
                    ),
                },
            ]),
            Say::Refused("the race is over".into()),
        ];
        for say in says {
            assert_eq!(read::<Say>(&serde_text(&say)), Some(say));
        }
        assert_eq!(read::<Say>("{\"nonsense\":1}"), None);
        let unknown = "{\"results\":[{\"racer\":1,\"headline\":9,\"kept\":\"maybe\"}]}";
        assert_eq!(read::<Say>(unknown), None);
        assert_eq!(read::<Say>("{\"countdown\":-1}"), None);
        let asks = [
            Ask::Hello {
                name: Some("ada \"the\" first".into()),
                token: None,
                resume: Some("x".into()),
            },
            Ask::Hello {
                name: None,
                token: None,
                resume: None,
            },
            Ask::Ready,
            Ask::Start,
            Ask::Keys(vec![(0, 99), (12, 0)]),
            Ask::Keys(vec![]),
            Ask::Rematch,
            Ask::Leave,
        ];
        for a in asks {
            assert_eq!(ask(&a), serde_text(&a));
        }
    }
}

#[cfg(all(test, target_arch = "wasm32"))]
mod answers {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn serde_text<T: serde::Serialize>(value: &T) -> String {
        let v = serde_wasm_bindgen::to_value(value).expect("serde writes it");
        String::from(JSON::stringify(&v).expect("JSON writes it"))
    }

    #[wasm_bindgen_test]
    fn the_server_s_answers_read_as_serde_reads_them() {
        let player = Player {
            name: "ada".into(),
            token: "t0k\"en".into(),
        };
        assert_eq!(read::<Player>(&serde_text(&player)), Some(player));
        let seed = IssuedSeed {
            mode: "time:15".into(),
            seed: u64::MAX - 1,
            expires: "2026-12-03T12:00:00Z".into(),
            daily: None,
            unranked: None,
        };
        assert_eq!(read::<IssuedSeed>(&serde_text(&seed)), Some(seed));
        let second_try = IssuedSeed {
            mode: "time:30".into(),
            seed: 7,
            expires: "2026-12-03T12:05:00Z".into(),
            daily: Some(6),
            unranked: Some("you tried daily #6 at 12:00 UTC".into()),
        };
        assert_eq!(
            read::<IssuedSeed>(&serde_text(&second_try)),
            Some(second_try)
        );
        for (seed, yours) in [
            (None, None),
            (
                Some(u64::MAX),
                Some(Yours {
                    run: "AbCdEfGh".into(),
                    score: 97,
                    place: 14,
                    of: 2031,
                }),
            ),
        ] {
            let daily = Daily {
                number: 6,
                day: "2026-12-10".into(),
                ends: "2026-12-11T00:00:00Z".into(),
                mode: "time:30".into(),
                title: "daily #6 · BLITZ 30s".into(),
                seed,
                players: 2031,
                board: vec![],
                yours,
            };
            assert_eq!(read::<Daily>(&serde_text(&daily)), Some(daily));
        }
        let opened = Opened {
            code: "k3fq7m2x".into(),
            link: "https://typepper.com/?room=k3fq7m2x".into(),
        };
        assert_eq!(read::<Opened>(&serde_text(&opened)), Some(opened));
        let board = Board {
            mode: "time:15".into(),
            title: "BLITZ 15s".into(),
            unit: "wpm".into(),
            month: "2026-12".into(),
            period: "week".into(),
            rows: vec![BoardRow {
                rank: 1,
                name: "ada".into(),
                score: 108,
                wpm: 108.4,
                accuracy: 97.25,
                run: "7Xf9qyuC".into(),
                time: "2026-12-02T10:00:00Z".into(),
            }],
        };
        assert_eq!(read::<Board>(&serde_text(&board)), Some(board));
        let run = ProfileRun {
            run: "7Xf9qyuC".into(),
            mode: "time:15".into(),
            title: "BLITZ 15s".into(),
            score: 108,
            unit: "wpm".into(),
            wpm: 108.4,
            accuracy: 97.25,
            time: "2026-12-02T10:00:00Z".into(),
            ranked: true,
            daily: Some(311),
        };
        let line = KeyLine {
            key: "th".into(),
            seen: 40,
            error_x100: 1250,
            median_ms: 180,
        };
        let profile = Profile {
            name: "ada".into(),
            joined: "2026-11-02T10:00:00Z".into(),
            all: Typed {
                rounds: 312,
                seconds: 15_120,
            },
            month: Typed {
                rounds: 28,
                seconds: 1_200,
            },
            bests: vec![run.clone()],
            recent: vec![run.clone(), run],
            chart: vec![Point {
                round: 3,
                wpm_x100: 9_050,
                accuracy_x100: 9_725,
            }],
            keys: Keys {
                runs: 87,
                missed: vec![line.clone()],
                slowest: vec![],
                missed_pairs: vec![line.clone()],
                slowest_pairs: vec![line],
            },
        };
        assert_eq!(read::<Profile>(&serde_text(&profile)), Some(profile));
        assert_eq!(read::<Player>("{\"name\":\"ada\"}"), None);
        assert_eq!(
            object(&[("name", Some("a\"b")), ("token", None)]),
            serde_text(&typepper_api::NewPlayer {
                name: "a\"b".into(),
                device: None,
            })
        );
    }
}
