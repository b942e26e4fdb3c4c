//! A round: the clock and the heat, the text with the carets and the flame, the lead.

use typepper_engine::Tier;
use typepper_game::layout::{self, LINES};
use typepper_game::model::{Ghost, Play, Tone};

use typepper_game::settings::Caret;

use super::{Css, GAP, Rect, Renderer, blink_on, next_blink};

/// Other racers' names over their carets: big enough to read on a phone, bold.
const LABEL_PX: f64 = 13.0;
/// The least room between two of them.
const LABEL_GAP: f64 = 8.0;

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

impl Renderer {
    /// The heat meter at `(x, y)`, its label and the flame's lead above its right end,
    /// or (`under`) under it, one at each end.
    fn heat_bar(&self, play: &Play, (x, y): (f64, f64), width: f64, under: bool) {
        let heat = play.heat;
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
                let _ =
                    g.add_color_stop(f32::from(t.floor()) / 100.0, self.css(Tone::Heat(t)).str());
            }
            ctx.set_fill_style_canvas_gradient(&g);
            if play.glows() {
                ctx.set_shadow_color(self.css(play.heat_tone()).str());
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

    pub(super) fn draw_play(
        &mut self,
        play: &Play,
        notice: Option<(&str, Tone)>,
        now: f64,
        dt: f64,
    ) {
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
                    let tone = play.glyph_tone(word, gi);
                    self.fill_style(tone);
                    self.ctx.set_text_align("left");
                    let mut buf = [0u8; 4];
                    let _ = self.ctx.fill_text(g.ch.encode_utf8(&mut buf), gx, y);
                    // A theme that tells no mistake by hue alone underlines each wrong
                    // letter too.
                    if self.look.theme.marks && matches!(tone, Tone::Wrong | Tone::Extra) {
                        self.ctx.fill_rect(gx + 1.0, y + 4.0, gw - 2.0, 3.0);
                    }
                    if play.marks(word, Some(gi)) {
                        self.fill_style(Tone::Wrong);
                        self.ctx.fill_rect(gx, y + 6.0, gw, 2.0);
                    }
                }
                if play.marks(word, None) {
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
            // The flame flickers even while it stands still (unless motion is reduced).
            if self.moves() {
                self.wake_at = now;
            }
            if let Some((fx, fy)) = at {
                // Never past the screen's left edge, where the column's margin is narrow.
                self.flame(fx.max(size * 0.6), fy, size, now, play.heat);
            }
        }
        self.ghost_carets(&ghosts_at, size);
        if let Some(target) = caret_at {
            self.caret(target, play.round, (size, cw), now, dt, play.started);
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
            y += 32.0;
        }
        // What the game says of the round as it begins: that this try is unranked.
        if let Some(notice) = notice {
            self.notice(notice, y);
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

    /// The caret, at `target`, in a font of `size` whose letters are `cw` wide: of the
    /// player's shape, gliding where they have it glide and motion isn't reduced.
    fn caret(
        &mut self,
        target: (f64, f64),
        round: u64,
        (size, cw): (f64, f64),
        now: f64,
        dt: f64,
        started: bool,
    ) {
        let glides = self.look.smooth && self.moves();
        // Glide towards the target; jump when the line or the round changes.
        let pos = match self.caret {
            Some((x, y, r)) if glides && r == round && (y - target.1).abs() < 1.0 => {
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
        // Before the first key the caret blinks (unless motion is reduced).
        let visible = started || !self.moves() || blink_on(now);
        if moving {
            self.wake_at = now;
        } else if !started && self.moves() {
            self.wake_at = self.wake_at.min(next_blink(now));
        }
        if visible {
            self.fill_style(Tone::Caret);
            let (top, h) = (target.1 - size * 0.92, size * 1.12);
            let r = match self.look.caret {
                Caret::Line => Rect {
                    x: pos - 1.0,
                    y: top,
                    w: 2.5,
                    h,
                },
                Caret::Underline => Rect {
                    x: pos,
                    y: target.1 + size * 0.14,
                    w: cw,
                    h: 2.5,
                },
                Caret::Block => Rect {
                    x: pos,
                    y: top,
                    w: cw,
                    h,
                },
            };
            // A block lies over its letter, see-through.
            let block = self.look.caret == Caret::Block;
            if block {
                self.ctx.set_global_alpha(0.4);
            }
            self.round_rect(r, 1.25);
            self.ctx.fill();
            if block {
                self.ctx.set_global_alpha(1.0);
            }
        }
    }

    fn flame(&self, x: f64, baseline: f64, size: f64, now: f64, heat: u8) {
        let ctx = &self.ctx;
        // Reduced motion: the flame stands still.
        let now = if self.moves() { now } else { 0.0 };
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
        for (scale, color) in [1.0, 0.72, 0.42].into_iter().zip(self.look.theme.flame()) {
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
}
