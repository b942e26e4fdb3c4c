//! A live room's connection: the browser's WebSocket to `/v1/rooms/<code>/live`, one
//! JSON text frame a message (docs/spec/rooms.md).
//!
//! web-sys's `WebSocket` rather than gloo-net's: gloo-net wraps the same browser object
//! as a futures `Stream` and `Sink`, which would need futures-util and a task to feed it.
//! The game's effects are plain calls, and the socket's callbacks hand messages straight
//! to the app, as the HTTP answers do.
//!
//! The messages are read and written by [`crate::json`], by hand.

use wasm_bindgen::prelude::*;
use web_sys::{CloseEvent, Event, MessageEvent, WebSocket};

use typepper_api::room::{Ask, Say};
use typepper_game::request::Answer;

use crate::json;

/// An open (or opening) room connection. Dropping it closes it and reports nothing more.
pub struct Socket {
    ws: WebSocket,
    _handlers: [Closure<dyn FnMut(Event)>; 3],
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
        .or_else(|| {
            base.strip_prefix("http://")
                .map(|rest| format!("ws://{rest}"))
        })?;
    Some(format!("{base}/v1/rooms/{code}/live"))
}

impl Socket {
    /// Connects to room `code`; `heard` gets what happens: [`Answer::RoomConnected`],
    /// [`Answer::RoomSaid`] and [`Answer::RoomClosed`].
    pub fn open(api: &str, code: &str, heard: impl Fn(Answer) + 'static) -> Result<Socket, String> {
        let url = url(api, code).ok_or("the server's address isn't http or https")?;
        let ws = WebSocket::new(&url).map_err(|_| format!("no WebSocket to {url}"))?;
        let heard = std::rc::Rc::new(heard);
        let h = heard.clone();
        let on_open = Closure::<dyn FnMut(Event)>::new(move |_| h(Answer::RoomConnected));
        let h = heard.clone();
        let on_message = Closure::<dyn FnMut(Event)>::new(move |e: Event| {
            let Some(text) = e
                .dyn_ref::<MessageEvent>()
                .and_then(|m| m.data().as_string())
            else {
                return;
            };
            match json::read::<Say>(&text) {
                Some(say) => h(Answer::RoomSaid(say)),
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
            h(Answer::RoomClosed(why));
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
    /// (The browser logs an error for a send on a closing socket: it is never tried.)
    pub fn say(&self, ask: &Ask) {
        if self.ws.ready_state() == WebSocket::OPEN {
            let _ = self.ws.send_with_str(&json::ask(ask));
        }
    }
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
