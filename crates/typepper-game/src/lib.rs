//! typepper's game, written once for every shell: the browser's and the terminal's.
//!
//! Like an emulator core with a web front end and a desktop one, the game itself has no
//! window, no clock and no disk. A shell:
//! 1. turns its own events into [`app::Key`]s and hands them to [`app::App::key`] with
//!    their times, and calls [`app::App::tick`] every frame;
//! 2. carries out the [`app::Effect`]s that come back (keep this, copy that) and carries
//!    each [`request::Request`] to the server, handing what comes back to
//!    [`app::App::answer`] as a [`request::Answer`];
//! 3. asks [`app::App::model`] for the [`model::Model`] of the screen and draws it: a
//!    canvas and a text mirror in the browser, cells in the terminal. When the model
//!    equals the last one drawn, nothing changed on screen.
//!
//! The pieces:
//! - [`app`]: the screens and what keys do on them;
//! - [`storage`]: the history, outbox and player formats, the same in localStorage and
//!   in the terminal's data dir;
//! - [`model`]: what each screen shows, and the words laid out in lines ([`layout`]);
//!   the results chart ([`model::Chart`]); what each colour means, and its RGB
//!   ([`palette`]);
//! - [`mirror`]: the model as plain text fields, for screen readers and the tests;
//! - `race`: a replay raced as a ghost, and the lead (inside the game);
//! - [`request`]: what the game asks of the server, what comes back, and why it failed;
//! - `room`: a live room, its lobby, race and results, as the server tells them (inside
//!   the game);
//! - [`keys`]: what the history says about each key and letter pair;
//! - [`zone`]: local time, which only the shell can know.
//!
//! All rules stay in the engine; this crate only decides which screen shows what.
//!
//! # A shell, in a few lines
//!
//! A shell with no screen, no disk and no server: it keeps what the game saves in a
//! map, answers every request as a server it can't reach, and reads the screen as the
//! text mirror does. Enter on the menu starts a BLITZ 15s; the words on screen are
//! typed at 60 ms a key, and the clock runs out 15 s after the first.
//!
//! ```
//! use std::collections::{HashMap, VecDeque};
//! use typepper_game::app::{App, Effect, Key, Now};
//! use typepper_game::mirror::Mirror;
//! use typepper_game::request::Failure;
//! use typepper_game::{storage::Stored, zone::Fixed};
//!
//! let (mut app, boot) = App::new(42, &Stored::default(), None);
//! let mut kept: HashMap<String, String> = HashMap::new();
//! let mut carry_out = |app: &mut App, effects: Vec<Effect>, now: Now| {
//!     // In order: an outbox entry is saved before the request that sends it.
//!     let mut queue = VecDeque::from(effects);
//!     while let Some(effect) = queue.pop_front() {
//!         match effect {
//!             Effect::Save { key, value } => drop(kept.insert(key, value)),
//!             Effect::Remove(key) => drop(kept.remove(&key)),
//!             Effect::Request(request) => {
//!                 let offline = Failure::Unreachable("no network here".into());
//!                 queue.extend(app.answer(request.failed(offline), now));
//!             }
//!             _ => {} // warnings, the clipboard, rooms: nothing here to do them with
//!         }
//!     }
//! };
//! let at = |ms: f64| Now { mono: ms, unix_ms: 1_796_000_000_000 + ms as u64 };
//! carry_out(&mut app, boot, at(0.0));
//! let fx = app.key(Key::Enter, at(0.0));
//! carry_out(&mut app, fx, at(0.0));
//! let text = Mirror::of(&app.model(0.0, &Fixed(0))).words;
//! let mut t = 1_000.0;
//! for c in text.chars().take(120) {
//!     let fx = app.key(Key::Char(c), at(t));
//!     carry_out(&mut app, fx, at(t));
//!     t += 60.0;
//! }
//! let fx = app.tick(at(16_500.0));
//! carry_out(&mut app, fx, at(16_500.0));
//! assert_eq!(Mirror::of(&app.model(16_500.0, &Fixed(0))).screen, "results");
//! assert!(kept.contains_key(typepper_game::storage::HISTORY), "the round was kept");
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod app;
mod chart;
pub mod custom;
mod input;
pub mod keys;
pub mod layout;
pub mod mirror;
pub mod model;
pub mod palette;
mod race;
pub mod request;
mod room;
pub mod settings;
pub mod storage;
pub mod theme;
#[cfg(any(test, feature = "tour"))]
pub mod tour;
pub mod zone;
