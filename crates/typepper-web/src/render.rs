//! The canvas renderer: draws a screen's model, only when the model changed or an
//! animation runs.
//!
//! One module a screen, as the game's model has them (`render/results.rs` draws
//! `model::Results`); here, the renderer and what every screen has (the banner, the foot's
//! hints and buttons, a list's head and rows, a name's field); the canvas's primitives in
//! `render/canvas.rs`. Each tone's colour is the game's; the canvas only writes it as CSS.

mod boards;
mod canvas;
mod devices;
mod history;
mod keys;
mod link;
mod menu;
mod play;
mod profile;
mod results;
mod room;
mod settings;
#[cfg(all(test, target_arch = "wasm32"))]
mod tests;
mod text;

use typepper_game::app::Key;
use typepper_game::layout::Scroll;
use typepper_game::model::{Body, Model, Tap, Tone};
use typepper_game::settings::{Motion, Settings};
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

pub(crate) use self::canvas::{Css, Rect};
use crate::dom::{Context, DomError};

/// A blinking caret's half period, in ms.
const BLINK_MS: f64 = 530.0;

/// Whether a blinking caret shows at `now`.
fn blink_on(now: f64) -> bool {
    (now / BLINK_MS).floor() as i64 % 2 == 0
}

/// When a blinking caret next turns on or off after `now`: the next draw it needs.
fn next_blink(now: f64) -> f64 {
    ((now / BLINK_MS).floor() + 1.0) * BLINK_MS
}

/// Cells `widths` wide packed in order into rows no wider than `room`, `gap` apart:
/// each row's count of cells and width.
fn pack(widths: &[f64], room: f64, gap: f64) -> Vec<(usize, f64)> {
    let mut rows: Vec<(usize, f64)> = vec![];
    for &cell in widths {
        match rows.last_mut() {
            Some((n, used)) if *used + gap + cell <= room => {
                *n += 1;
                *used += gap + cell;
            }
            _ => rows.push((1, cell)),
        }
    }
    rows
}

/// What a click can hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    /// The screen's list's item at this index (menu item, history row, board row): the
    /// index [`typepper_game::app::App::pick`] takes.
    Item(usize),
    /// The `‹` (false) or `›` (true) beside the value (a length, a level, a language,
    /// a switch) of the menu item at this index.
    Level(usize, bool),
    /// A button standing for this key.
    Key(Key),
    /// An arrow in a line of text, and the key it stands for: its box is a finger's size,
    /// so it may take in text beside it, as a button's may not.
    Arrow(Key),
    /// The player's name on a board's row at this index: their profile
    /// ([`typepper_game::app::App::pick_player`]).
    Player(usize),
}

/// A line of small text's height, and a gap between things.
const LINE: f64 = 20.0;
const GAP: f64 = 16.0;
/// A button's height: a thumb's.
const BUTTON_H: f64 = 44.0;

/// The renderer's own state: the canvas, the layout kept between frames, the caret's
/// animation.
pub struct Renderer {
    canvas: HtmlCanvasElement,
    ctx: CanvasRenderingContext2d,
    size: (f64, f64, f64),
    scroll: Scroll,
    caret: Option<(f64, f64, u64)>,
    last_frame: f64,
    /// The model last drawn: a frame with an equal one and no animation is skipped.
    last: Option<Model>,
    dirty: bool,
    /// When the last draw's animation needs the next one: at once while the caret
    /// glides, at the blink's next turn while it blinks, never when nothing moves.
    wake_at: f64,
    hits: Vec<(Rect, Hit)>,
    /// Where the foot (the buttons and hints) begins: the screen's body ends above it.
    bottom: f64,
    /// The custom text screen's field, which the page's text area lies over.
    field: Option<Rect>,
    /// How long each of the recent draws took, in ms (for the frame-time measurement).
    pub draw_ms: Vec<f64>,
    /// The player's settings as last drawn: the theme, the caret, the motion.
    look: Settings,
    /// The system asks for reduced motion (`prefers-reduced-motion`).
    system_reduced: bool,
}
impl Renderer {
    /// A renderer drawing on `canvas`.
    pub fn new(canvas: HtmlCanvasElement) -> Result<Renderer, DomError> {
        let ctx = canvas
            .get_context("2d")
            .context("getting the canvas's 2d context")?
            .context("the canvas has no 2d context")?
            .dyn_into::<CanvasRenderingContext2d>()
            .map_err(|_| DomError("the 2d context is not a CanvasRenderingContext2d".into()))?;
        Ok(Renderer::on(canvas, ctx))
    }

    /// A renderer drawing with `ctx` on `canvas`, as given: the test gives it a context
    /// that records what is drawn.
    fn on(canvas: HtmlCanvasElement, ctx: CanvasRenderingContext2d) -> Renderer {
        Renderer {
            canvas,
            ctx,
            size: (0.0, 0.0, 1.0),
            scroll: Scroll::default(),
            caret: None,
            last_frame: 0.0,
            last: None,
            dirty: true,
            wake_at: f64::INFINITY,
            hits: vec![],
            bottom: 0.0,
            field: None,
            draw_ms: Vec::with_capacity(512),
            look: Settings::default(),
            system_reduced: false,
        }
    }

    /// Draw on the next frame whatever happens.
    pub fn invalidate(&mut self) {
        self.dirty = true;
    }

    /// Draws in `look` from the next frame on (at once, if it changed); `system_reduced`
    /// is what the system says of motion.
    pub fn set_look(&mut self, look: Settings, system_reduced: bool) {
        if (look, system_reduced) != (self.look, self.system_reduced) {
            self.look = look;
            self.system_reduced = system_reduced;
            self.dirty = true;
        }
    }

    /// The look drawn in.
    pub fn look(&self) -> &Settings {
        &self.look
    }

    /// Whether the caret glides and the flame flickers.
    fn moves(&self) -> bool {
        match self.look.motion {
            Motion::System => !self.system_reduced,
            Motion::Reduced => false,
            Motion::Full => true,
        }
    }

    /// When an animation of the renderer's own (a blink, the caret's glide, the flame)
    /// next needs a frame; infinity when none runs.
    pub fn wake_at(&self) -> f64 {
        self.wake_at
    }

    /// Where the last frame put the custom text screen's field, if it drew that screen.
    pub fn field(&self) -> Option<Rect> {
        self.field
    }

    /// What is at CSS pixel `(x, y)`.
    pub fn target_at(&self, x: f64, y: f64) -> Option<Hit> {
        self.hits
            .iter()
            .find(|(r, _)| r.contains(x, y))
            .map(|&(_, t)| t)
    }

    /// One animation frame at `now`: follows the canvas's size and device pixel ratio,
    /// and draws `model` if it differs from the last drawn, or an animation runs.
    /// Returns whether it drew. It keeps the model drawn ([`Renderer::drawn`]) to compare
    /// the next with, moved, not cloned: a clone of every screen's model was a clone of
    /// each of its lists' types in the wasm.
    pub fn frame(&mut self, model: Model, now: f64) -> bool {
        let dt = (now - self.last_frame).clamp(0.0, 100.0);
        self.last_frame = now;
        self.follow_size();
        if !self.dirty && now < self.wake_at && self.last.as_ref() == Some(&model) {
            return false;
        }
        self.dirty = false;
        let start = crate::dom::now();
        self.draw(&model, now, dt);
        if self.draw_ms.len() == self.draw_ms.capacity() {
            self.draw_ms.clear();
        }
        self.draw_ms.push(crate::dom::now() - start);
        self.last = Some(model);
        true
    }

    /// The model the last frame drew.
    pub fn drawn(&self) -> Option<&Model> {
        self.last.as_ref()
    }

    fn follow_size(&mut self) {
        let dpr = web_sys::window()
            .map_or(1.0, |w| w.device_pixel_ratio())
            .max(1.0);
        let w = f64::from(self.canvas.client_width().max(1));
        let h = f64::from(self.canvas.client_height().max(1));
        if (w, h, dpr) != self.size {
            self.size = (w, h, dpr);
            // Backing pixels at the screen's density keep text crisp on high-DPI screens.
            self.canvas.set_width((w * dpr).round() as u32);
            self.canvas.set_height((h * dpr).round() as u32);
            self.dirty = true;
        }
    }

    fn draw(&mut self, model: &Model, now: f64, dt: f64) {
        let (w, h, dpr) = self.size;
        let ctx = &self.ctx;
        let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
        self.fill_style(Tone::Background);
        ctx.fill_rect(0.0, 0.0, w, h);
        self.hits.clear();
        self.field = None;
        self.wake_at = f64::INFINITY;
        if let Some(banner) = &model.banner {
            self.banner(banner);
        }
        self.bottom = self.foot(model.hints, model.taps);
        let notice = model
            .notice
            .as_ref()
            .map(|(line, tone)| (line.as_str(), *tone));
        match &model.body {
            Body::Menu(menu) => self.draw_menu(menu, notice),
            Body::History(history) => self.draw_history(history),
            Body::Play(play) => self.draw_play(play, notice, now, dt),
            Body::Results(r) => self.draw_results(r, notice),
            Body::Link(link) => self.draw_link(link, notice, now),
            Body::Devices(d) => self.draw_devices(d, notice),
            Body::Boards(b) => self.draw_boards(b),
            Body::Keys(k) => self.draw_keys(k, notice),
            Body::Profile(v) => self.draw_profile(v, notice),
            Body::Room(r) => self.draw_room(r, notice, now),
            Body::Text(t) => self.draw_text(t, notice),
            Body::Settings(s) => self.draw_settings(s, notice),
        }
    }

    /// The column of text everything is laid out in.
    fn column(&self) -> (f64, f64) {
        let (w, _, _) = self.size;
        let margin = if w < 600.0 { 32.0 } else { 64.0 };
        let width = (w - margin).clamp(240.0, 960.0);
        ((w - width) / 2.0, width)
    }

    /// The foot: the hints, wrapped at the bottom, and above them the screen's buttons,
    /// as many a row as fit. Returns where it begins.
    fn foot(&mut self, hints: &str, taps: &[Tap]) -> f64 {
        let (w, h, _) = self.size;
        let (_, width) = self.column();
        self.font(13.0, 400);
        let lines = self.wrap(hints, width);
        let mut y = h - GAP - (lines.len() - 1) as f64 * LINE;
        let top = y - LINE - GAP;
        for line in lines {
            self.text(line, w / 2.0, y, Tone::Dim, "center");
            y += LINE;
        }
        if taps.is_empty() {
            return top;
        }
        self.font(15.0, 600);
        let wide: Vec<f64> = taps
            .iter()
            .map(|t| (self.text_width(t.label) + 28.0).max(72.0))
            .collect();
        let rows = pack(&wide, width, 10.0);
        let mut y = top - rows.len() as f64 * (BUTTON_H + 10.0);
        let first = y;
        let mut taps = taps.iter().zip(wide);
        for (n, used) in rows {
            let mut x = (w - used) / 2.0;
            for (t, tw) in taps.by_ref().take(n) {
                let r = Rect {
                    x,
                    y,
                    w: tw,
                    h: BUTTON_H,
                };
                self.fill_style(Tone::Panel);
                self.round_rect(r, 10.0);
                self.ctx.fill();
                self.text(t.label, x + r.w / 2.0, y + 28.0, Tone::Text, "center");
                self.hits.push((r, Hit::Key(t.key)));
                x += r.w + 10.0;
            }
            y += BUTTON_H + 10.0;
        }
        first - GAP
    }

    /// A notice, wrapped, centred from baseline `y`; returns the baseline after it.
    fn notice(&self, (line, tone): (&str, Tone), y: f64) -> f64 {
        let (w, _, _) = self.size;
        self.font(14.0, 500);
        self.lines(line, w / 2.0, y, tone, "center")
    }

    /// A list screen's head: its title at the left, `right` (in the font already set)
    /// at the right beside it, or under it where the two don't fit side by side.
    /// Returns the baseline of the head's last line.
    fn head(&self, title: &str, right: &str, tone: Tone, font: (f64, u32)) -> f64 {
        self.head_at(title, right, tone, font).y
    }

    /// [`Renderer::head`], and where `right` went: its baseline, left edge and width.
    fn head_at(&self, title: &str, right: &str, tone: Tone, font: (f64, u32)) -> Rect {
        let (x0, width) = self.column();
        self.fit(title, width, 26.0, 700);
        self.text(title, x0, 70.0, Tone::Text, "left");
        let title_w = self.text_width(title);
        self.font(font.0, font.1);
        let w = self.text_width(right);
        let (x, y) = if title_w + 24.0 + w <= width {
            (x0 + width - w, 70.0)
        } else {
            (x0, 98.0)
        };
        self.text(right, x, y, tone, "left");
        Rect { x, y, w, h: 0.0 }
    }

    /// A name being typed in its field: the name in the accent, as much smaller as a
    /// long one needs, centred or from the field's left, and after it a blinking caret.
    fn name_field(&mut self, field: Rect, name: &str, centred: bool, now: f64) {
        self.fill_style(Tone::Panel);
        self.round_rect(field, 12.0);
        self.ctx.fill();
        self.fit(name, field.w - 24.0, 26.0, 600);
        let tw = self.text_width(name);
        let (x, align, caret) = if centred {
            let middle = field.x + field.w / 2.0;
            (middle, "center", middle + tw / 2.0 + 3.0)
        } else {
            (field.x + 12.0, "left", field.x + 15.0 + tw)
        };
        self.text(name, x, field.y + 36.0, Tone::Accent, align);
        if blink_on(now) {
            self.fill_style(Tone::Caret);
            self.ctx.fill_rect(caret, field.y + 12.0, 2.5, 30.0);
        }
        self.wake_at = self.wake_at.min(next_blink(now));
    }

    /// A scrolling list of `count` rows from `top`, one or two lines each, the `picked`
    /// one highlighted and centred when the list is longer than the space above the
    /// foot: each visible row's index, first baseline and whether it is picked, for the
    /// caller to fill in. Rows are clickable.
    fn list_rows(
        &mut self,
        count: usize,
        picked: usize,
        top: f64,
        two_lines: bool,
    ) -> Vec<(usize, f64, bool)> {
        let (x0, width) = self.column();
        let row_h = if two_lines { 34.0 + LINE } else { 34.0 };
        let visible = (((self.bottom - top + 23.0) / row_h).floor() as usize).max(3);
        // The picked row in the middle where it can be; none picked, from the top.
        let first = picked
            .min(count)
            .saturating_sub(visible / 2)
            .min(count.saturating_sub(visible));
        let mut out = vec![];
        for (n, i) in (first..count).take(visible).enumerate() {
            let y = top + n as f64 * row_h;
            let rect = Rect {
                x: x0 - 12.0,
                y: y - 23.0,
                w: width + 24.0,
                h: row_h - 4.0,
            };
            let selected = i == picked;
            if selected {
                self.fill_style(Tone::Panel);
                self.round_rect(rect, 8.0);
                self.ctx.fill();
            }
            self.hits.push((rect, Hit::Item(i)));
            out.push((i, y, selected));
        }
        out
    }

    fn banner(&self, label: &str) {
        let (w, _, _) = self.size;
        self.fit(label, w - 44.0, 13.0, 700);
        let tw = self.text_width(label) + 28.0;
        let r = Rect {
            x: w / 2.0 - tw / 2.0,
            y: 18.0,
            w: tw,
            h: 26.0,
        };
        self.fill_style(Tone::Wrong);
        self.round_rect(r, 13.0);
        self.ctx.fill();
        self.text(label, w / 2.0, 36.0, Tone::Background, "center");
    }
}
