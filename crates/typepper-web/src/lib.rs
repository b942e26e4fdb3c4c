//! typepper in the browser: a thin wasm-bindgen shell around the engine.
//!
//! How it works:
//! 1. [`start`] finds the page's canvas, hidden input and text mirror, loads the history
//!    from localStorage and, for `?replay=<id>`, fetches that run before the game starts.
//! 2. Keys arrive as DOM events: special keys from `keydown`, text (letters, dead keys,
//!    IME compositions, pastes) from the focused hidden input. Each becomes an
//!    [`app::Key`] at its event's own timestamp, for [`app::App`], which holds every
//!    screen and feeds the engine.
//! 3. Every animation frame, the app ticks (ends rounds on time, lands a replay's inputs)
//!    and the [`render::Renderer`] draws if anything visible changed; the text mirror
//!    follows for screen readers and tests.
//! 4. What the app asks for — storing a round, a console warning — comes back as
//!    [`app::Effect`] values that this module carries out.
//!
//! One opaque handle, [`Game`], crosses to JavaScript; the glue in `web/boot.js` is a few
//! lines.

pub mod app;
mod dom;
pub mod mirror;
mod net;
mod render;
pub mod storage;

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_sys::{
    CompositionEvent, Event, HtmlCanvasElement, HtmlElement, HtmlInputElement, InputEvent,
    KeyboardEvent, MouseEvent,
};

use crate::app::{App, Effect, Key, Now};
use crate::dom::{DomError, Listener};
use crate::render::{Renderer, Target};

/// The running game. Dropping it removes its listeners and stops its frames.
#[wasm_bindgen]
pub struct Game {
    shell: Rc<RefCell<Shell>>,
    _listeners: Vec<Listener>,
    frames: Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>,
}

#[wasm_bindgen]
impl Game {
    /// Frame draw times so far, in ms, for the performance measurement.
    #[wasm_bindgen(js_name = drawTimes)]
    pub fn draw_times(&self) -> Vec<f64> {
        self.shell.borrow().renderer.draw_ms.clone()
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        self.frames.borrow_mut().take();
    }
}

struct Shell {
    app: App,
    renderer: Renderer,
    input: HtmlInputElement,
    mirror: HtmlElement,
    shown: mirror::Mirror,
    /// The app's session count at the last frame: a new round resets the layout.
    sessions: u64,
}

/// Boots the game in the page: `api` is the server's base URL ("" for this origin).
#[wasm_bindgen]
pub async fn start(api: String) -> Result<Game, JsValue> {
    console_error_panic_hook::set_once();
    let canvas: HtmlCanvasElement = dom::by_id("screen")?;
    let input: HtmlInputElement = dom::by_id("keys")?;
    let mirror: HtmlElement = dom::by_id("mirror")?;
    let storage = dom::local_storage();
    if storage.is_none() {
        dom::warn("no localStorage here: rounds will play but not be kept");
    }
    let history = storage
        .as_ref()
        .and_then(|s| s.get_item(storage::HISTORY).ok().flatten())
        .unwrap_or_default();
    let (mut app, effects) = App::new(dom::entropy(), &history);
    carry_out(effects);

    // ?replay=<id>: the round plays before anything else.
    if let Some(id) = replay_param() {
        match net::fetch_run(&api, &id).await {
            Ok(bytes) => {
                if let Err(why) = app.watch_bytes(&bytes, dom::now()) {
                    dom::warn(&format!("replay {id} can't be watched: {why}"));
                }
            }
            Err(why) => dom::warn(&format!("replay {id} not played: {why}")),
        }
    }

    let shell = Rc::new(RefCell::new(Shell {
        app,
        renderer: Renderer::new(canvas.clone())?,
        input: input.clone(),
        mirror,
        shown: mirror::Mirror::default(),
        sessions: u64::MAX,
    }));
    let listeners = listen(&shell, &canvas, &input)?;
    let frames = run_frames(&shell)?;
    let _ = input.focus();
    Ok(Game {
        shell,
        _listeners: listeners,
        frames,
    })
}

fn replay_param() -> Option<String> {
    let search = dom::window().ok()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get("replay").filter(|id| !id.is_empty())
}

fn carry_out(effects: Vec<Effect>) {
    for effect in effects {
        match effect {
            Effect::Warn(message) => dom::warn(&message),
            Effect::Store { last, history } => {
                let Some(storage) = dom::local_storage() else {
                    continue;
                };
                for (key, value) in [(storage::LAST, last), (storage::HISTORY, history)] {
                    if storage.set_item(key, &value).is_err() {
                        dom::warn(&format!(
                            "could not keep {key} (storage full?): the round still counts"
                        ));
                    }
                }
            }
        }
    }
}

impl Shell {
    fn key(&mut self, key: Key, at: f64) {
        let effects = self.app.key(
            key,
            Now {
                mono: at,
                unix_ms: dom::unix_ms(),
            },
        );
        carry_out(effects);
        self.renderer.invalidate();
    }

    fn text(&mut self, text: &str, at: f64) {
        for c in text.chars() {
            self.key(Key::Char(c), at);
        }
    }

    fn frame(&mut self, now: f64) {
        let effects = self.app.tick(Now {
            mono: now,
            unix_ms: dom::unix_ms(),
        });
        carry_out(effects);
        if self.app.sessions != self.sessions {
            self.sessions = self.app.sessions;
            self.renderer.reset_layout();
        }
        self.renderer.frame(&self.app, now);
        self.update_mirror(now);
    }

    fn update_mirror(&mut self, now: f64) {
        let next = mirror::mirror(&self.app, now);
        if next == self.shown {
            return;
        }
        for ((name, new), old) in mirror::FIELDS
            .iter()
            .zip(next.fields())
            .zip(self.shown.fields())
        {
            if new != old
                && let Ok(el) = dom::query(&self.mirror, &format!("[data-mirror={name}]"))
            {
                el.set_text_content(Some(new));
            }
        }
        self.shown = next;
    }

    fn click(&mut self, x: f64, y: f64, at: f64) {
        match self.renderer.target_at(x, y) {
            Some(Target::Menu(i)) => {
                self.app.menu_item = i;
                self.key(Key::Enter, at);
            }
            Some(Target::History(row)) => {
                self.app.history_row = row;
                self.key(Key::Enter, at);
            }
            None => {}
        }
        let _ = self.input.focus();
    }
}

/// The keys a `keydown` handles itself; text comes through the input's events instead.
fn special_key(e: &KeyboardEvent) -> Option<Key> {
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return None;
    }
    Some(match e.key().as_str() {
        "Backspace" => Key::Backspace,
        "Enter" => Key::Enter,
        "Escape" => Key::Escape,
        "Tab" => Key::Tab,
        "ArrowUp" => Key::Up,
        "ArrowDown" => Key::Down,
        "ArrowLeft" => Key::Left,
        "ArrowRight" => Key::Right,
        _ => return None,
    })
}

fn listen(
    shell: &Rc<RefCell<Shell>>,
    canvas: &HtmlCanvasElement,
    input: &HtmlInputElement,
) -> Result<Vec<Listener>, DomError> {
    let window = dom::window()?;
    let mut out = vec![];

    let s = shell.clone();
    out.push(Listener::new(&window, "keydown", move |e: Event| {
        let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
            return;
        };
        let mut shell = s.borrow_mut();
        if let Some(key) = special_key(e) {
            e.prevent_default();
            shell.key(key, e.time_stamp());
        } else if e.target() != Some(shell.input.clone().into()) {
            // Typing while the input isn't focused: take the key and focus it.
            let k = e.key();
            let mut chars = k.chars();
            if let (Some(c), None) = (chars.next(), chars.next())
                && !e.ctrl_key()
                && !e.meta_key()
            {
                e.prevent_default();
                shell.key(Key::Char(c), e.time_stamp());
            }
            let _ = shell.input.focus();
        }
    })?);

    // Text: whatever lands in the hidden input is typed, then the input is emptied.
    let s = shell.clone();
    out.push(Listener::new(input, "input", move |e: Event| {
        let composing = e
            .dyn_ref::<InputEvent>()
            .is_some_and(InputEvent::is_composing);
        if composing {
            return;
        }
        let mut shell = s.borrow_mut();
        let text = shell.input.value();
        shell.input.set_value("");
        shell.text(&text, e.time_stamp());
    })?);
    let s = shell.clone();
    out.push(Listener::new(input, "compositionend", move |e: Event| {
        let mut shell = s.borrow_mut();
        let text = e
            .dyn_ref::<CompositionEvent>()
            .and_then(CompositionEvent::data)
            .filter(|d| !d.is_empty())
            .unwrap_or_else(|| shell.input.value());
        shell.input.set_value("");
        shell.text(&text, e.time_stamp());
    })?);

    let s = shell.clone();
    out.push(Listener::new(canvas, "click", move |e: Event| {
        if let Some(e) = e.dyn_ref::<MouseEvent>() {
            s.borrow_mut().click(
                f64::from(e.offset_x()),
                f64::from(e.offset_y()),
                e.time_stamp(),
            );
        }
    })?);
    let s = shell.clone();
    out.push(Listener::new(&window, "resize", move |_| {
        s.borrow_mut().renderer.invalidate();
    })?);
    Ok(out)
}

type Frames = Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>;

/// Calls `Shell::frame` on every animation frame until the [`Game`] is dropped.
fn run_frames(shell: &Rc<RefCell<Shell>>) -> Result<Frames, DomError> {
    let frames: Frames = Rc::new(RefCell::new(None));
    let again = frames.clone();
    let s = shell.clone();
    *frames.borrow_mut() = Some(Closure::<dyn FnMut(f64)>::new(move |now: f64| {
        s.borrow_mut().frame(now);
        if let (Ok(w), Some(f)) = (dom::window(), again.borrow().as_ref()) {
            let _ = w.request_animation_frame(f.as_ref().unchecked_ref());
        }
    }));
    if let Some(f) = frames.borrow().as_ref() {
        dom::window()?
            .request_animation_frame(f.as_ref().unchecked_ref())
            .map_err(|_| DomError("requestAnimationFrame failed".into()))?;
    }
    Ok(frames)
}
