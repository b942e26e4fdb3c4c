//! The screens, one module each: its state, what its keys do, and what it shows (its part
//! of the [`crate::model::Model`]). The app holds which is on screen and hands each key
//! and each frame to it.

pub mod boards;
pub mod history;
pub mod keys;
pub mod link;
