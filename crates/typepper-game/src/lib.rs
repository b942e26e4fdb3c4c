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
//!   the results [`chart`]; what each colour means, and its RGB ([`palette`]);
//! - [`mirror`]: the model as plain text fields, for screen readers and the tests;
//! - [`race`]: a replay raced as a ghost, and the lead;
//! - [`request`]: what the game asks of the server, what comes back, and why it failed;
//! - [`room`]: a live room, its lobby, race and results, as the server tells them;
//! - [`keys`]: what the history says about each key and letter pair;
//! - [`zone`]: local time, which only the shell can know.
//!
//! All rules stay in the engine; this crate only decides which screen shows what.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod app;
pub mod chart;
pub mod input;
pub mod keys;
pub mod layout;
pub mod mirror;
pub mod model;
pub mod palette;
pub mod race;
pub mod request;
pub mod room;
pub mod storage;
pub mod tour;
pub mod zone;
