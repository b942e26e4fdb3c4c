//! A linked player's devices: the browsers, terminal games and SSH keys that are them, a
//! one-time code that adds another (with its link's QR code), and removing one.

use typepper_api::devices::{DeviceCode, Devices};

use crate::app::{App, Effect, Key, Screen};
use crate::model::{BACK, Body, CodeCard, DeviceLine, Kind, Model, Tap, Tone, tap};
use crate::request::{Failure, Request};
use crate::storage;
use crate::zone::{Zone, local_time};

/// What `a` and `x` do, for a finger.
const ADD: Tap = tap("add a device", Key::Char('a'));
const REMOVE: Tap = tap("remove", Key::Char('x'));

/// The devices screen.
#[derive(Clone, Debug, Default)]
pub struct DevicesScreen {
    /// The devices once loaded, or why they aren't.
    pub devices: Option<Result<Devices, String>>,
    /// The picked row.
    pub row: usize,
    /// A code asked for and shown, or being asked for (`Some(None)`).
    pub code: Option<Option<DeviceCode>>,
    /// `x` was pressed on the picked row: a second `x` removes it, any other key keeps it.
    pub removing: bool,
}

impl App {
    /// Opens the linked player's devices, and asks for them.
    pub(crate) fn open_devices(&mut self) -> Vec<Effect> {
        let Some(player) = &self.player else {
            self.ask_to_link();
            return vec![];
        };
        let token = player.token.clone();
        self.screen = Screen::Devices(Box::default());
        vec![Effect::Request(Request::Devices(token))]
    }

    pub(crate) fn devices_key(&mut self, key: Key) -> Vec<Effect> {
        let (Screen::Devices(d), Some(player)) = (&mut self.screen, &self.player) else {
            return vec![];
        };
        let token = player.token.clone();
        let rows = match &d.devices {
            Some(Ok(list)) => list.devices.len(),
            _ => 0,
        };
        // A device goes at a second `x`: a slip of the finger mustn't unlink a phone.
        let asked = std::mem::take(&mut d.removing);
        let confirmed = asked && key == Key::Char('x');
        if asked && !confirmed {
            // Kept: the question goes.
            self.notice = None;
        }
        match key {
            // A code shown goes first, then the screen.
            Key::Escape if d.code.is_some() => d.code = None,
            Key::Escape => self.screen = Screen::Menu,
            Key::Up => d.row = d.row.saturating_sub(1),
            Key::Down if rows > 0 => d.row = (d.row + 1).min(rows - 1),
            Key::Char('a') if d.code.is_none() => {
                d.code = Some(None);
                return vec![Effect::Request(Request::DeviceCode(token))];
            }
            Key::Char('x') if d.code.is_none() => {
                if let Some(Ok(list)) = &d.devices
                    && let Some(device) = list.devices.get(d.row)
                {
                    if confirmed {
                        let id = device.id.clone();
                        return vec![Effect::Request(Request::RemoveDevice { token, id })];
                    }
                    d.removing = true;
                    let what = if device.this {
                        "this device"
                    } else {
                        &device.name
                    };
                    let ask = ["x again removes ", what, ": it stops being you at once"];
                    self.notice = Some((ask.concat(), Tone::Wrong));
                }
            }
            // Another name: the link screen, which asks for one.
            Key::Char('n') => self.ask_to_link(),
            _ => {}
        }
        vec![]
    }

    /// The server's answer to [`Request::Devices`].
    pub(crate) fn devices_loaded(&mut self, devices: Result<Devices, Failure>) {
        if let Screen::Devices(d) = &mut self.screen {
            let rows = devices.as_ref().map_or(0, |l| l.devices.len());
            d.row = d.row.min(rows.saturating_sub(1));
            d.devices = Some(devices.map_err(|e| e.to_string()));
        }
    }

    /// The server's answer to [`Request::DeviceCode`].
    pub(crate) fn code_shown(&mut self, code: Result<DeviceCode, Failure>) {
        if let Screen::Devices(d) = &mut self.screen
            && d.code.is_some()
        {
            match code {
                Ok(code) => d.code = Some(Some(code)),
                Err(why) => {
                    d.code = None;
                    self.notice = Some((why.to_string(), Tone::Wrong));
                }
            }
        }
    }

    /// The server's answer to [`Request::RemoveDevice`]: the list again; this device
    /// removed is a game no longer linked.
    pub(crate) fn device_removed(&mut self, id: &str, done: Result<(), Failure>) -> Vec<Effect> {
        let Screen::Devices(d) = &mut self.screen else {
            return vec![];
        };
        if let Err(why) = done {
            self.notice = Some((why.to_string(), Tone::Wrong));
            return vec![];
        }
        let this = matches!(&d.devices, Some(Ok(list))
            if list.devices.iter().any(|dev| dev.id == id && dev.this));
        let Some(player) = &self.player else {
            return vec![];
        };
        if this {
            self.player = None;
            self.screen = Screen::Menu;
            self.notice = Some((
                "this device was removed: it is linked to no one".into(),
                Tone::Text,
            ));
            return vec![Effect::Remove(storage::PLAYER.into())];
        }
        self.notice = Some(("removed: that device is a stranger now".into(), Tone::Text));
        vec![Effect::Request(Request::Devices(player.token.clone()))]
    }

    pub(crate) fn devices_screen(
        &self,
        d: &DevicesScreen,
        zone: &dyn Zone,
        notice: Option<(String, Tone)>,
    ) -> Model {
        let (rows, say) = match &d.devices {
            None => (vec![], Some(("loading…".into(), Tone::Dim))),
            Some(Err(e)) => (vec![], Some((e.clone(), Tone::Wrong))),
            Some(Ok(list)) => (
                list.devices
                    .iter()
                    .map(|dev| {
                        let what = match (dev.this, dev.kind.as_str()) {
                            (true, _) => "this device",
                            (false, "key") => "SSH key",
                            _ => "browser or terminal",
                        };
                        let added = typepper_api::Utc::parse(&dev.added)
                            .map(|ms| local_time(ms.max(0) as u64, zone))
                            .unwrap_or_default();
                        DeviceLine {
                            name: dev.name.clone(),
                            detail: format!("{what} · added {added}"),
                            this: dev.this,
                        }
                    })
                    .collect(),
                None,
            ),
        };
        let code = match &d.code {
            Some(Some(c)) => Some(CodeCard {
                // In halves, as it is read out; one that can't be split (no server's) is
                // shown whole.
                code: match (c.code.get(..4), c.code.get(4..)) {
                    (Some(a), Some(b)) if !b.is_empty() => format!("{a} {b}"),
                    _ => c.code.clone(),
                },
                link: c.link.clone(),
                until: match local_time(c.expires_ms.max(0) as u64, zone).split_once(' ') {
                    Some((_, time)) => format!("works once, until {time}"),
                    None => "works once, for ten minutes".into(),
                },
                how: "on the other device: l, then tab, and type it · or open the link · \
                      or over ssh: v1 claim <code>",
                qr: c.qr.clone(),
            }),
            _ => None,
        };
        let say = match (&d.code, say) {
            (Some(None), _) => Some(("asking for a code…".into(), Tone::Dim)),
            (_, say) => say,
        };
        let hints = match (&code, rows.is_empty()) {
            (Some(_), _) => "esc back to your devices",
            (None, true) => "a add a device · n another name · esc menu",
            (None, false) => "a add a device · ↑↓ pick · x remove · n another name · esc menu",
        };
        let status = match &self.player {
            Some(p) => format!("linked as {}", p.name),
            None => "not linked".into(),
        };
        Model {
            kind: Kind::Devices,
            banner: None,
            notice,
            hints,
            taps: match code {
                Some(_) => &[BACK],
                None => &[ADD, REMOVE, BACK],
            },
            body: Body::Devices(crate::model::Devices {
                title: "your devices",
                status,
                rows,
                selected: d.row,
                code,
                say,
            }),
        }
    }
}
