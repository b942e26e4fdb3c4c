//! A live room's connection: the browser's WebSocket to `/v1/rooms/<code>/live`, one
//! JSON text frame a message (docs/spec/rooms.md).
//!
//! web-sys's `WebSocket` rather than gloo-net's: gloo-net wraps the same browser object
//! as a futures `Stream` and `Sink`, which would need futures-util and a task to feed it.
//! The game's effects are plain calls, and the socket's callbacks hand messages straight
//! to the app, as the HTTP answers do.
//!
//! The messages are read and written here by hand, over the browser's own `JSON.parse`
//! and `JSON.stringify`: serde's generic code for them cost the wasm 28 KB, a fifth of
//! its budget. The test in this file checks both ways against serde's, message by
//! message.

use js_sys::{Array, JSON, Reflect};
use wasm_bindgen::prelude::*;
use web_sys::{CloseEvent, Event, MessageEvent, WebSocket};

use typepper_api::room::{Ask, Finish, Key, Phase, Racer, Say, State};

/// An open (or opening) room connection. Dropping it closes it and reports nothing more.
pub struct Socket {
    ws: WebSocket,
    _handlers: [Closure<dyn FnMut(Event)>; 3],
}

/// What a socket tells its shell.
pub enum Heard {
    /// It is open.
    Open,
    /// A message from the room.
    Said(Say),
    /// It closed, and why.
    Closed(String),
}

/// The WebSocket URL of room `code` on the server at `api` ("" for this origin).
fn url(api: &str, code: &str) -> Option<String> {
    let base = if api.is_empty() {
        let location = web_sys::window()?.location();
        location.origin().ok()?
    } else {
        api.trim_end_matches('/').to_owned()
    };
    let base = base
        .strip_prefix("https://")
        .map(|rest| format!("wss://{rest}"))
        .or_else(|| base.strip_prefix("http://").map(|rest| format!("ws://{rest}")))?;
    Some(format!("{base}/v1/rooms/{code}/live"))
}

impl Socket {
    /// Connects to room `code`; `heard` gets what happens.
    pub fn open(api: &str, code: &str, heard: impl Fn(Heard) + 'static) -> Result<Socket, String> {
        let url = url(api, code).ok_or("the server's address isn't http or https")?;
        let ws = WebSocket::new(&url).map_err(|_| format!("no WebSocket to {url}"))?;
        let heard = std::rc::Rc::new(heard);
        let h = heard.clone();
        let on_open = Closure::<dyn FnMut(Event)>::new(move |_| h(Heard::Open));
        let h = heard.clone();
        let on_message = Closure::<dyn FnMut(Event)>::new(move |e: Event| {
            let Some(text) = e.dyn_ref::<MessageEvent>().and_then(|m| m.data().as_string())
            else {
                return;
            };
            match read(&text) {
                Some(say) => h(Heard::Said(say)),
                None => crate::dom::warn(&format!("a room message doesn't read: {text}")),
            }
        });
        let h = heard;
        let on_close = Closure::<dyn FnMut(Event)>::new(move |e: Event| {
            let why = e
                .dyn_ref::<CloseEvent>()
                .map(|c| c.reason())
                .filter(|r| !r.is_empty())
                .unwrap_or_else(|| "the server is unreachable".into());
            h(Heard::Closed(why));
        });
        ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        Ok(Socket {
            ws,
            _handlers: [on_open, on_message, on_close],
        })
    }

    /// Sends `ask`: dropped if the socket isn't open, as the room then learns nothing.
    pub fn say(&self, ask: &Ask) {
        let _ = self.ws.send_with_str(&write(ask));
    }
}

/// `s` as a JSON string, quoted and escaped by the browser.
fn quoted(s: &str) -> String {
    JSON::stringify(&JsValue::from_str(s)).map_or_else(|_| "\"\"".into(), String::from)
}

/// A client's message as its JSON text (docs/spec/rooms.md).
pub fn write(ask: &Ask) -> String {
    match ask {
        Ask::Hello {
            name,
            token,
            resume,
        } => {
            let fields: Vec<String> = [("name", name), ("token", token), ("resume", resume)]
                .into_iter()
                .filter_map(|(k, v)| v.as_deref().map(|v| format!("\"{k}\":{}", quoted(v))))
                .collect();
            format!("{{\"hello\":{{{}}}}}", fields.join(","))
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

fn list<T>(v: &JsValue, item: impl Fn(&JsValue) -> Option<T>) -> Option<Vec<T>> {
    let array: &Array = v.dyn_ref()?;
    array.iter().map(|x| item(&x)).collect()
}

fn keys(v: &JsValue) -> Option<Vec<Key>> {
    list(v, |k| Some((number(&get(k, "0"))?, number(&get(k, "1"))?)))
}

fn seed(v: &JsValue) -> Option<u64> {
    v.as_string()?.parse().ok()
}

/// A server's message from its JSON text, or `None` if it is none.
pub fn read(json: &str) -> Option<Say> {
    let v = JSON::parse(json).ok()?;
    let object: &js_sys::Object = v.dyn_ref()?;
    let tag = js_sys::Object::keys(object).get(0).as_string()?;
    let body = get(&v, &tag);
    Some(match tag.as_str() {
        "welcome" => Say::Welcome {
            room: text(&body, "room")?,
            mode: text(&body, "mode")?,
            you: number(&get(&body, "you")),
            resume: text(&body, "resume"),
            owner: number(&get(&body, "owner"))?,
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
                })
            })?,
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
                headline: text(f, "headline")?,
                run: text(f, "run"),
                share: text(f, "share"),
                kept: text(f, "kept")?,
            })
        })?),
        "refused" => Say::Refused(body.as_string()?),
        _ => return None,
    })
}

impl Drop for Socket {
    fn drop(&mut self) {
        // Its handlers go with it: none may be called once it is dropped.
        self.ws.set_onopen(None);
        self.ws.set_onmessage(None);
        self.ws.set_onclose(None);
        let _ = self.ws.close();
    }
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
    fn every_message_reads_and_writes_as_serde_has_it() {
        let says = [
            Say::Welcome {
                room: "k3fq7m2x".into(),
                mode: "time:15".into(),
                you: Some(2),
                resume: Some("s3cr\"t".into()),
                owner: 1,
            },
            Say::Welcome {
                room: "k3fq7m2x".into(),
                mode: "zen".into(),
                you: None,
                resume: None,
                owner: 1,
            },
            Say::Lobby {
                phase: Phase::Countdown,
                racers: vec![
                    Racer {
                        id: 1,
                        name: "ada".into(),
                        state: State::Ready,
                    },
                    Racer {
                        id: 2,
                        name: "bob".into(),
                        state: State::Gone,
                    },
                ],
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
                    headline: "92 wpm".into(),
                    run: Some("7Xf9qyuC".into()),
                    share: Some("https://r.typepper.com/7Xf9qyuC".into()),
                    kept: "unranked: …".into(),
                },
                Finish {
                    racer: 2,
                    headline: "31 words".into(),
                    run: None,
                    share: None,
                    kept: "not stored: only a linked game's rounds are kept".into(),
                },
            ]),
            Say::Refused("the race is over".into()),
        ];
        for say in says {
            assert_eq!(read(&serde_text(&say)), Some(say));
        }
        assert_eq!(read("{\"nonsense\":1}"), None);
        assert_eq!(read("{\"countdown\":-1}"), None);
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
        for ask in asks {
            assert_eq!(write(&ask), serde_text(&ask));
        }
    }
}
