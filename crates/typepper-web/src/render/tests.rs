//! The canvas draws every word of every screen, and no text over other text or past the
//! canvas's edges: the game's tour, each stop drawn on a 2d context that records the
//! text it is given, in Node, at a desktop's size and a phone's.

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
             // A line's every corner: the charts are lines.
             if (key === 'lineTo') return (x, y) => { (drawn.corners ??= []).push([x, y]); };
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
    assert!(renderer.frame(stop.model.clone(), 0.0), "{}", stop.name);
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
    crate::install_english();
    let mut missing = vec![];
    for stop in typepper_game::tour::stops() {
        for size in SIZES {
            let texts: Vec<String> = drawn(&stop, size).0.into_iter().map(|d| d.text).collect();
            let texts = texts.join(" ");
            // A phone's menu leaves out its last round's and its race's lines where they
            // don't fit under the notice, the daily and who plays.
            let optional = match &stop.model.body {
                Body::Menu(m) if size == SIZES[1] => [&m.last_round, &m.race],
                _ => [&None, &None],
            };
            let optional = |word: &String| optional.iter().any(|o| o.as_ref() == Some(word));
            for word in stop.missing(&texts).into_iter().filter(|w| !optional(w)) {
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
    crate::install_english();
    let stops = typepper_game::tour::stops();
    let pursuit = stops.iter().find(|s| s.name == "playing, HOT PURSUIT");
    let pursuit = pursuit.expect("the tour plays HOT PURSUIT");
    for size in SIZES {
        let recorded = js_sys::Array::new();
        let mut renderer = recording(&recorded, size);
        assert!(renderer.frame(pursuit.model.clone(), 0.0));
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
    crate::install_english();
    let mut wrong = vec![];
    for stop in typepper_game::tour::stops() {
        for size @ (w, h) in SIZES {
            let (texts, buttons) = drawn(&stop, size);
            // A button holds its label and no other text, and is a thumb's height.
            for (n, button) in buttons.iter().enumerate() {
                let inside = |t: &&Drawn| overlap(button, &t.at);
                let held: Vec<&str> = texts.iter().filter(inside).map(|t| &t.text[..]).collect();
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
                if r.x < 0.0 || r.y < 0.0 || r.x + r.w > f64::from(w) || r.y + r.h > f64::from(h) {
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

/// The play-test's phone drew a daily's results' chart under the taps, its note being
/// three lines long. No line (a chart's) is drawn under a button or off the canvas.
#[wasm_bindgen_test]
fn no_line_is_drawn_under_a_button_or_off_the_canvas() {
    crate::install_english();
    let mut wrong = vec![];
    for stop in typepper_game::tour::stops() {
        for size @ (w, h) in SIZES {
            let recorded = js_sys::Array::new();
            let mut renderer = recording(&recorded, size);
            assert!(renderer.frame(stop.model.clone(), 0.0), "{}", stop.name);
            let corners = js_sys::Reflect::get(&recorded, &"corners".into()).ok();
            let corners: Vec<(f64, f64)> = corners
                .filter(|c| c.is_object())
                .map(|c| {
                    c.unchecked_into::<js_sys::Array>()
                        .iter()
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
                .into_iter()
                .map(|xy| {
                    let xy: js_sys::Array = xy.unchecked_into();
                    let at = |i| xy.get(i).as_f64().unwrap_or(f64::NAN);
                    (at(0), at(1))
                })
                .collect();
            let buttons = renderer
                .hits
                .iter()
                .filter(|(_, hit)| matches!(hit, Hit::Key(_)));
            for &(x, y) in &corners {
                let off = !(0.0..=f64::from(w)).contains(&x) || !(0.0..=f64::from(h)).contains(&y);
                let under = buttons
                    .clone()
                    .any(|(b, _)| x > b.x && x < b.x + b.w && y > b.y && y < b.y + b.h);
                if off || under {
                    wrong.push(format!(
                        "{} at {size:?}: a line through ({x:.0}, {y:.0})",
                        stop.name
                    ));
                    break;
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The custom text screen's field, where the page's text area lies, is a few lines high
/// and clear of every text the screen draws and of its buttons, at either size.
#[wasm_bindgen_test]
fn the_text_screens_field_is_clear_of_its_words_and_buttons() {
    crate::install_english();
    let stops = typepper_game::tour::stops();
    let texts = stops
        .iter()
        .filter(|s| s.model.kind == typepper_game::model::Kind::Text);
    let mut seen = 0;
    for stop in texts {
        for size in SIZES {
            let mut renderer = recording(&js_sys::Array::new(), size);
            assert!(renderer.frame(stop.model.clone(), 0.0));
            let field = renderer.field().expect("the text screen has a field");
            assert!(field.h >= 120.0, "{} at {size:?}: {field:?}", stop.name);
            let (texts, buttons) = drawn(stop, size);
            let inside: Vec<&str> = texts
                .iter()
                .filter(|t| overlap(&field, &t.at))
                .map(|t| &t.text[..])
                .collect();
            assert!(inside.is_empty(), "{} at {size:?}: {inside:?}", stop.name);
            assert!(!buttons.iter().any(|b| overlap(&field, b)), "{}", stop.name);
            seen += 1;
        }
    }
    assert!(seen >= 2, "the tour has no text screen");
}
