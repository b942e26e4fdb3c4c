//! The canvas renderer: draws the app's state, only when something on screen changed or
//! an animation runs.

use std::hash::{DefaultHasher, Hash, Hasher};

use typepper_engine::{CharState, Mode, Score, Tier, View, WordStatus};
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::app::{App, Boards, MENU, Results, Screen, Session};
use crate::dom::{Context, DomError};
use crate::mirror;

const FONT_STACK: &str =
    "ui-monospace, SFMono-Regular, 'DejaVu Sans Mono', Menlo, Consolas, monospace";

const BG: &str = "#141218";
const PANEL: &str = "#1f1b26";
const DIM: &str = "#6b6577";
const FAINT: &str = "#3a3442";
const TEXT: &str = "#f2ede4";
const WRONG: &str = "#ff4d5e";
const EXTRA: &str = "#a8263b";
const BURNT: &str = "#6e3b2a";
const ACCENT: &str = "#ff7a1a";
const CARET: &str = "#ffb020";

/// Lines of text shown while typing.
const LINES: usize = 3;

/// Something the mouse can click.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// A menu item.
    Menu(usize),
    /// A history row (0 the newest).
    History(usize),
    /// A board row.
    Board(usize),
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

/// The renderer's own state: the canvas, the layout kept between frames, the caret's
/// animation.
pub struct Renderer {
    canvas: HtmlCanvasElement,
    ctx: CanvasRenderingContext2d,
    size: (f64, f64, f64),
    /// First words of the lines scrolled past, and of the first visible line last.
    anchors: Vec<usize>,
    caret: Option<(f64, f64)>,
    last_frame: f64,
    last_signature: u64,
    dirty: bool,
    /// The last draw started an animation (the caret gliding or blinking).
    animate: bool,
    hits: Vec<(Rect, Target)>,
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
        Ok(Renderer {
            canvas,
            ctx,
            size: (0.0, 0.0, 1.0),
            anchors: vec![0],
            caret: None,
            last_frame: 0.0,
            last_signature: 0,
            dirty: true,
            animate: false,
            hits: vec![],
            draw_ms: Vec::with_capacity(512),
        })
    }

    /// Draw on the next frame whatever happens.
    pub fn invalidate(&mut self) {
        self.dirty = true;
    }

    /// Forget the text layout: a new round.
    pub fn reset_layout(&mut self) {
        self.anchors = vec![0];
        self.caret = None;
        self.dirty = true;
    }

    /// What the mouse hits at CSS pixel `(x, y)`.
    pub fn target_at(&self, x: f64, y: f64) -> Option<Target> {
        self.hits
            .iter()
            .find(|(r, _)| r.contains(x, y))
            .map(|&(_, t)| t)
    }

    /// One animation frame at `now`: follows the canvas's size and device pixel ratio,
    /// and draws if anything visible changed. Returns whether it drew.
    pub fn frame(&mut self, app: &App, now: f64) -> bool {
        let dt = (now - self.last_frame).clamp(0.0, 100.0);
        self.last_frame = now;
        self.follow_size();
        let signature = signature(app, now);
        let flame = matches!(&app.screen, Screen::Play(s) if s.round.level().is_some());
        if !self.dirty && !self.animate && !flame && signature == self.last_signature {
            return false;
        }
        self.dirty = false;
        self.last_signature = signature;
        let start = crate::dom::now();
        self.draw(app, now, dt);
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

    fn draw(&mut self, app: &App, now: f64, dt: f64) {
        let (w, h, dpr) = self.size;
        let ctx = &self.ctx;
        let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
        ctx.set_fill_style_str(BG);
        ctx.fill_rect(0.0, 0.0, w, h);
        self.hits.clear();
        self.animate = false;
        match &app.screen {
            Screen::Menu => self.draw_menu(app),
            Screen::History => self.draw_history(app),
            Screen::Play(session) => self.draw_play(app, session, now, dt),
            Screen::Results(r) => self.draw_results(r),
            Screen::Link {
                name,
                error,
                waiting,
            } => self.draw_link(app, name, error.as_deref(), *waiting, now),
            Screen::Boards(b) => self.draw_boards(app, b),
        }
    }

    fn font(&self, size: f64, weight: u32) {
        self.ctx
            .set_font(&format!("{weight} {size}px {FONT_STACK}"));
    }

    fn text(&self, s: &str, x: f64, y: f64, color: &str, align: &str) {
        self.ctx.set_fill_style_str(color);
        self.ctx.set_text_align(align);
        let _ = self.ctx.fill_text(s, x, y);
    }

    fn text_width(&self, s: &str) -> f64 {
        self.ctx.measure_text(s).map_or(0.0, |m| m.width())
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
        let width = (w - 64.0).clamp(240.0, 960.0);
        ((w - width) / 2.0, width)
    }

    fn hints(&self, s: &str) {
        let (w, h, _) = self.size;
        self.font(13.0, 400);
        self.text(s, w / 2.0, h - 28.0, DIM, "center");
    }

    fn notice(&self, s: &str, y: f64) {
        let (w, _, _) = self.size;
        self.font(14.0, 500);
        self.text(s, w / 2.0, y, WRONG, "center");
    }

    fn title(&self, y: f64) {
        let (w, _, _) = self.size;
        self.font(44.0, 700);
        let type_w = self.text_width("type");
        let all = self.text_width("typepper");
        let x = w / 2.0 - all / 2.0;
        self.text("type", x, y, TEXT, "left");
        self.text("pepper", x + type_w, y, ACCENT, "left");
    }

    fn draw_menu(&mut self, app: &App) {
        let (w, h, _) = self.size;
        let top = (h * 0.22).max(70.0);
        self.title(top);
        self.font(14.0, 400);
        self.text(
            "every round is a replay",
            w / 2.0,
            top + 30.0,
            DIM,
            "center",
        );
        let item_h = 44.0;
        let y0 = top + 90.0;
        for (i, item) in MENU.iter().enumerate() {
            let y = y0 + i as f64 * item_h;
            let selected = i == app.menu_item;
            let rect = Rect {
                x: w / 2.0 - 170.0,
                y: y - 28.0,
                w: 340.0,
                h: item_h - 6.0,
            };
            if selected {
                self.ctx.set_fill_style_str(PANEL);
                self.round_rect(rect, 10.0);
                self.ctx.fill();
            }
            self.font(20.0, if selected { 700 } else { 500 });
            let color = if selected { ACCENT } else { TEXT };
            let label = if i == 4 {
                format!("{item}  ‹ lv{} ›", app.level)
            } else {
                (*item).to_owned()
            };
            self.text(&label, w / 2.0, y, color, "center");
            if app.ranked_ready(app.board_modes()[i]) {
                // The next round of this mode is on an issued seed: it counts.
                self.font(11.0, 600);
                self.text("RANKED", rect.x + rect.w + 14.0, y - 2.0, DIM, "left");
            }
            self.hits.push((rect, Target::Menu(i)));
        }
        let below = y0 + MENU.len() as f64 * item_h + 10.0;
        if let Some(n) = &app.notice {
            self.notice(n, below);
        }
        self.font(14.0, 400);
        if let Some(last) = app.history.last() {
            let line = format!("last round: {}", mirror::headline(&last.score));
            self.text(&line, w / 2.0, below + 30.0, DIM, "center");
        }
        let who = match &app.player {
            Some(p) => format!("linked as {}", p.name),
            None => "not linked: l to link, to share and rank your rounds".into(),
        };
        self.text(&who, w / 2.0, below + 54.0, DIM, "center");
        self.hints("↑↓ pick · ←→ level · enter play · 1 2 3 z p quick start · h history · b boards · l link");
    }

    fn draw_history(&mut self, app: &App) {
        let (w, h, _) = self.size;
        let (x0, width) = self.column();
        self.font(26.0, 700);
        self.text("history", x0, 70.0, TEXT, "left");
        self.font(14.0, 400);
        let count = format!("your last {} rounds, on this device", app.history.len());
        self.text(&count, x0 + width, 70.0, DIM, "right");
        if app.history.is_empty() {
            self.font(18.0, 400);
            self.text(
                "no rounds yet: esc, then play one",
                w / 2.0,
                h / 2.0,
                DIM,
                "center",
            );
        }
        let entries: Vec<_> = app.history.iter().rev().collect();
        for (i, y, selected) in
            self.list_rows(entries.len(), app.history_row, 120.0, Target::History)
        {
            let e = entries[i];
            self.font(16.0, if selected { 700 } else { 400 });
            let s = &e.score;
            self.text(&mirror::date(e.unix_ms), x0, y, DIM, "left");
            self.text(&s.mode.title(), x0 + width * 0.3, y, TEXT, "left");
            let color = if selected { ACCENT } else { TEXT };
            self.text(
                &s.headline().to_string(),
                x0 + width * 0.68,
                y,
                color,
                "right",
            );
            let acc = format!("{}%", mirror::decimal(s.accuracy_x100.into()));
            self.text(&acc, x0 + width * 0.84, y, DIM, "right");
            let shared = if e.share.is_some() { "shared" } else { "" };
            self.text(shared, x0 + width, y, DIM, "right");
        }
        self.hints("↑↓ pick · enter watch · esc menu");
    }

    /// A scrolling list of `count` rows from `top`, the `picked` one highlighted and
    /// centred when the list is longer than the screen: each visible row's index, text
    /// baseline and whether it is picked, for the caller to fill in. Rows are clickable.
    fn list_rows(
        &mut self,
        count: usize,
        picked: usize,
        top: f64,
        target: fn(usize) -> Target,
    ) -> Vec<(usize, f64, bool)> {
        let (_, h, _) = self.size;
        let (x0, width) = self.column();
        let row_h = 34.0;
        let visible = (((h - top - 60.0) / row_h).floor() as usize).max(3);
        let first = picked.saturating_sub(visible / 2);
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
                self.ctx.set_fill_style_str(PANEL);
                self.round_rect(rect, 8.0);
                self.ctx.fill();
            }
            self.hits.push((rect, target(i)));
            out.push((i, y, selected));
        }
        out
    }

    fn banner(&self, mode: Mode) {
        let (w, _, _) = self.size;
        self.font(13.0, 700);
        let label = format!("REPLAY · {mode}");
        let tw = self.text_width(&label) + 28.0;
        let r = Rect {
            x: w / 2.0 - tw / 2.0,
            y: 18.0,
            w: tw,
            h: 26.0,
        };
        self.ctx.set_fill_style_str(WRONG);
        self.round_rect(r, 13.0);
        self.ctx.fill();
        self.text(&label, w / 2.0, 36.0, BG, "center");
    }

    fn heat_bar(&self, heat: u8, tier: Tier, x: f64, y: f64, width: f64) {
        let ctx = &self.ctx;
        let bar = Rect {
            x,
            y,
            w: width,
            h: 8.0,
        };
        ctx.set_fill_style_str(PANEL);
        self.round_rect(bar, 4.0);
        ctx.fill();
        let filled = Rect {
            w: (width * f64::from(heat) / 100.0).max(if heat > 0 { 8.0 } else { 0.0 }),
            ..bar
        };
        if filled.w > 0.0 {
            let g = ctx.create_linear_gradient(x, 0.0, x + width, 0.0);
            for t in Tier::ALL {
                let _ = g.add_color_stop(f32::from(t.floor()) / 100.0, tier_color(t));
            }
            ctx.set_fill_style_canvas_gradient(&g);
            if tier >= Tier::Ghost {
                ctx.set_shadow_color(tier_color(tier));
                ctx.set_shadow_blur(16.0);
            }
            self.round_rect(filled, 4.0);
            ctx.fill();
            ctx.set_shadow_blur(0.0);
        }
        self.font(13.0, 700);
        let label = format!("heat {heat} · {}", tier.name());
        self.text(&label, x + width, y - 10.0, tier_color(tier), "right");
    }

    fn draw_play(&mut self, app: &App, session: &Session, now: f64, dt: f64) {
        let (_, h, _) = self.size;
        let (x0, width) = self.column();
        let view = session.round.view(app.round_time(now));
        let mode = view.mode();
        let watching = session.watch.is_some();
        if watching {
            self.banner(mode);
        }
        let top = (h * 0.28).max(110.0);
        // The status row: mode, the big number (time or level), heat.
        self.font(15.0, 600);
        self.text(&mode.title(), x0, top - 52.0, DIM, "left");
        let big = match (view.time_left_ms(), view.level()) {
            (Some(left), _) => left.div_ceil(1000).to_string(),
            (None, Some(level)) => format!("lv{level}"),
            _ => {
                let s = view.elapsed_ms() / 1000;
                format!("{}:{:02}", s / 60, s % 60)
            }
        };
        self.font(34.0, 700);
        let big_color = if view.started() { ACCENT } else { DIM };
        self.text(&big, x0, top - 14.0, big_color, "left");
        self.heat_bar(
            view.heat(),
            view.tier(),
            x0 + width * 0.45,
            top - 30.0,
            width * 0.55,
        );

        // The words.
        let size = if width < 520.0 { 22.0 } else { 28.0 };
        self.font(size, 500);
        let cw = self.text_width("m").max(1.0);
        let line_h = size * 1.65;
        let cols = ((width / cw).floor() as usize).max(8);
        let lines = self.layout(&view, cols);
        let flame = view.flame().map(|f| f as f64 / 1000.0);
        let (caret_word, caret_glyph) = view.caret();
        let mut caret_at = None;
        let mut flame_at = None;
        let text_top = top + 40.0;
        for (li, line) in lines.iter().enumerate() {
            let y = text_top + li as f64 * line_h;
            for &(wi, col) in line {
                let Some(word) = view.word(wi) else { continue };
                let x = x0 + col as f64 * cw;
                if let Some(f) = flame {
                    let start = f64::from(word.offset);
                    let len = word.target().len() as f64;
                    if f >= start - 1.0 && f < start + len {
                        flame_at = Some((x + (f - start) * cw, y));
                    }
                }
                let done_wrong = word.status == WordStatus::Done { correct: false };
                for (gi, g) in word.glyphs().enumerate() {
                    let gx = x + gi as f64 * cw;
                    let burnt = flame.is_some_and(|f| f64::from(word.offset) + gi as f64 <= f);
                    let color = match g.state {
                        CharState::Correct if burnt => BURNT,
                        CharState::Correct => TEXT,
                        CharState::Wrong => WRONG,
                        CharState::Extra => EXTRA,
                        CharState::Missed | CharState::Pending => DIM,
                    };
                    self.ctx.set_fill_style_str(color);
                    self.ctx.set_text_align("left");
                    let mut buf = [0u8; 4];
                    let _ = self.ctx.fill_text(g.ch.encode_utf8(&mut buf), gx, y);
                    if g.state == CharState::Missed {
                        self.ctx.set_fill_style_str(WRONG);
                        self.ctx.fill_rect(gx, y + 6.0, cw, 2.0);
                    }
                }
                if done_wrong {
                    // A word committed wrong is underlined whole, as Monkeytype does.
                    let glyphs = word.target().len().max(word.typed().len());
                    self.ctx.set_fill_style_str(WRONG);
                    self.ctx.set_global_alpha(0.6);
                    self.ctx.fill_rect(x, y + 9.0, glyphs as f64 * cw, 1.5);
                    self.ctx.set_global_alpha(1.0);
                }
                if wi == caret_word {
                    caret_at = Some((x + caret_glyph as f64 * cw, y));
                }
            }
        }
        // The flame, when it is in the visible text, or at the column's edge behind it.
        if let (Some(f), true) = (flame, view.mode().unit() == "words") {
            let first_offset = lines
                .first()
                .and_then(|l| l.first())
                .and_then(|&(wi, _)| view.word(wi))
                .map_or(0.0, |w| f64::from(w.offset));
            let at = flame_at.or((f < first_offset).then_some((x0 - cw, text_top)));
            if let Some((fx, fy)) = at {
                self.flame(fx, fy, size, now, view.heat());
            }
        }
        if let Some(target) = caret_at {
            self.caret(target, size, now, dt, view.started());
        }
        if !view.started() && !watching {
            self.font(15.0, 400);
            let (w, _, _) = self.size;
            let y = text_top + LINES as f64 * line_h + 10.0;
            self.text(
                "start typing: the clock starts with your first key",
                w / 2.0,
                y,
                DIM,
                "center",
            );
        }
        if watching {
            self.hints("esc menu · tab or enter play this round yourself");
        } else if mode == Mode::Zen {
            self.hints("esc ends the round · tab restart");
        } else {
            self.hints("tab restart · esc menu");
        }
    }

    /// Lays out the words from the first visible line: each line a list of (word, column).
    /// Scrolls a line when the caret reaches the third, back when it steps above the first.
    fn layout(&mut self, view: &View<'_>, cols: usize) -> Vec<Vec<(usize, usize)>> {
        let current = view.current();
        while self.anchors.len() > 1 && current < *self.anchors.last().unwrap_or(&0) {
            self.anchors.pop();
        }
        loop {
            let start = *self.anchors.last().unwrap_or(&0);
            let lines = lay_out(view, start, cols, LINES + 1);
            let caret_line = lines
                .iter()
                .position(|l| l.iter().any(|&(w, _)| w == current));
            match caret_line {
                Some(n) if n >= 2 && lines.len() > 1 => {
                    let next = lines[1].first().map_or(start + 1, |&(w, _)| w);
                    self.anchors.push(next);
                }
                Some(_) => return lines.into_iter().take(LINES).collect(),
                // The caret is past every laid-out line (a very long word): start at it.
                None => self.anchors.push(current),
            }
        }
    }

    fn caret(&mut self, target: (f64, f64), size: f64, now: f64, dt: f64, started: bool) {
        // Glide towards the target; jump when the line changes.
        let pos = match self.caret {
            Some((x, y)) if (y - target.1).abs() < 1.0 => {
                let k = 1.0 - (-dt / 28.0).exp();
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
        self.caret = Some((pos, target.1));
        // Before the first key the caret blinks.
        let visible = started || (now / 530.0).floor() as i64 % 2 == 0;
        self.animate |= moving || !started;
        if visible {
            self.ctx.set_fill_style_str(CARET);
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
        let flicker = (now / 70.0).sin() * 0.06 + (now / 23.0).sin() * 0.03;
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
        for (scale, color) in [(1.0, "#ff3d1f"), (0.72, "#ff8c1a"), (0.42, "#ffe066")] {
            let (fw, fh) = (w * scale, h * scale);
            let sway = (now / 110.0 + scale * 3.0).sin() * fw * 0.18;
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
            ctx.set_fill_style_str(color);
            ctx.fill();
        }
    }

    fn draw_link(&mut self, app: &App, name: &str, error: Option<&str>, waiting: bool, now: f64) {
        let (w, h, _) = self.size;
        let top = (h * 0.25).max(90.0);
        self.font(28.0, 700);
        self.text("link this game", w / 2.0, top, TEXT, "center");
        self.font(15.0, 400);
        let about = match &app.player {
            Some(p) => format!("linked as {}: a new name links a new player", p.name),
            None => "pick a name: your rounds are sent, scored by the server, and get share links"
                .into(),
        };
        self.text(&about, w / 2.0, top + 34.0, DIM, "center");
        let field = Rect {
            x: w / 2.0 - 200.0,
            y: top + 70.0,
            w: 400.0,
            h: 54.0,
        };
        self.ctx.set_fill_style_str(PANEL);
        self.round_rect(field, 12.0);
        self.ctx.fill();
        self.font(26.0, 600);
        self.text(name, w / 2.0, top + 106.0, ACCENT, "center");
        let tw = self.text_width(name);
        if (now / 530.0).floor() as i64 % 2 == 0 {
            self.ctx.set_fill_style_str(CARET);
            self.ctx
                .fill_rect(w / 2.0 + tw / 2.0 + 3.0, top + 82.0, 2.5, 30.0);
        }
        self.animate = true;
        let line = if waiting { Some("linking…") } else { error };
        if let Some(line) = line {
            self.notice(line, top + 160.0);
        }
        self.hints("3 to 20 letters, digits, _ or - · enter link · esc back");
    }

    fn draw_boards(&mut self, app: &App, b: &Boards) {
        let (w, h, _) = self.size;
        let (x0, width) = self.column();
        self.font(26.0, 700);
        self.text("boards", x0, 70.0, TEXT, "left");
        let mode = app.board_modes()[b.mode];
        self.font(18.0, 700);
        self.text(&format!("‹ {mode} ›"), x0 + width, 70.0, ACCENT, "right");
        self.font(13.0, 400);
        self.text(
            "this month's best run per player",
            x0 + width,
            92.0,
            DIM,
            "right",
        );
        let rows = match &b.rows {
            None => {
                self.font(18.0, 400);
                self.text("loading…", w / 2.0, h / 2.0, DIM, "center");
                self.hints("←→ mode · esc menu");
                return;
            }
            Some(Err(e)) => {
                self.notice(e, h / 2.0);
                self.hints("←→ mode · esc menu");
                return;
            }
            Some(Ok(rows)) => rows,
        };
        if rows.is_empty() {
            self.font(18.0, 400);
            self.text(
                "no runs this month yet: be the first",
                w / 2.0,
                h / 2.0,
                DIM,
                "center",
            );
        }
        for (i, y, selected) in self.list_rows(rows.len(), b.row, 140.0, Target::Board) {
            let r = &rows[i];
            self.font(16.0, if selected { 700 } else { 400 });
            let medal = match r.rank {
                1 => tier_color(Tier::Reaper),
                2 => tier_color(Tier::Habanero),
                3 => tier_color(Tier::Serrano),
                _ => DIM,
            };
            self.text(&r.rank.to_string(), x0 + 24.0, y, medal, "right");
            self.text(&r.name, x0 + 48.0, y, TEXT, "left");
            let color = if selected { ACCENT } else { TEXT };
            self.text(
                &format!("{} {}", r.score, mode.unit()),
                x0 + width * 0.72,
                y,
                color,
                "right",
            );
            self.text(&format!("{}%", r.accuracy), x0 + width, y, DIM, "right");
        }
        self.hints("←→ mode · ↑↓ pick · enter watch · esc menu");
    }

    fn draw_results(&mut self, r: &Results) {
        let (s, watched) = (&r.score, r.watched);
        let (_, h, _) = self.size;
        let (x0, width) = self.column();
        if watched {
            self.banner(s.mode);
        }
        let top = (h * 0.16).max(90.0);
        self.font(64.0, 800);
        self.text(&s.headline().to_string(), x0, top + 20.0, ACCENT, "left");
        self.font(16.0, 600);
        self.text(&s.mode.title(), x0, top + 50.0, DIM, "left");
        self.font(14.0, 500);
        if let Some(link) = &r.share {
            self.text(
                &format!("share {link}"),
                x0 + width,
                top - 10.0,
                CARET,
                "right",
            );
        }
        if let Some(note) = &r.note {
            self.text(note, x0 + width, top + 14.0, DIM, "right");
        }
        let tier = Tier::of(s.peak_heat);
        let mut stats: Vec<(&str, String, &str)> = vec![
            ("wpm", mirror::decimal(s.wpm_x100), TEXT),
            ("raw", mirror::decimal(s.raw_x100), TEXT),
            (
                "accuracy",
                format!("{}%", mirror::decimal(s.accuracy_x100.into())),
                TEXT,
            ),
            (
                "consistency",
                format!("{}%", mirror::decimal(s.consistency_x100.into())),
                TEXT,
            ),
            (
                "characters",
                format!(
                    "{}/{}/{}/{}",
                    s.chars.correct, s.chars.wrong, s.chars.extra, s.chars.missed
                ),
                TEXT,
            ),
            ("words", s.words.to_string(), TEXT),
            (
                "peak heat",
                format!("{} {}", s.peak_heat, tier.name()),
                tier_color(tier),
            ),
            (
                "time",
                format!("{}.{}s", s.duration_ms / 1000, s.duration_ms % 1000 / 100),
                TEXT,
            ),
        ];
        if let Some(level) = s.level {
            stats.push(("reached", format!("lv{level}"), ACCENT));
        }
        let per_row = if width > 700.0 { 5 } else { 3 };
        let cell = width / per_row as f64;
        for (i, (label, value, color)) in stats.iter().enumerate() {
            let x = x0 + (i % per_row) as f64 * cell;
            let y = top + 100.0 + (i / per_row) as f64 * 62.0;
            self.font(12.0, 600);
            self.text(label, x, y, DIM, "left");
            self.font(20.0, 700);
            self.text(value, x, y + 26.0, color, "left");
        }
        let rows = stats.len().div_ceil(per_row) as f64;
        let chart_top = top + 100.0 + rows * 62.0 + 10.0;
        let chart_h = (h - chart_top - 80.0).clamp(90.0, 220.0);
        self.chart(s, x0, chart_top, width, chart_h);
        let hints = if watched {
            "tab or enter play this round yourself · r watch again · esc menu"
        } else if r.share.is_some() {
            "tab or enter again · r watch it · c copy link · h history · esc menu"
        } else {
            "tab or enter again · r watch it · h history · esc menu"
        };
        self.hints(hints);
    }

    /// The per-second chart: wpm so far (accent), raw (dim), and errors (red crosses).
    fn chart(&self, s: &Score, x: f64, y: f64, width: f64, height: f64) {
        let ctx = &self.ctx;
        let n = s.samples.len();
        let top_wpm = s
            .samples
            .iter()
            .map(|p| p.wpm_x100.max(p.raw_x100))
            .max()
            .unwrap_or(0);
        let step = 20.0;
        let max = ((f64::from(top_wpm) / 100.0 * 1.1 / step).ceil() * step).max(step);
        let plot_x = x + 36.0;
        let plot_w = width - 36.0;
        self.font(11.0, 400);
        ctx.set_line_width(1.0);
        let mut v = 0.0;
        while v <= max {
            let gy = y + height - v / max * height;
            ctx.set_stroke_style_str(FAINT);
            ctx.begin_path();
            ctx.move_to(plot_x, gy);
            ctx.line_to(plot_x + plot_w, gy);
            ctx.stroke();
            self.text(&format!("{v:.0}"), plot_x - 8.0, gy + 4.0, DIM, "right");
            v += if max > 120.0 { 2.0 * step } else { step };
        }
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
        for (color, width, pick) in [
            (
                DIM,
                1.5,
                (|p: &typepper_engine::Sample| p.raw_x100) as fn(&_) -> u32,
            ),
            (ACCENT, 2.5, |p: &typepper_engine::Sample| p.wpm_x100),
        ] {
            ctx.set_stroke_style_str(color);
            ctx.set_line_width(width);
            ctx.set_line_join("round");
            ctx.begin_path();
            for (i, p) in s.samples.iter().enumerate() {
                if i == 0 {
                    ctx.move_to(px(i), py(pick(p)));
                } else {
                    ctx.line_to(px(i), py(pick(p)));
                }
            }
            ctx.stroke();
        }
        ctx.set_stroke_style_str(WRONG);
        ctx.set_line_width(1.5);
        for (i, p) in s.samples.iter().enumerate().filter(|(_, p)| p.errors > 0) {
            let (cx, cy, r) = (px(i), py(p.raw_x100) - 10.0, 3.5);
            ctx.begin_path();
            ctx.move_to(cx - r, cy - r);
            ctx.line_to(cx + r, cy + r);
            ctx.move_to(cx + r, cy - r);
            ctx.line_to(cx - r, cy + r);
            ctx.stroke();
        }
        // Seconds along the bottom, about six labels whatever the length.
        self.font(11.0, 400);
        let every = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600]
            .into_iter()
            .find(|e| n / e <= 6)
            .unwrap_or(n.max(1));
        for i in (0..n).filter(|i| (i + 1) % every == 0) {
            self.text(
                &format!("{}s", i + 1),
                px(i),
                y + height + 16.0,
                DIM,
                "center",
            );
        }
        self.text("wpm", plot_x + plot_w, y - 8.0, ACCENT, "right");
        let wpm_w = self.text_width("wpm ");
        self.text("raw", plot_x + plot_w - wpm_w - 8.0, y - 8.0, DIM, "right");
        let raw_w = self.text_width("raw ");
        self.text(
            "errors ×",
            plot_x + plot_w - wpm_w - raw_w - 16.0,
            y - 8.0,
            WRONG,
            "right",
        );
    }
}

/// Words from `start` in lines of `cols` columns, at most `max_lines`.
fn lay_out(
    view: &View<'_>,
    start: usize,
    cols: usize,
    max_lines: usize,
) -> Vec<Vec<(usize, usize)>> {
    let mut lines: Vec<Vec<(usize, usize)>> = vec![vec![]];
    let mut col = 0;
    let mut i = start;
    while let Some(word) = view.word(i) {
        let len = word.target().len().max(word.typed().len());
        if col > 0 && col + len > cols {
            if lines.len() == max_lines {
                break;
            }
            lines.push(vec![]);
            col = 0;
        }
        if let Some(line) = lines.last_mut() {
            line.push((i, col));
        }
        col += len + 1;
        i += 1;
    }
    lines
}

/// The colour of a heat tier.
pub fn tier_color(t: Tier) -> &'static str {
    match t {
        Tier::Bell => "#7ed957",
        Tier::Jalapeno => "#c5e063",
        Tier::Serrano => "#ffd23f",
        Tier::Habanero => "#ff9f1c",
        Tier::Ghost => "#ff4d4d",
        Tier::Reaper => "#e0115f",
    }
}

/// Everything on screen that can change without an input: when it is the same as last
/// frame's, the frame is skipped.
fn signature(app: &App, now: f64) -> u64 {
    let mut h = DefaultHasher::new();
    app.menu_item.hash(&mut h);
    app.level.hash(&mut h);
    app.history_row.hash(&mut h);
    app.history.len().hash(&mut h);
    app.notice.hash(&mut h);
    for mode in app.board_modes() {
        app.ranked_ready(mode).hash(&mut h);
    }
    match &app.screen {
        Screen::Menu => 0.hash(&mut h),
        Screen::History => 1.hash(&mut h),
        Screen::Link {
            name,
            error,
            waiting,
        } => (4, name, error, waiting).hash(&mut h),
        Screen::Boards(b) => {
            5.hash(&mut h);
            (
                b.mode,
                b.row,
                b.rows
                    .as_ref()
                    .map(|r| r.as_ref().map(Vec::len).map_err(String::len)),
            )
                .hash(&mut h);
        }
        Screen::Results(r) => {
            2.hash(&mut h);
            (&r.score, &r.share, &r.note).hash(&mut h);
        }
        Screen::Play(s) => {
            3.hash(&mut h);
            let t = app.round_time(now);
            let view = s.round.view(t);
            (
                s.round.seed(),
                s.round.last_input(),
                view.caret(),
                view.started(),
            )
                .hash(&mut h);
            view.time_left_ms().map(|l| l.div_ceil(1000)).hash(&mut h);
            (
                view.elapsed_ms() / 1000,
                view.heat(),
                view.level(),
                view.over(),
            )
                .hash(&mut h);
            s.watch.is_some().hash(&mut h);
        }
    }
    h.finish()
}
