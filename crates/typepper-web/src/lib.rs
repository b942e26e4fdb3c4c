//! typepper in the browser: a thin wasm-bindgen shell around the game
//! ([`typepper_game`]), which is the same in the terminal.
//!
//! How it works:
//! 1. [`start`] finds the page's canvas, hidden input and text mirror, loads the history
//!    from localStorage (installing first the word lists its rounds need: the wasm
//!    carries none, English's included) and, for `?replay=<id>` or `?race=<id>`, fetches that run to
//!    watch or race before the game starts.
//! 2. Keys arrive as DOM events: special keys from `keydown`, text (letters, dead keys,
//!    IME compositions, pastes) from the focused hidden input. Each becomes a [`Key`] at
//!    its event's own timestamp, for the game's [`App`], which holds every screen and
//!    feeds the engine. The custom text screen is the exception: a real text area
//!    ([`text_area`]) edits its text, and the game is handed the whole of it.
//! 3. Every animation frame, the app ticks (ends rounds on time, lands a replay's inputs)
//!    and yields the screen's model; the canvas renderer draws it if it changed, and the
//!    text mirror follows for screen readers and tests.
//! 4. What the app asks for — storing a round, a console warning — comes back as
//!    [`Effect`] values that this module carries out.
//!
//! One opaque handle, [`Game`], crosses to JavaScript; the glue in `web/boot.js` is a few
//! lines.

mod dom;
// The allocator is the one place the shell needs `unsafe`: a global allocator is unsafe
// to write, and each block is handed out by address.
#[allow(unsafe_code)]
#[cfg(any(test, target_arch = "wasm32"))]
mod heap;
mod json;
#[cfg(all(test, target_arch = "wasm32"))]
mod lists_tests;
mod net;
mod render;
mod socket;
mod text_area;

/// Installs English's list, as the page does from `/words/` before a round needs it: the
/// wasm carries no list, and the tests' rounds are English.
#[cfg(all(test, target_arch = "wasm32"))]
pub(crate) fn install_english() {
    let file = include_str!("../../typepper-engine/words/en.txt");
    let installed =
        typepper_engine::words::install(typepper_engine::Language::English, file.into());
    assert_eq!(installed, Ok(()));
}

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use wasm_bindgen::prelude::*;
use web_sys::{
    CompositionEvent, Event, HtmlCanvasElement, HtmlElement, HtmlInputElement, InputEvent,
    KeyboardEvent, MouseEvent,
};

use typepper_game::app::{App, Effect, Key, Now, Screen};
use typepper_game::mirror::{FIELDS, Mirror};
use typepper_game::model::{Body, Tap};
use typepper_game::request::{self, Answer};
use typepper_game::storage;

use crate::dom::{DomError, Listener};
use crate::render::{Hit, Renderer};
use crate::socket::Socket;
use crate::text_area::TextArea;

/// The running game. Dropping it removes its listeners and stops its frames.
#[wasm_bindgen]
pub struct Game {
    shell: Rc<RefCell<Shell>>,
    _listeners: Vec<Listener>,
}

#[wasm_bindgen]
impl Game {
    /// Frame draw times so far, in ms, for the performance measurement.
    #[wasm_bindgen(js_name = drawTimes)]
    pub fn draw_times(&self) -> Vec<f64> {
        self.shell.borrow().renderer.draw_ms.clone()
    }

    /// Whole frame times so far (tick, model, draw and mirror), in ms, for the
    /// performance measurement.
    #[wasm_bindgen(js_name = frameTimes)]
    pub fn frame_times(&self) -> Vec<f64> {
        self.shell.borrow().frame_ms.clone()
    }

    /// Forgets the times so far, to measure from now.
    #[wasm_bindgen(js_name = clearTimes)]
    pub fn clear_times(&self) {
        let mut shell = self.shell.borrow_mut();
        shell.frame_ms.clear();
        shell.renderer.draw_ms.clear();
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        // No more frames: a frame or timer already asked for finds its callback gone.
        self.shell.borrow_mut().frames = None;
    }
}

/// How many frame times are kept: a minute of frames.
const FRAME_TIMES: usize = 4096;

struct Shell {
    app: App,
    /// The API's base URL ("" for this origin).
    api: String,
    /// This shell, for the answers of requests it sends.
    me: Weak<RefCell<Shell>>,
    renderer: Renderer,
    input: HtmlInputElement,
    /// The custom text screen's text area, while that screen is open.
    area: Option<TextArea>,
    mirror: HtmlElement,
    /// The mirror's buttons, one for each of the screen's taps.
    buttons: HtmlElement,
    shown: Mirror,
    /// A frame has been drawn.
    drawn: bool,
    /// The last frames' whole times, for the performance measurement.
    frame_ms: Vec<f64>,
    /// The live room's connection, if any.
    room: Option<Socket>,
    /// What the next animation frame and the timer call: [`Shell::frame`].
    frames: Option<Closure<dyn FnMut(f64)>>,
    /// A frame has been asked for and not come yet.
    asked: bool,
    /// The timer that asks for a frame when the screen next changes by itself.
    timer: Option<i32>,
    /// `(prefers-reduced-motion: reduce)`, read each frame: it changes with the system.
    reduced: Option<web_sys::MediaQueryList>,
}

/// Boots the game in the page: `api` is the server's base URL ("" for this origin).
#[wasm_bindgen]
pub async fn start(api: String) -> Result<Game, JsValue> {
    console_error_panic_hook::set_once();
    let canvas: HtmlCanvasElement = dom::by_id("screen")?;
    let input: HtmlInputElement = dom::by_id("keys")?;
    let mirror: HtmlElement = dom::by_id("mirror")?;
    let buttons = dom::query(&mirror, "[data-mirror=taps]")?;
    let storage = dom::local_storage();
    if storage.is_none() {
        dom::warn("no localStorage here: rounds will play but not be kept");
    }
    let stored = read_storage(storage.as_ref());
    install_lists(storage::lists_needed(&stored)).await;
    let (mut app, boot_effects) = App::new(dom::entropy(), &stored, game_url());
    if storage.is_none() {
        app.cannot_keep("this browser gives the page no storage");
    }

    // ?replay=<id> or ?race=<id>: the round plays before anything else.
    if let Some((id, race)) = run_param() {
        let what = if race { "race" } else { "replay" };
        let opened = match net::fetch_run(&api, &id).await {
            Ok(run) if race => app.race_bytes(&run.bytes, run.player),
            Ok(run) => app.watch_bytes(&run.bytes, run.player, dom::now()),
            Err(why) => Err(why.to_string()),
        };
        if let Err(why) = opened {
            // The game starts as usual: a link that has gone stale is no reason to stop.
            dom::warn(&format!("{what} {id} can't be played: {why}"));
        }
    }

    let renderer = Renderer::new(canvas.clone())?;
    let shell = Rc::new_cyclic(|me| {
        RefCell::new(Shell {
            app,
            api,
            me: me.clone(),
            renderer,
            input: input.clone(),
            area: None,
            mirror,
            buttons: buttons.clone(),
            shown: Mirror::default(),
            drawn: false,
            frame_ms: Vec::with_capacity(FRAME_TIMES),
            room: None,
            frames: None,
            asked: false,
            timer: None,
            reduced: dom::window()
                .ok()
                .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok())
                .flatten(),
        })
    });
    let mut boot_effects = boot_effects;
    // ?room=<code>: the room's lobby, at once.
    if let Some(code) = param("room") {
        boot_effects.extend(shell.borrow_mut().app.join_room(&code));
    }
    // ?device=<code>: this browser becomes the player of the device that showed it.
    if let Some(code) = param("device") {
        boot_effects.extend(shell.borrow_mut().app.claim(&code));
    }
    shell.borrow_mut().carry_out(boot_effects);
    let listeners = listen(&shell, &canvas, &input, &buttons)?;
    run_frames(&shell);
    let _ = input.focus();
    Ok(Game {
        shell,
        _listeners: listeners,
    })
}

/// Fetches the word lists and quotes of `needs` together (offline, from the service
/// worker's cache) and installs each, before the stored rounds are read: a round whose
/// file isn't in stays kept, unread, until a run that has it.
async fn install_lists(needs: Vec<typepper_game::request::Need>) {
    let fetches = needs.into_iter().map(|n| Box::pin(install_list(n)));
    Together(fetches.map(Some).collect()).await;
}

/// Fetches `need` and installs it, or says why not.
async fn install_list(need: typepper_game::request::Need) {
    let installed = match net::file(need).await {
        Ok(file) => need.install(file),
        Err(why) => Err(why.to_string()),
    };
    if let Err(why) = installed {
        dom::warn(&format!(
            "{need} didn't load ({why}): the kept rounds on them wait"
        ));
    }
}

/// Futures run together, done when all are: a `join_all` of a few lines, where the
/// futures crate's would cost the wasm more.
struct Together<F>(Vec<Option<std::pin::Pin<Box<F>>>>);

impl<F: std::future::Future<Output = ()>> std::future::Future for Together<F> {
    type Output = ();

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<()> {
        let mut pending = false;
        for slot in &mut self.0 {
            if let Some(future) = slot {
                match future.as_mut().poll(cx) {
                    std::task::Poll::Ready(()) => *slot = None,
                    std::task::Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            std::task::Poll::Pending
        } else {
            std::task::Poll::Ready(())
        }
    }
}

/// `?replay=<id>` (false) or `?race=<id>` (true).
fn run_param() -> Option<(String, bool)> {
    param("race")
        .map(|id| (id, true))
        .or_else(|| param("replay").map(|id| (id, false)))
}

/// The page's query parameter `name`, if given and not empty.
fn param(name: &str) -> Option<String> {
    let search = dom::window().ok()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get(name).filter(|v| !v.is_empty())
}

/// This page without its query: where a race link sends a friend.
fn game_url() -> Option<String> {
    let location = dom::window().ok()?.location();
    Some(format!(
        "{}{}",
        location.origin().ok()?,
        location.pathname().ok()?
    ))
}

/// What localStorage holds for the game; nothing when there is no storage.
fn read_storage(storage: Option<&web_sys::Storage>) -> storage::Stored {
    let Some(st) = storage else {
        return storage::Stored::default();
    };
    let get = |k: &str| st.get_item(k).ok().flatten();
    let keys: Vec<String> = (0..st.length().unwrap_or(0))
        .filter_map(|i| st.key(i).ok().flatten())
        .collect();
    storage::Stored {
        history: get(storage::HISTORY).unwrap_or_default(),
        outbox: keys
            .into_iter()
            .filter(|k| k.starts_with(storage::OUTBOX))
            .filter_map(|k| get(&k).map(|v| (k, v)))
            .collect(),
        player: get(storage::PLAYER),
        drill: get(storage::DRILL),
        live: get(storage::LIVE),
        settings: get(storage::SETTINGS),
        room: get(storage::ROOM),
        menu: get(storage::MENU),
        text: get(storage::TEXT),
    }
}

/// Hands a request's answer to the app, if the game still runs, and carries out what
/// the app makes of it.
fn answer_app(me: &Weak<RefCell<Shell>>, f: impl FnOnce(&mut App) -> Vec<Effect>) {
    if let Some(shell) = me.upgrade() {
        let mut shell = shell.borrow_mut();
        let effects = f(&mut shell.app);
        shell.carry_out(effects);
        shell.changed();
    }
}

impl Shell {
    /// Carries out what the app asked for: storage now, requests in the background (their
    /// answers go back to the app when they come).
    fn carry_out(&mut self, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::Warn(message) => dom::warn(&message),
                Effect::Save { key, value } => {
                    let saved = dom::local_storage().map(|s| s.set_item(&key, &value).is_ok());
                    if saved == Some(false) {
                        let why = format!("could not keep {key} (storage full?)");
                        dom::warn(&request::unsaved(&why));
                    }
                }
                Effect::Remove(key) => {
                    if let Some(s) = dom::local_storage() {
                        let _ = s.remove_item(&key);
                    }
                }
                Effect::Copy(text) => {
                    if let Ok(w) = dom::window() {
                        let _ = w.navigator().clipboard().write_text(&text);
                    }
                }
                Effect::Keystroke { wrong } => {
                    let volume = self.app.settings().sound;
                    if volume > 0 {
                        // boot.js's Web Audio: a page without it stays silent.
                        let _ = dom::click(wrong, f64::from(volume));
                    }
                }
                Effect::Request(request) => {
                    let (api, me) = (self.api.clone(), self.me.clone());
                    wasm_bindgen_futures::spawn_local(async move {
                        let answer = net::ask(&api, request).await;
                        answer_app(&me, |app| app.answer(answer, now(dom::now())));
                    });
                }
                Effect::JoinRoom(code) => {
                    // One room at a time: the last one's socket goes, quietly.
                    self.room = None;
                    let me = self.me.clone();
                    let heard = move |heard: Answer| {
                        answer_app(&me, |app| app.answer(heard, now(dom::now())));
                    };
                    match Socket::open(&self.api, &code, heard) {
                        Ok(socket) => self.room = Some(socket),
                        Err(why) => {
                            let closed = Answer::RoomClosed(why);
                            let effects = self.app.answer(closed, now(dom::now()));
                            self.carry_out(effects);
                        }
                    }
                }
                Effect::RoomSay(ask) => {
                    if let Some(socket) = &self.room {
                        socket.say(&ask);
                    }
                }
                Effect::LeaveRoom => self.room = None,
            }
        }
    }

    fn key(&mut self, key: Key, at: f64) {
        let effects = self.app.key(key, now(at));
        self.carry_out(effects);
        self.changed();
    }

    fn text(&mut self, text: &str, at: f64) {
        let effects = self.app.text(text, now(at));
        self.carry_out(effects);
        self.changed();
    }

    /// Something happened (a key, an answer, a resize): draw it on the next frame.
    fn changed(&mut self) {
        self.follow_screen();
        self.renderer.invalidate();
        self.ask();
    }

    /// Opens the text area as the custom text screen opens (the next frame fills it in
    /// with the game's draft), and removes it as the screen goes. Done as soon as
    /// something happens, not at the next frame, so that the focus moves while the
    /// player's key or tap is still the browser's event: a phone keeps its keyboard up
    /// only for a focus given then.
    fn follow_screen(&mut self) {
        let open = matches!(self.app.screen(), Screen::Text(_));
        if open == self.area.is_some() {
            return;
        }
        self.area = None;
        if !open {
            let _ = self.input.focus();
            return;
        }
        match TextArea::open(&self.input) {
            Ok(area) => {
                area.focus();
                self.area = Some(area);
            }
            Err(why) => dom::warn(&why.to_string()),
        }
    }

    /// The text area's text changed: it is the game's draft now, whole; or, typed before
    /// a frame showed the draft in it, it is added to the draft, as a paste is.
    fn drafted(&mut self, at: f64) {
        let Some(area) = &mut self.area else {
            return;
        };
        match area.take() {
            (draft, true) => self.app.set_draft(&draft),
            (typed, false) => {
                let effects = self.app.text(&typed, now(at));
                self.carry_out(effects);
            }
        }
        self.changed();
    }

    /// Focuses where keys go: the text area while it is open, else the hidden input.
    fn focus(&self) {
        match &self.area {
            Some(area) => area.focus(),
            None => {
                let _ = self.input.focus();
            }
        }
    }

    /// Asks for an animation frame, unless one is on its way.
    fn ask(&mut self) {
        if self.asked {
            return;
        }
        if let (Some(frame), Ok(w)) = (&self.frames, dom::window()) {
            self.asked = w
                .request_animation_frame(frame.as_ref().unchecked_ref())
                .is_ok();
        }
    }

    fn frame(&mut self, now: f64) {
        self.asked = false;
        let start = dom::now();
        self.frame_at(now);
        if self.frame_ms.len() == FRAME_TIMES {
            self.frame_ms.clear();
        }
        self.frame_ms.push(dom::now() - start);
        self.next_frame(now);
    }

    /// Asks for the next frame when the screen will next change by itself (the app's
    /// clock, the renderer's blink or flame): at once, after a timer, or not until an
    /// event. An idle screen costs nothing.
    fn next_frame(&mut self, now: f64) {
        let app = self.app.wake(self::now(now)).unwrap_or(f64::INFINITY);
        let at = app.min(self.renderer.wake_at());
        let (Ok(w), Some(timer)) = (dom::window(), &self.frames) else {
            return;
        };
        if let Some(old) = self.timer.take() {
            w.clear_timeout_with_handle(old);
        }
        // Within a frame's time: the next frame. Later: a timer, which asks for it.
        if at - now < 16.0 {
            self.ask();
        } else if at.is_finite() {
            // Not early: a frame before the moment would draw nothing, and ask again.
            let ms = (at - now).ceil().min(f64::from(i32::MAX)) as i32;
            self.timer = w
                .set_timeout_with_callback_and_timeout_and_arguments_0(
                    timer.as_ref().unchecked_ref(),
                    ms,
                )
                .ok();
        }
    }

    fn frame_at(&mut self, now: f64) {
        let effects = self.app.tick(self::now(now));
        self.carry_out(effects);
        let reduced = self.reduced.as_ref().is_some_and(|q| q.matches());
        self.renderer.set_look(*self.app.settings(), reduced);
        let model = self.app.model(now, &dom::LocalZone);
        // The model is what the mirror shows too: no draw, no change.
        if !self.renderer.frame(model, now) {
            return;
        }
        let Some(model) = self.renderer.drawn() else {
            return;
        };
        if let (Some(area), Body::Text(entry)) = (&mut self.area, &model.body) {
            area.follow(entry);
            if let Some(field) = self.renderer.field() {
                area.place(field, self.renderer.look().theme);
            }
        }
        if !self.drawn {
            self.drawn = true;
            // For the first-frame measurement (docs/PERFORMANCE.md).
            if let Some(p) = dom::window().ok().and_then(|w| w.performance()) {
                let _ = p.mark("typepper:first-frame");
            }
        }
        let next = Mirror::of(model);
        if next == self.shown {
            return;
        }
        for ((name, new), old) in FIELDS.iter().zip(next.fields()).zip(self.shown.fields()) {
            if new != old
                && let Ok(el) = dom::query(&self.mirror, &format!("[data-mirror={name}]"))
            {
                el.set_text_content(Some(new));
            }
        }
        if next.taps != self.shown.taps {
            self.buttons(next.taps);
        }
        self.shown = next;
    }

    /// The screen's buttons as the page's own, for a screen reader (the canvas's are
    /// pictures): each presses its key, as a tap on the canvas does. (Their labels are
    /// the game's own words, plain letters: nothing in them to escape.)
    fn buttons(&self, taps: &[Tap]) {
        let mut html = String::new();
        for tap in taps {
            html.push_str("<button>");
            html.push_str(tap.label);
            html.push_str("</button>");
        }
        self.buttons.set_inner_html(&html);
    }

    /// A click on one of the page's buttons: the key its tap presses.
    fn pressed(&mut self, target: Option<web_sys::EventTarget>, at: f64) {
        let label = target
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|b| b.text_content());
        let tap = self
            .shown
            .taps
            .iter()
            .find(|t| label.as_deref() == Some(t.label));
        if let Some(tap) = tap {
            self.key(tap.key, at);
        }
        self.focus();
    }

    fn click(&mut self, x: f64, y: f64, at: f64) {
        let effects = match self.renderer.target_at(x, y) {
            Some(Hit::Item(index)) => self.app.pick(index, now(at)),
            Some(Hit::Level(index, up)) => self.app.pick_value(index, up, now(at)),
            Some(Hit::Key(key) | Hit::Arrow(key)) => self.app.key(key, now(at)),
            Some(Hit::Player(index)) => self.app.pick_player(index, now(at)),
            None => vec![],
        };
        self.carry_out(effects);
        self.changed();
        self.focus();
    }
}

/// An event's time as the game takes it: the event's `timeStamp`, and the wall clock.
fn now(at: f64) -> Now {
    Now {
        mono: at,
        unix_ms: dom::unix_ms(),
    }
}

/// The keys a `keydown` handles itself; text comes through the input's events instead.
fn special_key(e: &KeyboardEvent) -> Option<Key> {
    // Ctrl-backspace, or alt-backspace as a Mac has it, deletes a word as in Monkeytype.
    if (e.ctrl_key() || e.alt_key()) && e.key() == "Backspace" {
        return Some(Key::DeleteWord);
    }
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
    buttons: &HtmlElement,
) -> Result<Vec<Listener>, DomError> {
    let window = dom::window()?;
    let mut out = vec![];

    let s = shell.clone();
    out.push(Listener::new(&window, "keydown", move |e: Event| {
        let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
            return;
        };
        let mut shell = s.borrow_mut();
        if shell.area.as_ref().is_some_and(|a| a.is(e.target())) {
            // The text area edits its text itself (backspace, arrows, paste, undo): only
            // enter (shift+enter is a new line), tab and esc are the game's, and not while
            // an IME's enter or esc is choosing its word.
            let key = special_key(e).filter(|k| matches!(k, Key::Enter | Key::Tab | Key::Escape));
            if let Some(key) = key
                && !e.shift_key()
                && !e.is_composing()
            {
                e.prevent_default();
                shell.key(key, e.time_stamp());
            }
        } else if let Some(key) = special_key(e) {
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
            shell.focus();
        }
    })?);

    // Text: whatever lands in the hidden input is typed, then the input is emptied; the
    // text area's text, composed or still composing, is the draft. (One listener for both,
    // where their events bubble to: each closure costs the wasm its glue.)
    let s = shell.clone();
    out.push(Listener::new(&window, "input", move |e: Event| {
        let mut shell = s.borrow_mut();
        if shell.area.as_ref().is_some_and(|a| a.is(e.target())) {
            shell.drafted(e.time_stamp());
            return;
        }
        let composing = e
            .dyn_ref::<InputEvent>()
            .is_some_and(InputEvent::is_composing);
        if composing || e.target() != Some(shell.input.clone().into()) {
            return;
        }
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
    out.push(Listener::new(buttons, "click", move |e: Event| {
        s.borrow_mut().pressed(e.target(), e.time_stamp());
    })?);
    let s = shell.clone();
    out.push(Listener::new(&window, "resize", move |_| {
        s.borrow_mut().changed();
    })?);
    // Back online: send what the outbox holds, and ask for seeds again.
    let s = shell.clone();
    out.push(Listener::new(&window, "online", move |_| {
        let mut shell = s.borrow_mut();
        let effects = shell.app.online();
        shell.carry_out(effects);
        shell.changed();
    })?);
    Ok(out)
}

/// Makes the shell's frame callback, and asks for the first frame. The timer calls it
/// too, with no time (a second closure would cost the wasm its glue). It holds the shell
/// weakly: the [`Game`] owns it, and dropping the game ends it.
fn run_frames(shell: &Rc<RefCell<Shell>>) {
    let me = Rc::downgrade(shell);
    let frame = Closure::<dyn FnMut(f64)>::new(move |now: f64| {
        if let Some(shell) = me.upgrade() {
            let mut shell = shell.borrow_mut();
            if now.is_nan() {
                shell.timer = None;
                shell.ask();
            } else {
                shell.frame(now);
            }
        }
    });
    let mut shell = shell.borrow_mut();
    shell.frames = Some(frame);
    shell.ask();
}
