//! The one place that touches the DOM: every missing element or failed call becomes a
//! [`DomError`] with a sentence, and listeners unregister when dropped.

use core::fmt;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Event, EventTarget, HtmlElement, Storage, Window};

/// A DOM call that failed, and what was being done.
#[derive(Debug)]
pub struct DomError(pub String);

impl fmt::Display for DomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<DomError> for JsValue {
    fn from(e: DomError) -> JsValue {
        js_sys::Error::new(&e.0).into()
    }
}

/// Turns a JS exception into a [`DomError`] saying what failed.
pub trait Context<T> {
    /// The error, prefixed with `what`.
    fn context(self, what: &str) -> Result<T, DomError>;
}

impl<T> Context<T> for Result<T, JsValue> {
    fn context(self, what: &str) -> Result<T, DomError> {
        self.map_err(|e| {
            let detail = e
                .dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .or_else(|| e.as_string())
                .unwrap_or_else(|| format!("{e:?}"));
            DomError(format!("{what}: {detail}"))
        })
    }
}

impl<T> Context<T> for Option<T> {
    fn context(self, what: &str) -> Result<T, DomError> {
        self.ok_or_else(|| DomError(what.to_owned()))
    }
}

/// The window.
pub fn window() -> Result<Window, DomError> {
    web_sys::window().context("no window (not running in a browser page)")
}

/// The document.
pub fn document() -> Result<Document, DomError> {
    window()?.document().context("the window has no document")
}

/// The element with `id`, as `T`.
pub fn by_id<T: JsCast>(id: &str) -> Result<T, DomError> {
    let el = document()?
        .get_element_by_id(id)
        .context(&format!("the page has no #{id} element"))?;
    el.dyn_into::<T>()
        .map_err(|_| DomError(format!("#{id} is not the kind of element the game needs")))
}

/// The element under `root` matching `selector`.
pub fn query(root: &HtmlElement, selector: &str) -> Result<HtmlElement, DomError> {
    root.query_selector(selector)
        .context(&format!("bad selector {selector}"))?
        .context(&format!("the page has no {selector} element"))?
        .dyn_into::<HtmlElement>()
        .map_err(|_| DomError(format!("{selector} is not an HTML element")))
}

/// localStorage, if this browser lets the page have it (private modes may not).
pub fn local_storage() -> Option<Storage> {
    window().ok()?.local_storage().ok().flatten()
}

/// `performance.now()`.
pub fn now() -> f64 {
    window()
        .ok()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Milliseconds since 1970.
pub fn unix_ms() -> u64 {
    let ms = js_sys::Date::now();
    if ms > 0.0 { ms as u64 } else { 0 }
}

/// `console.warn` of a message.
pub fn warn(message: &str) {
    web_sys::console::warn_1(&JsValue::from_str(&format!("typepper: {message}")));
}

/// An event listener that is removed when this is dropped.
pub struct Listener {
    target: EventTarget,
    kind: &'static str,
    closure: Closure<dyn FnMut(Event)>,
}

impl Listener {
    /// Calls `f` for every `kind` event on `target`.
    pub fn new(
        target: &EventTarget,
        kind: &'static str,
        f: impl FnMut(Event) + 'static,
    ) -> Result<Listener, DomError> {
        let closure = Closure::<dyn FnMut(Event)>::new(f);
        target
            .add_event_listener_with_callback(kind, closure.as_ref().unchecked_ref())
            .context(&format!("listening for {kind}"))?;
        Ok(Listener {
            target: target.clone(),
            kind,
            closure,
        })
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self
            .target
            .remove_event_listener_with_callback(self.kind, self.closure.as_ref().unchecked_ref());
    }
}

/// Eight bytes from `crypto.getRandomValues`, for the rounds' seeds.
pub fn entropy() -> u64 {
    let mut bytes = [0u8; 8];
    let filled = window()
        .ok()
        .and_then(|w| w.crypto().ok())
        .and_then(|c| c.get_random_values_with_u8_array(&mut bytes).ok())
        .is_some();
    if !filled {
        // No crypto: the clock still makes each visit's seeds differ.
        return js_sys::Date::now().to_bits() ^ (now().to_bits() << 1);
    }
    u64::from_le_bytes(bytes)
}

/// The browser's time zone, as `Date` knows it.
pub struct LocalZone;

impl typepper_game::zone::Zone for LocalZone {
    fn offset_minutes(&self, unix_ms: i64) -> i32 {
        let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(unix_ms as f64));
        // `getTimezoneOffset` is UTC minus local time, in minutes.
        -(date.get_timezone_offset() as i32)
    }
}

#[wasm_bindgen]
extern "C" {
    /// A key's click (`wrong`: the mistake's sound) at `volume`, 1 to 5: boot.js's
    /// `typepperClick`, made with Web Audio, no sound file.
    #[wasm_bindgen(catch, js_namespace = window, js_name = typepperClick)]
    pub fn click(wrong: bool, volume: f64) -> Result<(), JsValue>;
}
