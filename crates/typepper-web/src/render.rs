//! The canvas renderer: draws a screen's model, only when the model changed or an
//! animation runs.

use typepper_engine::Tier;
use typepper_game::app::Key;
use typepper_game::layout::{self, LINES, Scroll};
use typepper_game::model::{
    Boards, Body, Chart, Ghost, History, Keys, Link, Menu, Model, Play, Race, Results, Room, Tap,
    Tone, WORDMARK,
};
use typepper_game::palette::FLAME;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::dom::{Context, DomError};

const FONT_STACK: &str =
    "ui-monospace, SFMono-Regular, 'DejaVu Sans Mono', Menlo, Consolas, monospace";

/// A colour as CSS writes it, `#rrggbb`, made on the stack: the canvas takes a string.
struct Css([u8; 7]);

impl Css {
    fn of(rgb: u32) -> Css {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut out = [b'#'; 7];
        for (i, b) in out[1..].iter_mut().enumerate() {
            *b = HEX[(rgb >> (20 - 4 * i) & 0xf) as usize];
        }
        Css(out)
    }

    fn str(&self) -> &str {
        core::str::from_utf8(&self.0).unwrap_or("#000")
    }
}

/// The canvas's colour for a tone.
fn css(tone: Tone) -> Css {
    Css::of(tone.rgb())
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

impl Rect {
    fn contains(&self, x: f64, y: f64) -> bool {
        x >= self.x && x < self.x + self.w && y >= self.y && y < self.y + self.h
    }
}

/// A blinking caret's half period, in ms.
const BLINK_MS: f64 = 530.0;

/// Other racers' names over their carets: big enough to read on a phone, bold.
const LABEL_PX: f64 = 13.0;
/// The least room between two of them.
const LABEL_GAP: f64 = 8.0;

/// Whether a blinking caret shows at `now`.
fn blink_on(now: f64) -> bool {
    (now / BLINK_MS).floor() as i64 % 2 == 0
}

/// When a blinking caret next turns on or off after `now`: the next draw it needs.
fn next_blink(now: f64) -> f64 {
    ((now / BLINK_MS).floor() + 1.0) * BLINK_MS
}

/// A wave like `x.sin()` (period 2π, from -1 to 1, within 0.06 of it): a parabola each
/// half period. The flame's flicker needs no more, and libm's sine would bring 6 KB of
/// argument reduction into the wasm.
fn wave(x: f64) -> f64 {
    let turn = x / core::f64::consts::TAU;
    let f = turn - turn.floor();
    let half = if f < 0.5 { f } else { f - 0.5 };
    let v = 16.0 * half * (0.5 - half);
    if f < 0.5 { v } else { -v }
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
    /// The `‹` (false) or `›` (true) beside the menu item's level at this index.
    Level(usize, bool),
    /// A button standing for this key.
    Key(Key),
    /// An arrow in a line of text, and the key it stands for: its box is a finger's size,
    /// so it may take in text beside it, as a button's may not.
    Arrow(Key),
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
    /// How long each of the recent draws took, in ms (for the frame-time measurement).
    pub draw_ms: Vec<f64>,
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
            draw_ms: Vec::with_capacity(512),
        }
    }

    /// Draw on the next frame whatever happens.
    pub fn invalidate(&mut self) {
        self.dirty = true;
    }

    /// When an animation of the renderer's own (a blink, the caret's glide, the flame)
    /// next needs a frame; infinity when none runs.
    pub fn wake_at(&self) -> f64 {
        self.wake_at
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
    /// Returns whether it drew.
    pub fn frame(&mut self, model: &Model, now: f64) -> bool {
        let dt = (now - self.last_frame).clamp(0.0, 100.0);
        self.last_frame = now;
        self.follow_size();
        if !self.dirty && now < self.wake_at && self.last.as_ref() == Some(model) {
            return false;
        }
        self.dirty = false;
        let start = crate::dom::now();
        self.draw(model, now, dt);
        self.last = Some(model.clone());
        if self.draw_ms.len() == self.draw_ms.capacity() {
            self.draw_ms.clear();
        }
        self.draw_ms.push(crate::dom::now() - start);
        true
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
            Body::Play(play) => self.draw_play(play, now, dt),
            Body::Results(r) => self.draw_results(r, notice),
            Body::Link(link) => self.draw_link(link, notice, now),
            Body::Boards(b) => self.draw_boards(b),
            Body::Keys(k) => self.draw_keys(k, notice),
            Body::Room(r) => self.draw_room(r, notice, now),
        }
    }

    fn font(&self, size: f64, weight: u32) {
        self.ctx
            // Whole pixels: formatting a float would bring float printing into the wasm.
            .set_font(&format!("{weight} {}px {FONT_STACK}", size.round() as u32));
    }

    fn fill_style(&self, tone: Tone) {
        self.ctx.set_fill_style_str(css(tone).str());
    }

    fn stroke_style(&self, tone: Tone) {
        self.ctx.set_stroke_style_str(css(tone).str());
    }

    fn text(&self, s: &str, x: f64, y: f64, tone: Tone, align: &str) {
        self.fill_style(tone);
        self.ctx.set_text_align(align);
        let _ = self.ctx.fill_text(s, x, y);
    }

    fn text_width(&self, s: &str) -> f64 {
        self.ctx.measure_text(s).map_or(0.0, |m| m.width())
    }

    /// The widest of `texts` in the current font.
    fn widest<'a>(&self, texts: impl Iterator<Item = &'a str>) -> f64 {
        let mut widest = 0.0_f64;
        for t in texts {
            widest = widest.max(self.text_width(t));
        }
        widest
    }

    /// Sets the font at `size`, or as much smaller as `s` needs to be no wider than
    /// `width` (9 px at least): a line that must stay one line, such as a banner.
    fn fit(&self, s: &str, width: f64, size: f64, weight: u32) -> f64 {
        self.font(size, weight);
        let w = self.text_width(s);
        if w <= width {
            return size;
        }
        let size = (size * width / w).floor().max(9.0);
        self.font(size, weight);
        size
    }

    /// `s` broken into lines no wider than `width` in the current font: after a ` · `
    /// where one fits, else after a space.
    fn wrap<'a>(&self, s: &'a str, width: f64) -> Vec<&'a str> {
        layout::wrap(s, |t| self.text_width(t) <= width)
    }

    /// Draws `s` wrapped to the column from baseline `y`, a line each `LINE`; returns
    /// the baseline after its last line.
    fn lines(&self, s: &str, x: f64, y: f64, tone: Tone, align: &str) -> f64 {
        let (_, width) = self.column();
        let mut y = y;
        for line in self.wrap(s, width) {
            self.text(line, x, y, tone, align);
            y += LINE;
        }
        y
    }

    fn round_rect(&self, r: Rect, radius: f64) {
        let ctx = &self.ctx;
        let rad = radius.min(r.h / 2.0).min(r.w / 2.0);
        ctx.begin_path();
        ctx.move_to(r.x + rad, r.y);
        let _ = ctx.arc_to(r.x + r.w, r.y, r.x + r.w, r.y + r.h, rad);
        let _ = ctx.arc_to(r.x + r.w, r.y + r.h, r.x, r.y + r.h, rad);
        let _ = ctx.arc_to(r.x, r.y + r.h, r.x, r.y, rad);
        let _ = ctx.arc_to(r.x, r.y, r.x + r.w, r.y, rad);
        ctx.close_path();
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
            .map(|t| (self.text_width(t.label) + 36.0).max(72.0))
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

    fn title(&self, y: f64) {
        let (w, _, _) = self.size;
        self.font(44.0, 700);
        // "ty" and "pepper": the pepper in typepper, in its colour.
        let all: f64 = WORDMARK.iter().map(|(part, _)| self.text_width(part)).sum();
        let mut x = w / 2.0 - all / 2.0;
        for (part, tone) in WORDMARK {
            self.text(part, x, y, tone, "left");
            x += self.text_width(part);
        }
    }

    fn draw_menu(&mut self, menu: &Menu, notice: Option<(&str, Tone)>) {
        let (w, h, _) = self.size;
        let item_h = 44.0;
        // A fifth down the screen, or higher where what is under the items would reach the
        // foot's buttons: room for the notice and each line, two rows where they wrap.
        let under = [
            notice.map(|n| n.0),
            menu.last_round.as_deref(),
            Some(&menu.player),
        ];
        let under = under.iter().flatten().count() + usize::from(menu.race.is_some());
        let tall = 90.0 + menu.items.len() as f64 * item_h + 30.0 + under as f64 * 2.0 * LINE;
        let top = (h * 0.22).min(self.bottom - tall).max(70.0);
        self.title(top);
        self.font(14.0, 400);
        self.text(menu.tagline, w / 2.0, top + 30.0, Tone::Dim, "center");
        let y0 = top + 90.0;
        for (i, item) in menu.items.iter().enumerate() {
            let y = y0 + i as f64 * item_h;
            let selected = i == menu.selected;
            let item_w = (w - 24.0).min(340.0);
            let rect = Rect {
                x: w / 2.0 - item_w / 2.0,
                y: y - 28.0,
                w: item_w,
                h: item_h - 6.0,
            };
            if selected {
                self.fill_style(Tone::Panel);
                self.round_rect(rect, 10.0);
                self.ctx.fill();
            }
            self.font(20.0, if selected { 700 } else { 500 });
            let text = item.text();
            self.text(&text, w / 2.0, y, menu.tone(i), "center");
            // The level's arrows are targets of their own, found before the item's.
            // The text ends `‹ lvN ›`: `‹` is after the label and two spaces, `›` last.
            if item.level.is_some() {
                let full = self.text_width(&text);
                let arrow = self.text_width("›");
                let left = w / 2.0 - full / 2.0;
                let lower = left + self.text_width(&item.label) + 2.0 * self.text_width(" ");
                for (x, up) in [(lower, false), (left + full - arrow, true)] {
                    let hit = Rect {
                        x: x - 8.0,
                        w: arrow + 16.0,
                        ..rect
                    };
                    self.hits.push((hit, Hit::Level(i, up)));
                }
            }
            if let Some(badge) = item.badge() {
                // Beside the item; where the screen ends first, inside its right end, or
                // in its top corner where the item's text reaches that far.
                let text_end = w / 2.0 + self.text_width(&text) / 2.0;
                self.font(11.0, 600);
                let (right, badge_w) = (rect.x + rect.w, self.text_width(badge));
                if right + 14.0 + badge_w <= w - 8.0 {
                    self.text(badge, right + 14.0, y - 2.0, Tone::Dim, "left");
                } else if text_end + 8.0 <= right - 12.0 - badge_w {
                    self.text(badge, right - 12.0, y - 2.0, Tone::Dim, "right");
                } else {
                    self.text(badge, right - 12.0, rect.y + 12.0, Tone::Dim, "right");
                }
            }
            self.hits.push((rect, Hit::Item(i)));
        }
        let mut y = y0 + menu.items.len() as f64 * item_h + 10.0;
        if let Some(n) = notice {
            y = self.notice(n, y);
        }
        y += 10.0;
        self.font(14.0, 400);
        if let Some(line) = &menu.last_round {
            y = self.lines(line, w / 2.0, y, Tone::Dim, "center") + 4.0;
        }
        y = self.lines(&menu.player, w / 2.0, y, Tone::Dim, "center") + 4.0;
        if let Some(line) = &menu.race {
            self.lines(line, w / 2.0, y, Tone::Ghost, "center");
        }
    }

    fn draw_history(&mut self, history: &History) {
        let (w, h, _) = self.size;
        let (x0, width) = self.column();
        self.font(14.0, 400);
        let top = self.head(history.title, &history.caption, Tone::Dim, (14.0, 400)) + 50.0;
        if let Some(empty) = history.empty {
            self.font(18.0, 400);
            self.lines(empty, w / 2.0, h / 2.0, Tone::Dim, "center");
        }
        let rows = &history.rows;
        // Five columns where each one's widest fits between its neighbours; else each
        // row on two lines: the mode and the score, then the date and the rest.
        self.font(16.0, 700);
        let widest = |cell: fn(&typepper_game::model::HistoryRow) -> &str| {
            self.widest(rows.iter().map(cell)) + GAP
        };
        let (date, title) = (widest(|r| &r.date), widest(|r| &r.title));
        let (score, accuracy) = (widest(|r| &r.headline), widest(|r| &r.accuracy));
        let shared = widest(|r| r.shared());
        let one_line = date <= width * 0.3
            && title + score <= width * 0.38
            && accuracy <= width * 0.16
            && shared <= width * 0.16;
        for (i, y, selected) in self.list_rows(rows.len(), history.selected, top, !one_line) {
            let (r, color) = (&rows[i], history.tone(i));
            self.font(16.0, if selected { 700 } else { 400 });
            if one_line {
                self.text(&r.date, x0, y, Tone::Dim, "left");
                self.text(&r.title, x0 + width * 0.3, y, Tone::Text, "left");
                self.text(&r.headline, x0 + width * 0.68, y, color, "right");
                self.text(&r.accuracy, x0 + width * 0.84, y, Tone::Dim, "right");
                self.text(r.shared(), x0 + width, y, Tone::Dim, "right");
            } else {
                self.text(&r.title, x0, y, Tone::Text, "left");
                self.text(&r.headline, x0 + width, y, color, "right");
                self.font(13.0, 400);
                self.text(&r.date, x0, y + LINE, Tone::Dim, "left");
                self.text(&r.accuracy, x0 + width, y + LINE, Tone::Dim, "right");
                let before = x0 + width - self.text_width(&r.accuracy) - GAP;
                self.text(r.shared(), before, y + LINE, Tone::Dim, "right");
            }
        }
    }

    /// The keys screen: the keyboard shaded by errors or time, the worst keys and pairs
    /// (side by side where their lines fit, else one above the other), and at the
    /// body's foot the trend and the drill.
    fn draw_keys(&mut self, k: &Keys, notice: Option<(&str, Tone)>) {
        let (w, h, _) = self.size;
        let (x0, width) = self.column();
        let y = self.head(k.title, k.by, Tone::Accent, (16.0, 700));
        self.font(14.0, 400);
        let y = self.lines(&k.caption, x0, y + 26.0, Tone::Dim, "left");
        if let Some((line, tone)) = notice.or(k.empty.map(|e| (e, Tone::Dim))) {
            self.font(18.0, 400);
            self.lines(line, w / 2.0, h / 2.0, tone, "center");
            return;
        }
        // The keyboard: each row a little to the right of the one above.
        let cap = (width / 11.5).min(54.0);
        let board_w = cap * 10.0;
        let left = x0 + (width - board_w - cap) / 2.0;
        let board_top = y + 8.0;
        for (r, row) in k.keyboard.iter().enumerate() {
            for (i, key) in row.iter().enumerate() {
                let rect = Rect {
                    x: left + r as f64 * cap * 0.5 + i as f64 * cap,
                    y: board_top + r as f64 * cap,
                    w: cap - 6.0,
                    h: cap - 6.0,
                };
                self.fill_style(key.tone());
                self.round_rect(rect, 8.0);
                self.ctx.fill();
                self.font(cap * 0.42, 700);
                let mut buf = [0u8; 4];
                self.text(
                    key.key.encode_utf8(&mut buf),
                    rect.x + rect.w / 2.0,
                    rect.y + rect.h * 0.66,
                    key.ink(),
                    "center",
                );
            }
        }
        let top = board_top + 3.0 * cap + 30.0;

        // The trend and the drill, from the foot up.
        self.font(14.0, 400);
        let trend = self.wrap(&k.trend, width);
        self.font(13.0, 400);
        let why = k.no_drill.map_or(vec![], |why| self.wrap(why, width));
        let offer = k.offer();
        let n = trend.len() + why.len() + usize::from(offer.is_some());
        let first = self.bottom - 6.0 - (n - 1) as f64 * LINE;
        let mut at = first;
        self.font(14.0, 400);
        for line in trend {
            self.text(line, x0, at, Tone::Dim, "left");
            at += LINE;
        }
        if let Some((offer, drill)) = offer {
            self.text(offer, x0, at, Tone::Dim, "left");
            let after = x0 + self.text_width(offer) + 8.0;
            self.font(16.0, 700);
            self.text(&drill, after, at, Tone::Accent, "left");
            at += LINE;
        }
        self.font(13.0, 400);
        for line in why {
            self.text(line, x0, at, Tone::Dim, "left");
            at += LINE;
        }

        // The lists, in what is left above.
        self.font(14.0, 400);
        let lines = k.lists.iter().flat_map(|l| &l.lines);
        let widest = self.widest(lines.map(String::as_str));
        let beside = widest <= width / 2.0 - GAP;
        // One above the other, the lines smaller where the widest is wider than the column.
        let size = (14.0 * width / widest.max(1.0)).floor().clamp(9.0, 14.0);
        let room = first - LINE - GAP - top;
        let (room, step) = if beside {
            (room, 0.0)
        } else {
            ((room - 30.0) / 2.0, (room + 30.0) / 2.0)
        };
        let notes = k.lists.iter().any(|l| l.note.is_some());
        let rows = ((room - 26.0 - if notes { 24.0 } else { 0.0 }) / 24.0).floor();
        let rows = (rows as usize + 1).clamp(1, 10);
        for (n, list) in k.lists.iter().enumerate() {
            let (x, y) = if beside {
                (x0 + n as f64 * (width / 2.0 + 10.0), top)
            } else {
                (x0, top + n as f64 * step)
            };
            self.font(13.0, 600);
            self.text(list.title, x, y, Tone::Dim, "left");
            self.font(14.0, 400);
            if list.lines.is_empty() {
                self.text(list.none, x, y + 26.0, Tone::Dim, "left");
            }
            let shown = list.lines.len().clamp(1, rows);
            for (n, line) in list.lines.iter().take(rows).enumerate() {
                self.font(size, 400);
                self.text(line, x, y + 26.0 + n as f64 * 24.0, list.tone(n), "left");
            }
            if let Some(note) = &list.note {
                let room = if beside { width / 2.0 - GAP } else { width };
                self.fit(note, room, 12.0, 400);
                self.text(note, x, y + 26.0 + shown as f64 * 24.0, Tone::Dim, "left");
            }
        }
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

    /// The heat meter at `(x, y)`, its label and the flame's lead above its right end,
    /// or (`under`) under it, one at each end.
    fn heat_bar(&self, play: &Play, (x, y): (f64, f64), width: f64, under: bool) {
        let (heat, tier) = (play.heat, play.tier);
        let ctx = &self.ctx;
        let bar = Rect {
            x,
            y,
            w: width,
            h: 8.0,
        };
        self.fill_style(Tone::Panel);
        self.round_rect(bar, 4.0);
        ctx.fill();
        let filled = Rect {
            w: (width * f64::from(heat) / 100.0).max(if heat > 0 { 8.0 } else { 0.0 }),
            ..bar
        };
        if filled.w > 0.0 {
            let g = ctx.create_linear_gradient(x, 0.0, x + width, 0.0);
            for t in Tier::ALL {
                let _ = g.add_color_stop(f32::from(t.floor()) / 100.0, css(Tone::Heat(t)).str());
            }
            ctx.set_fill_style_canvas_gradient(&g);
            if tier >= Tier::Ghost {
                ctx.set_shadow_color(css(play.heat_tone()).str());
                ctx.set_shadow_blur(16.0);
            }
            self.round_rect(filled, 4.0);
            ctx.fill();
            ctx.set_shadow_blur(0.0);
        }
        let label = play.heat_label();
        let flame = play.flame_line();
        if under {
            // Both on one line under the bar, smaller if they need to be.
            self.font(13.0, 700);
            let need =
                self.text_width(&label) + flame.as_deref().map_or(0.0, |f| self.text_width(f));
            if need + GAP > width {
                self.font((13.0 * width / (need + GAP)).floor(), 700);
            }
            self.text(&label, x, y + 24.0, play.heat_tone(), "left");
            if let Some(flame) = flame {
                self.text(&flame, x + width, y + 24.0, Tone::Wrong, "right");
            }
            return;
        }
        self.font(13.0, 700);
        self.text(&label, x + width, y - 10.0, play.heat_tone(), "right");
        // How far behind the flame is, as the terminal says it, left of the heat.
        if let Some(flame) = flame {
            let at = x + width - self.text_width(&label) - 18.0;
            self.text(&flame, at, y - 10.0, Tone::Wrong, "right");
        }
    }

    fn draw_play(&mut self, play: &Play, now: f64, dt: f64) {
        let (_, h, _) = self.size;
        let (x0, width) = self.column();
        // The status: mode, the big number (time or level), heat; on a narrow screen
        // one above the other, the heat meter the column's width.
        let narrow = width < 520.0;
        let top = (h * 0.28).max(if narrow { 130.0 } else { 110.0 });
        let lift = if narrow { 34.0 } else { 0.0 };
        self.font(15.0, 600);
        self.text(&play.mode.title(), x0, top - 52.0 - lift, Tone::Dim, "left");
        self.font(34.0, 700);
        let big = play.clock.big();
        self.text(&big, x0, top - 14.0 - lift, play.clock_tone(), "left");
        if let Some(live) = &play.live {
            let after = x0 + self.text_width(&big) + 18.0;
            self.font(15.0, 600);
            self.text(live, after, top - 14.0 - lift, Tone::Text, "left");
        }
        if narrow {
            self.heat_bar(play, (x0, top - 30.0), width, true);
        } else {
            self.heat_bar(play, (x0 + width * 0.45, top - 30.0), width * 0.55, false);
        }

        // The words.
        let size = if width < 520.0 { 22.0 } else { 28.0 };
        self.font(size, 500);
        let cw = self.text_width("m").max(1.0);
        let line_h = size * 1.65;
        let cols = ((width / cw).floor() as usize).max(8);
        // A glyph's columns as the font draws it, rounded up so none runs into the next:
        // ASCII one; `中` or `🌶` two. (A little slack keeps a glyph a hair over one
        // column at one.)
        let ctx = &self.ctx;
        let cells = |ch: char| -> usize {
            if ch.is_ascii() {
                return 1;
            }
            let mut buf = [0u8; 4];
            let w = ctx
                .measure_text(ch.encode_utf8(&mut buf))
                .map_or(cw, |m| m.width());
            ((w / cw - 0.1).ceil() as usize).max(1)
        };
        let lines = self.scroll.lines(play, cols, &cells);
        let flame = play.flame.map(|f| f as f64 / 1000.0);
        let (caret_word, caret_glyph) = play.caret;
        let mut caret_at = None;
        let mut ghosts_at = vec![];
        let mut flame_at = None;
        let text_top = top + 40.0;
        for (li, line) in lines.iter().enumerate() {
            let y = text_top + li as f64 * line_h;
            for &(wi, col) in line {
                let Some(word) = play.word(wi) else { continue };
                let x = x0 + col as f64 * cw;
                if let Some(f) = flame {
                    let start = f64::from(word.offset);
                    let len = word.glyphs.len() as f64;
                    if f >= start - 1.0 && f < start + len {
                        // Whole glyphs to their columns, and the part of one beyond.
                        let into = f - start;
                        let whole = into.max(0.0).floor();
                        let col = word.col_of(whole as usize, &cells) as f64 + (into - whole);
                        flame_at = Some((x + col * cw, y));
                    }
                }
                for (gi, g) in word.glyphs.iter().enumerate() {
                    let gx = x + word.col_of(gi, &cells) as f64 * cw;
                    let gw = cells(g.ch) as f64 * cw;
                    self.fill_style(play.glyph_tone(word, gi));
                    self.ctx.set_text_align("left");
                    let mut buf = [0u8; 4];
                    let _ = self.ctx.fill_text(g.ch.encode_utf8(&mut buf), gx, y);
                    if word.missed(gi) {
                        self.fill_style(Tone::Wrong);
                        self.ctx.fill_rect(gx, y + 6.0, gw, 2.0);
                    }
                }
                if word.done_wrong() {
                    // A word committed wrong is underlined whole, as Monkeytype does.
                    self.fill_style(Tone::Wrong);
                    self.ctx.set_global_alpha(0.6);
                    self.ctx
                        .fill_rect(x, y + 9.0, word.cols(&cells) as f64 * cw, 1.5);
                    self.ctx.set_global_alpha(1.0);
                }
                if wi == caret_word {
                    caret_at = Some((x + word.col_of(caret_glyph, &cells) as f64 * cw, y));
                }
                for g in play.ghosts.iter().filter(|g| g.caret.0 == wi) {
                    let at = (x + word.col_of(g.caret.1, &cells) as f64 * cw, y);
                    ghosts_at.push((g, at));
                }
            }
        }
        // The flame, when it is in the visible text, or at the column's edge behind it.
        if let Some(f) = flame {
            let first_offset = lines
                .first()
                .and_then(|l| l.first())
                .and_then(|&(wi, _)| play.word(wi))
                .map_or(0.0, |w| f64::from(w.offset));
            let at = flame_at.or((f < first_offset).then_some((x0 - cw, text_top)));
            // The flame flickers even while it stands still.
            self.wake_at = now;
            if let Some((fx, fy)) = at {
                // Never past the screen's left edge, where the column's margin is narrow.
                self.flame(fx.max(size * 0.6), fy, size, now, play.heat);
            }
        }
        self.ghost_carets(&ghosts_at, size);
        if let Some(target) = caret_at {
            self.caret(target, play.round, size, now, dt, play.started);
        }
        let (w, _, _) = self.size;
        let mut y = text_top + LINES as f64 * line_h + 10.0;
        if let Some(prompt) = play.prompt {
            self.font(15.0, 400);
            y = self.lines(prompt, w / 2.0, y, Tone::Dim, "center") + 8.0;
        }
        if let Some((line, tone)) = &play.lead {
            self.fit(line, width, 17.0, 700);
            self.text(line, w / 2.0, y, *tone, "center");
        }
    }

    /// The other carets, faded, each with its name (and in a room its place and speed)
    /// above it. The names over one line are laid out so that none overlaps another
    /// (`layout::labels`), shortened to the names alone where they don't all fit.
    fn ghost_carets(&self, ghosts: &[(&Ghost, (f64, f64))], size: f64) {
        let ctx = &self.ctx;
        ctx.set_global_alpha(0.55);
        self.fill_style(Tone::Ghost);
        for &(_, (x, y)) in ghosts {
            let r = Rect {
                x: x - 1.0,
                y: y - size * 0.92,
                w: 2.5,
                h: size * 1.12,
            };
            self.round_rect(r, 1.25);
            ctx.fill();
        }
        ctx.set_global_alpha(1.0);
        self.font(LABEL_PX, 700);
        let (x0, width) = self.column();
        let mut lines: Vec<f64> = ghosts.iter().map(|&(_, (_, y))| y).collect();
        lines.dedup();
        for line in lines {
            let on: Vec<&(&Ghost, (f64, f64))> = ghosts.iter().filter(|g| g.1.1 == line).collect();
            let place = |texts: &[String]| {
                let want: Vec<(f64, f64)> = on
                    .iter()
                    .zip(texts)
                    .map(|(g, t)| (g.1.0, self.text_width(t)))
                    .collect();
                layout::labels(&want, x0, x0 + width, LABEL_GAP)
            };
            let full: Vec<String> = on.iter().map(|g| g.0.caret_label()).collect();
            let short: Vec<String> = on.iter().map(|g| g.0.name.clone()).collect();
            let (texts, placed) = match place(&full) {
                Some(placed) => (full, placed),
                None => {
                    let placed = place(&short).unwrap_or_else(|| {
                        // Past what two rows hold: each over its caret, as best it can.
                        on.iter().map(|g| (g.1.0, 0)).collect()
                    });
                    (short, placed)
                }
            };
            // Row 0 in the gap over the line, row 1 in the gap under it: a glyph reaches
            // 0.78 of its size up and 0.22 down, a line is 1.65 tall.
            for (text, (left, row)) in texts.iter().zip(placed) {
                let y = if row == 0 {
                    line - size * 0.78 - LABEL_PX * 0.22 - 0.6
                } else {
                    line + size * 0.22 + LABEL_PX * 0.78 + 0.6
                };
                self.text(text, left, y, Tone::Ghost, "left");
            }
        }
    }

    fn caret(
        &mut self,
        target: (f64, f64),
        round: u64,
        size: f64,
        now: f64,
        dt: f64,
        started: bool,
    ) {
        // Glide towards the target; jump when the line or the round changes.
        let pos = match self.caret {
            Some((x, y, r)) if r == round && (y - target.1).abs() < 1.0 => {
                // The share of the way gone in `dt`: 1 − e^(−dt/28) as x/(1 + x), which is
                // as smooth and within 0.02 of it at a frame's 16 ms (libm's exp costs the
                // wasm 650 bytes).
                let g = dt / 22.0;
                let k = g / (1.0 + g);
                let nx = x + (target.0 - x) * k;
                if (nx - target.0).abs() < 0.3 {
                    target.0
                } else {
                    nx
                }
            }
            _ => target.0,
        };
        let moving = (pos - target.0).abs() >= 0.3;
        self.caret = Some((pos, target.1, round));
        // Before the first key the caret blinks.
        let visible = started || blink_on(now);
        if moving {
            self.wake_at = now;
        } else if !started {
            self.wake_at = self.wake_at.min(next_blink(now));
        }
        if visible {
            self.fill_style(Tone::Caret);
            let r = Rect {
                x: pos - 1.0,
                y: target.1 - size * 0.92,
                w: 2.5,
                h: size * 1.12,
            };
            self.round_rect(r, 1.25);
            self.ctx.fill();
        }
    }

    fn flame(&self, x: f64, baseline: f64, size: f64, now: f64, heat: u8) {
        let ctx = &self.ctx;
        let flicker = wave(now / 70.0) * 0.06 + wave(now / 23.0) * 0.03;
        let h = size * (1.35 + flicker + f64::from(heat) / 400.0);
        let w = size * 0.5;
        let base = baseline + size * 0.22;
        let glow = ctx.create_radial_gradient(x, base - h * 0.35, 0.0, x, base - h * 0.35, h);
        if let Ok(g) = glow {
            let _ = g.add_color_stop(0.0, "rgba(255,120,30,0.45)");
            let _ = g.add_color_stop(1.0, "rgba(255,60,20,0)");
            ctx.set_fill_style_canvas_gradient(&g);
            ctx.fill_rect(x - h, base - h * 1.4, 2.0 * h, 1.6 * h);
        }
        for (scale, color) in [1.0, 0.72, 0.42].into_iter().zip(FLAME) {
            let (fw, fh) = (w * scale, h * scale);
            let sway = wave(now / 110.0 + scale * 3.0) * fw * 0.18;
            ctx.begin_path();
            ctx.move_to(x, base);
            ctx.bezier_curve_to(
                x - fw,
                base,
                x - fw * 0.9,
                base - fh * 0.55,
                x + sway,
                base - fh,
            );
            ctx.bezier_curve_to(x + fw * 0.9, base - fh * 0.55, x + fw, base, x, base);
            ctx.set_fill_style_str(Css::of(color).str());
            ctx.fill();
        }
    }

    fn draw_link(&mut self, link: &Link, notice: Option<(&str, Tone)>, now: f64) {
        let (w, h, _) = self.size;
        let (_, width) = self.column();
        let top = (h * 0.25).max(90.0);
        self.font(28.0, 700);
        self.text(link.title, w / 2.0, top, Tone::Text, "center");
        self.font(15.0, 400);
        let y = self.lines(&link.about, w / 2.0, top + 34.0, Tone::Dim, "center");
        let field_w = width.min(400.0);
        let field = Rect {
            x: w / 2.0 - field_w / 2.0,
            y: y + 16.0,
            w: field_w,
            h: 54.0,
        };
        self.fill_style(Tone::Panel);
        self.round_rect(field, 12.0);
        self.ctx.fill();
        self.fit(&link.name, field_w - 24.0, 26.0, 600);
        self.text(&link.name, w / 2.0, field.y + 36.0, Tone::Accent, "center");
        let tw = self.text_width(&link.name);
        if blink_on(now) {
            self.fill_style(Tone::Caret);
            self.ctx
                .fill_rect(w / 2.0 + tw / 2.0 + 3.0, field.y + 12.0, 2.5, 30.0);
        }
        self.wake_at = self.wake_at.min(next_blink(now));
        self.font(14.0, 400);
        let y = self.lines(&link.status, w / 2.0, field.y + 82.0, Tone::Dim, "center");
        if let Some(line) = notice {
            self.notice(line, y + 18.0);
        }
    }

    /// A room: its name and link, the name being picked, the countdown, and everyone in
    /// it (the finishers, at the end), a row each.
    fn draw_room(&mut self, r: &Room, notice: Option<(&str, Tone)>, now: f64) {
        let (w, _, _) = self.size;
        let (x0, width) = self.column();
        let big = r.big.as_deref().unwrap_or("");
        let mut y = self.head(&r.title, "", Tone::Accent, (18.0, 700));
        self.font(14.0, 400);
        y = self.lines(&r.caption, x0, y + 28.0, Tone::Dim, "left");
        if let Some(link) = &r.link {
            self.fit(link, width, 17.0, 600);
            self.text(link, x0, y + 8.0, Tone::Accent, "left");
            y += 30.0;
        }
        if let Some(name) = &r.name {
            let field = Rect {
                x: x0,
                y: y + 8.0,
                w: width.min(400.0),
                h: 54.0,
            };
            self.fill_style(Tone::Panel);
            self.round_rect(field, 12.0);
            self.ctx.fill();
            self.fit(name, field.w - 24.0, 26.0, 600);
            self.text(name, field.x + 12.0, field.y + 36.0, Tone::Accent, "left");
            if blink_on(now) {
                let tw = self.text_width(name);
                self.fill_style(Tone::Caret);
                self.ctx
                    .fill_rect(field.x + 15.0 + tw, field.y + 12.0, 2.5, 30.0);
            }
            self.wake_at = self.wake_at.min(next_blink(now));
            y = field.y + field.h;
        }
        if !big.is_empty() {
            self.fit(big, width, 64.0, 700);
            self.text(big, w / 2.0, y + 76.0, Tone::Accent, "center");
            y += 90.0;
        }
        if let Some(line) = notice {
            y = self.notice(line, y + 30.0);
        }
        // Four columns where they fit; else two lines a row: the place and the name,
        // then the state and the score.
        self.font(16.0, 700);
        let rows = &r.rows;
        let widest = |cell: fn(&typepper_game::model::RoomRow) -> &str| {
            self.widest(rows.iter().map(cell)) + GAP
        };
        // A lobby has no places: its names start at the column's edge.
        let place = if rows.iter().all(|r| r.place.is_empty()) {
            0.0
        } else {
            widest(|r| &r.place)
        };
        let name = widest(|r| &r.name);
        let (state, score) = (widest(|r| &r.state), widest(|r| &r.score));
        let one_line = place + name + state + score <= width;
        let picked = r.selected.unwrap_or(usize::MAX);
        for (i, ry, selected) in self.list_rows(rows.len(), picked, y + 40.0, !one_line) {
            let row = &rows[i];
            self.font(16.0, if selected { 700 } else { 400 });
            self.text(&row.place, x0, ry, Tone::Dim, "left");
            self.text(&row.name, x0 + place, ry, row.tone, "left");
            if one_line {
                self.text(&row.state, x0 + place + name, ry, row.state_tone, "left");
                self.text(&row.score, x0 + width, ry, row.tone, "right");
            } else {
                self.text(&row.score, x0 + width, ry, row.tone, "right");
                self.fit(&row.state, width - place, 13.0, 400);
                self.text(&row.state, x0 + place, ry + LINE, row.state_tone, "left");
            }
        }
    }

    fn draw_boards(&mut self, b: &Boards) {
        let (w, h, _) = self.size;
        let (x0, width) = self.column();
        let picker = self.head_at(b.title, &b.picker, Tone::Accent, (18.0, 700));
        // The picker's halves are its arrows, a finger's height tall.
        let half = picker.w / 2.0 + 16.0;
        let arrow = |x| Rect {
            x,
            y: picker.y - 30.0,
            w: half,
            h: 44.0,
        };
        self.hits
            .push((arrow(picker.x - 16.0), Hit::Arrow(Key::Left)));
        self.hits
            .push((arrow(picker.x + picker.w / 2.0), Hit::Arrow(Key::Right)));
        let y = picker.y;
        self.font(13.0, 400);
        let y = self.lines(b.caption, x0 + width, y + 22.0, Tone::Dim, "right");
        if let Some((say, tone)) = &b.say {
            self.font(18.0, 400);
            self.lines(say, w / 2.0, h / 2.0, *tone, "center");
        }
        // A row on one line where the widest name and score fit beside each other,
        // else the accuracy on a second.
        self.font(16.0, 700);
        let widest = |cell: fn(&typepper_game::model::BoardLine) -> &str| {
            self.widest(b.rows.iter().map(cell)) + GAP
        };
        let (name, score) = (widest(|r| &r.name), widest(|r| &r.score));
        let one_line =
            48.0 + name + score <= width * 0.72 && widest(|r| &r.accuracy) <= width * 0.28;
        for (i, y, selected) in self.list_rows(b.rows.len(), b.selected, y + 30.0, !one_line) {
            let (r, color) = (&b.rows[i], b.tone(i));
            self.font(16.0, if selected { 700 } else { 400 });
            self.text(&r.rank.to_string(), x0 + 24.0, y, r.medal, "right");
            self.text(&r.name, x0 + 48.0, y, Tone::Text, "left");
            if one_line {
                self.text(&r.score, x0 + width * 0.72, y, color, "right");
                self.text(&r.accuracy, x0 + width, y, Tone::Dim, "right");
            } else {
                self.text(&r.score, x0 + width, y, color, "right");
                self.font(13.0, 400);
                self.text(&r.accuracy, x0 + width, y + LINE, Tone::Dim, "right");
            }
        }
    }

    /// The results: the headline with the share link and the notice beside it (or under
    /// it where they don't fit), the stats flowed into rows, a race's numbers, the chart
    /// in what is left above the foot. Every place comes from measured text.
    fn draw_results(&mut self, r: &Results, notice: Option<(&str, Tone)>) {
        let (_, h, _) = self.size;
        let (x0, width) = self.column();
        let top = (h * 0.16).max(90.0);
        let size = self.fit(&r.headline, width, 64.0, 800);
        let base = top + 20.0;
        self.text(&r.headline, x0, base, Tone::Accent, "left");
        let head_w = self.text_width(&r.headline);
        self.font(16.0, 600);
        self.text(&r.title, x0, base + 30.0, Tone::Dim, "left");
        let mut y = base + 30.0 + 6.0;
        self.font(14.0, 500);
        let share = r.share_line();
        let side = [share.as_deref().map(|s| (s, Tone::Caret)), notice];
        let side_w = self.widest(side.iter().flatten().map(|&(s, _)| s));
        if head_w + 24.0 + side_w <= width {
            for (n, (line, tone)) in side.into_iter().flatten().enumerate() {
                let at = base - size * 0.45 + n as f64 * 24.0;
                self.text(line, x0 + width, at, tone, "right");
            }
        } else {
            for (line, tone) in side.into_iter().flatten() {
                y = self.lines(line, x0, y + LINE, tone, "left") - LINE;
            }
        }

        // The stats.
        let narrow = width < 520.0;
        let (value_size, row_h) = if narrow { (18.0, 52.0) } else { (20.0, 62.0) };
        let wide: Vec<f64> = r
            .stats
            .iter()
            .map(|s| {
                self.font(12.0, 600);
                let label = self.text_width(s.label);
                self.font(value_size, 700);
                label.max(self.text_width(&s.value)) + 24.0
            })
            .collect();
        // A table, its rows as even as their number lets them be (HOT PURSUIT's last two
        // stats sat spread across a row of their own), each column as wide as its widest
        // cell: the fewest rows whose columns fit.
        let n = r.stats.len();
        let (mut rows, mut per, mut cols) = (1, n, wide.clone());
        while per > 1 && cols.iter().sum::<f64>() > width {
            rows += 1;
            per = n.div_ceil(rows);
            cols = vec![0.0; per];
            for (i, w) in wide.iter().enumerate() {
                cols[i % per] = cols[i % per].max(*w);
            }
        }
        let spare = (width - cols.iter().sum::<f64>()).max(0.0) / per as f64;
        y += 44.0;
        for row in r.stats.chunks(per) {
            let mut x = x0;
            for (stat, cell) in row.iter().zip(&cols) {
                self.font(12.0, 600);
                self.text(stat.label, x, y, Tone::Dim, "left");
                self.font(value_size, 700);
                self.text(&stat.value, x, y + 26.0, stat.tone, "left");
                x += cell + spare;
            }
            y += row_h;
        }
        let mut chart_top = y + 10.0;
        if let Some(race) = &r.race {
            chart_top = self.versus(race, x0, chart_top, width) + 30.0;
        }
        // The chart's legend is above it and its seconds under it.
        let chart_h = (self.bottom - chart_top - 30.0).clamp(60.0, 220.0);
        self.chart(&r.chart, x0, chart_top, width, chart_h);
    }

    /// A race's results: who won, and each number beside the ghost's, in columns where
    /// they fit, else a line each. Returns the baseline of the last.
    fn versus(&self, race: &Race, x0: f64, y: f64, width: f64) -> f64 {
        self.font(20.0, 800);
        self.text(&race.verdict, x0, y + 4.0, race.tone(), "left");
        let cell = width / race.rows.len().max(1) as f64;
        let wide = |v: &typepper_game::model::Versus| {
            self.font(18.0, 700);
            let you = self.text_width(&v.you);
            self.font(18.0, 500);
            let them = self.text_width(&v.against());
            self.font(14.0, 600);
            you + them + self.text_width(&v.diff) + 28.0
        };
        let columns = race.rows.iter().all(|v| wide(v) <= cell);
        let mut last = y;
        for (i, v) in race.rows.iter().enumerate() {
            let (x, at) = if columns {
                (x0 + i as f64 * cell, y + 56.0)
            } else {
                (x0 + 96.0, y + 36.0 + i as f64 * 26.0)
            };
            self.font(12.0, 600);
            if columns {
                self.text(v.label, x, y + 32.0, Tone::Dim, "left");
            } else {
                self.text(v.label, x0, at, Tone::Dim, "left");
            }
            self.font(18.0, 700);
            self.text(&v.you, x, at, Tone::Text, "left");
            let mut after = x + self.text_width(&v.you) + 8.0;
            self.font(18.0, 500);
            let them = v.against();
            self.text(&them, after, at, Tone::Ghost, "left");
            after += self.text_width(&them) + 12.0;
            self.font(14.0, 600);
            self.text(&v.diff, after, at, v.tone, "left");
            last = at;
        }
        last
    }

    /// The model's chart: its lines back to front, its error dots, a bar where the lead
    /// changed hands, the wpm ticks, about six seconds labelled, the legend above.
    fn chart(&self, chart: &Chart, x: f64, y: f64, width: f64, height: f64) {
        let ctx = &self.ctx;
        let max = f64::from(chart.top);
        let plot_x = x + 36.0;
        let plot_w = width - 36.0;
        self.font(11.0, 400);
        ctx.set_line_width(1.0);
        // Every tick a line; a label only where it clears the last one labelled.
        let mut labelled = f64::INFINITY;
        for v in chart.ticks() {
            let gy = y + height - f64::from(v) / max * height;
            self.stroke_style(Tone::Faint);
            ctx.begin_path();
            ctx.move_to(plot_x, gy);
            ctx.line_to(plot_x + plot_w, gy);
            ctx.stroke();
            if labelled - gy >= 14.0 {
                self.text(&v.to_string(), plot_x - 8.0, gy + 4.0, Tone::Dim, "right");
                labelled = gy;
            }
        }
        let n = chart.seconds;
        if n == 0 {
            return;
        }
        let px = |i: usize| {
            if n == 1 {
                plot_x + plot_w / 2.0
            } else {
                plot_x + i as f64 / (n - 1) as f64 * plot_w
            }
        };
        let py = |x100: u32| y + height - (f64::from(x100) / 100.0 / max).min(1.0) * height;
        // Where the lead changed hands: a bar at the end of that second.
        self.stroke_style(Tone::Caret);
        ctx.set_line_width(1.5);
        for &s in &chart.changes {
            let cx = px((s as usize).saturating_sub(1));
            ctx.begin_path();
            ctx.move_to(cx, y);
            ctx.line_to(cx, y + height);
            ctx.stroke();
        }
        ctx.set_line_join("round");
        for line in chart.lines() {
            self.stroke_style(line.tone);
            ctx.set_line_width(if line.bold { 2.5 } else { 1.5 });
            ctx.begin_path();
            for (i, v) in line.points().enumerate() {
                if i == 0 {
                    ctx.move_to(px(i), py(v));
                } else {
                    ctx.line_to(px(i), py(v));
                }
            }
            ctx.stroke();
        }
        self.fill_style(Tone::Wrong);
        for (i, v) in chart.errors() {
            ctx.begin_path();
            let _ = ctx.arc(px(i), py(v) - 10.0, 3.0, 0.0, core::f64::consts::TAU);
            ctx.fill();
        }
        for i in chart.labelled_seconds() {
            // Centred under its second, but kept inside the plot's ends.
            let label = Chart::second(i);
            let half = self.text_width(&label) / 2.0;
            // (min and max, not clamp: clamp's check would bring float printing along.)
            let at = px(i).min(plot_x + plot_w - half).max(plot_x + half);
            self.text(&label, at, y + height + 16.0, Tone::Dim, "center");
        }
        // The legend, right to left from the plot's right edge.
        let mut right = plot_x + plot_w;
        for (text, tone) in chart.legend() {
            self.text(text, right, y - 8.0, tone, "right");
            right -= self.text_width(text) + 12.0;
        }
    }
}

/// The canvas draws every word of every screen, and no text over other text or past the
/// canvas's edges: the game's tour, each stop drawn on a 2d context that records the
/// text it is given, in Node, at a desktop's size and a phone's.
#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use super::*;
    use wasm_bindgen::JsValue;
    use wasm_bindgen_test::wasm_bindgen_test;

    /// The sizes the layout must hold at, in CSS pixels: a desktop's and a phone's.
    const SIZES: [(u32, u32); 2] = [(1280, 800), (390, 844)];

    /// A `width`×`height` canvas whose context keeps each `fillText` in `drawn` as
    /// `[text, left, top, right, bottom]`, measures a character as a monospace font's
    /// (0.6 em wide, 0.78 em above the baseline and 0.22 below), and takes every other
    /// call and setting as a real one would.
    fn recording(drawn: &js_sys::Array, (width, height): (u32, u32)) -> Renderer {
        let make = js_sys::Function::new_with_args(
            "drawn, width, height",
            "const nothing = () => ({ addColorStop() {} });
             const em = (held) => Number(/(\\d+)px/.exec(held.font ?? '10px')[1]);
             const wide = (held, text) => 0.6 * em(held) * [...text].length;
             const ctx = new Proxy({}, {
               get(held, key) {
                 if (key === 'measureText') return (text) => ({ width: wide(held, text) });
                 // The flame is the one curve: its leftmost control point bounds it.
                 if (key === 'bezierCurveTo') return (...xy) => {
                   drawn.leftmost = Math.min(drawn.leftmost ?? Infinity, xy[0], xy[2], xy[4]);
                 };
                 if (key === 'fillText') return (text, x, y) => {
                   const w = wide(held, text);
                   const left = { center: x - w / 2, right: x - w }[held.textAlign] ?? x;
                   drawn.push([text, left, y - 0.78 * em(held), left + w, y + 0.22 * em(held)]);
                 };
                 return key in held ? held[key] : nothing;
               },
               set(held, key, value) { held[key] = value; return true; },
             });
             return [{ clientWidth: width, clientHeight: height, width: 0, height: 0 }, ctx];",
        );
        let pair: js_sys::Array = make
            .call3(&JsValue::NULL, drawn, &width.into(), &height.into())
            .expect("the recording context")
            .unchecked_into();
        Renderer::on(pair.get(0).unchecked_into(), pair.get(1).unchecked_into())
    }

    /// A text drawn, and the box it takes.
    struct Drawn {
        text: String,
        at: Rect,
    }

    /// Every text a stop draws at `size`, and its buttons' boxes.
    fn drawn(stop: &typepper_game::tour::Stop, size: (u32, u32)) -> (Vec<Drawn>, Vec<Rect>) {
        let recorded = js_sys::Array::new();
        let mut renderer = recording(&recorded, size);
        assert!(renderer.frame(&stop.model, 0.0), "{}", stop.name);
        let buttons = renderer
            .hits
            .iter()
            .filter(|(_, hit)| matches!(hit, Hit::Key(_)));
        let buttons = buttons.map(|&(r, _)| r).collect();
        let number = |v: &js_sys::Array, i| v.get(i).as_f64().unwrap_or(f64::NAN);
        let texts = recorded
            .iter()
            .map(|v| {
                let v: js_sys::Array = v.unchecked_into();
                let (left, top) = (number(&v, 1), number(&v, 2));
                Drawn {
                    text: v.get(0).as_string().unwrap_or_default(),
                    at: Rect {
                        x: left,
                        y: top,
                        w: number(&v, 3) - left,
                        h: number(&v, 4) - top,
                    },
                }
            })
            .collect();
        (texts, buttons)
    }

    #[wasm_bindgen_test]
    fn every_word_of_every_screen_of_the_tour_is_drawn() {
        let mut missing = vec![];
        for stop in typepper_game::tour::stops() {
            for size in SIZES {
                let texts: Vec<String> = drawn(&stop, size).0.into_iter().map(|d| d.text).collect();
                let texts = texts.join(" ");
                for word in stop.missing(&texts) {
                    missing.push(format!(
                        "{} at {size:?}: {word:?} not in {texts:?}",
                        stop.name
                    ));
                }
            }
        }
        assert!(missing.is_empty(), "{}", missing.join("\n"));
    }

    /// The play-test: on a phone, HOT PURSUIT's flame behind the text was cut off at the
    /// screen's left edge. Wherever it is, all of it is on the canvas.
    #[wasm_bindgen_test]
    fn hot_pursuits_flame_is_never_cut_off_at_the_left_edge() {
        let stops = typepper_game::tour::stops();
        let pursuit = stops.iter().find(|s| s.name == "playing, HOT PURSUIT");
        let pursuit = pursuit.expect("the tour plays HOT PURSUIT");
        for size in SIZES {
            let recorded = js_sys::Array::new();
            let mut renderer = recording(&recorded, size);
            assert!(renderer.frame(&pursuit.model, 0.0));
            let leftmost = js_sys::Reflect::get(&recorded, &"leftmost".into())
                .ok()
                .and_then(|v| v.as_f64());
            let leftmost = leftmost.expect("a flame is drawn");
            assert!(leftmost >= 0.0, "at {size:?} the flame reaches {leftmost}");
        }
    }

    /// Whether two boxes share any area (touching edges don't).
    fn overlap(a: &Rect, b: &Rect) -> bool {
        const SLACK: f64 = 0.01;
        a.x + a.w > b.x + SLACK
            && b.x + b.w > a.x + SLACK
            && a.y + a.h > b.y + SLACK
            && b.y + b.h > a.y + SLACK
    }

    #[wasm_bindgen_test]
    fn no_text_is_drawn_over_other_text_or_past_the_edges_at_either_size() {
        let mut wrong = vec![];
        for stop in typepper_game::tour::stops() {
            for size @ (w, h) in SIZES {
                let (texts, buttons) = drawn(&stop, size);
                // A button holds its label and no other text, and is a thumb's height.
                for (n, button) in buttons.iter().enumerate() {
                    let inside = |t: &&Drawn| overlap(button, &t.at);
                    let held: Vec<&str> =
                        texts.iter().filter(inside).map(|t| &t.text[..]).collect();
                    if held.len() != 1 || button.h < 44.0 {
                        wrong.push(format!(
                            "{} at {size:?}: button {n} holds {held:?}",
                            stop.name
                        ));
                    }
                    if buttons[n + 1..].iter().any(|b| overlap(button, b)) {
                        wrong.push(format!(
                            "{} at {size:?}: button {n} is on another",
                            stop.name
                        ));
                    }
                }
                for (i, a) in texts.iter().enumerate() {
                    let r = &a.at;
                    if r.x < 0.0
                        || r.y < 0.0
                        || r.x + r.w > f64::from(w)
                        || r.y + r.h > f64::from(h)
                    {
                        wrong.push(format!(
                            "{} at {size:?}: {:?} leaves the canvas",
                            stop.name, a.text
                        ));
                    }
                    for b in texts[i + 1..].iter().filter(|b| overlap(r, &b.at)) {
                        wrong.push(format!(
                            "{} at {size:?}: {:?} is drawn over {:?}",
                            stop.name, a.text, b.text
                        ));
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}
