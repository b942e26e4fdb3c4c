//! What the devices screen shows: the devices that are this player, and a code that adds
//! another.

use crate::model::Tone;

/// A linked player's devices, or the code that adds one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Devices {
    /// `your devices`.
    pub title: &'static str,
    /// `linked as ada`.
    pub status: String,
    /// Every device that is the player, the oldest first.
    pub rows: Vec<DeviceLine>,
    /// The picked row.
    pub selected: usize,
    /// A code being shown, in place of the rows.
    pub code: Option<CodeCard>,
    /// In place of rows: `loading…`, or why they didn't come.
    pub say: Option<(String, Tone)>,
}

/// A device, as listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceLine {
    /// What it was called, or a key's fingerprint.
    pub name: String,
    /// `this device`, `SSH key`, or `browser or terminal`, and when it was added.
    pub detail: String,
    /// The device the list is on.
    pub this: bool,
}

/// A one-time code to enter on another device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeCard {
    /// The code in two halves, as it is read out: `K3FQ 7M2X`.
    pub code: String,
    /// The game's address with the code.
    pub link: String,
    /// `works once, until 14:32`.
    pub until: String,
    /// Where to enter it, on each kind of device.
    pub how: &'static str,
    /// The link as a QR code: a row a string, `1` dark, without its quiet zone.
    pub qr: Vec<String>,
}
