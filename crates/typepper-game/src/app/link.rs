//! Linking: the name this game's rounds are sent under, asked for and told by the server;
//! or a code from a device linked already, which makes this one the same player.

use typepper_api::Player;

use crate::app::{App, Effect, Key, Screen};
use crate::model::Link;
use crate::model::{BACK, Body, Kind, LINK, Model, Tap, Tone, tap};
use crate::request::{Failure, Request};
use crate::storage;

/// Tab, for a finger: a code instead of a name, or a name instead of a code.
const TAB: Tap = tap("name or code", Key::Tab);

impl App {
    /// Opens the screen that asks for a name to link the game under: `l` on the menu, or
    /// a shell whose player has not linked yet (a new key over `ssh host`).
    pub fn ask_to_link(&mut self) {
        self.screen = Screen::Link {
            name: String::new(),
            code: false,
            error: None,
            waiting: false,
        };
    }

    /// Claims `code`, from a link that carries it (`?device=K3FQ7M2X`): this device
    /// becomes the player of the device that showed it. A game linked already is asked
    /// first, with the code typed in for it: a link anyone can send must not take a
    /// player's device from them at a click.
    pub fn claim(&mut self, code: &str) -> Vec<Effect> {
        let asked = self.player.is_some();
        self.screen = Screen::Link {
            name: code.to_owned(),
            code: true,
            error: None,
            waiting: !asked,
        };
        if let Some(p) = &self.player {
            let ask = format!(
                "linked as {}: enter makes this device the code's player, esc keeps {}",
                p.name, p.name
            );
            self.notice = Some((ask, Tone::Text));
            return vec![];
        }
        vec![Effect::Request(Request::Claim(code.to_owned()))]
    }

    pub(crate) fn link_key(&mut self, key: Key) -> Vec<Effect> {
        let Screen::Link {
            name,
            code,
            error,
            waiting,
        } = &mut self.screen
        else {
            return vec![];
        };
        match key {
            Key::Escape => self.screen = Screen::Menu,
            _ if *waiting => {}
            // A name, or a code: what is typed starts again.
            Key::Tab => {
                *code = !*code;
                name.clear();
                *error = None;
            }
            // An edit answers the refusal: it goes.
            Key::Backspace => {
                name.pop();
                *error = None;
            }
            Key::DeleteWord => {
                name.clear();
                *error = None;
            }
            Key::Char(c) if name.chars().count() < 20 && !c.is_whitespace() => {
                name.push(c);
                *error = None;
            }
            Key::Enter if *code => match typepper_api::devices::read_code(name) {
                Some(typed) => {
                    *waiting = true;
                    *error = None;
                    return vec![Effect::Request(Request::Claim(typed))];
                }
                None => {
                    *error = Some(
                        "a code is 8 letters and digits, as your other device shows it".into(),
                    );
                }
            },
            Key::Enter => match typepper_api::check_name(name) {
                Ok(()) => {
                    *waiting = true;
                    *error = None;
                    return vec![Effect::Request(Request::Link(name.clone()))];
                }
                Err(why) => *error = Some(why.into()),
            },
            _ => {}
        }
        vec![]
    }

    /// The server's answer to [`Request::Link`]: the player, or why not.
    pub(crate) fn linked(&mut self, result: Result<Player, Failure>) -> Vec<Effect> {
        // Answered after esc left the screen: a player made, or a code used, is kept all
        // the same (the server holds it now), not lost with its token.
        if let (false, Ok(player)) = (matches!(self.screen, Screen::Link { .. }), &result) {
            self.notice = Some((format!("linked as {}", player.name), Tone::Text));
            let value = storage::format_player(player);
            self.player = result.ok();
            return vec![Effect::Save {
                key: storage::PLAYER.into(),
                value,
            }];
        }
        let Screen::Link {
            name: asked,
            code,
            error,
            waiting,
        } = &mut self.screen
        else {
            return vec![];
        };
        *waiting = false;
        match result {
            Ok(player) => {
                let value = storage::format_player(&player);
                // The server's name is the one: a key linked already is its player's,
                // whatever name was asked for.
                // Names are ASCII; case aside, another name is the key's own player's.
                // The menu under the notice says "linked as …": the notice doesn't again.
                let already = !*code && !asked.eq_ignore_ascii_case(&player.name);
                // Good news, not an error's red.
                self.notice = Some(if *code {
                    let joined = format!("linked: this device is {} now", player.name);
                    (joined, Tone::Accent)
                } else if already {
                    let whose = format!(
                        "this key is {}'s already: your rounds are sent under that name",
                        player.name
                    );
                    (whose, Tone::Text)
                } else {
                    let done = "linked: your rounds will be sent, scored and shared";
                    (done.to_owned(), Tone::Accent)
                });
                self.player = Some(player);
                self.screen = Screen::Menu;
                let mut fx = vec![Effect::Save {
                    key: storage::PLAYER.into(),
                    value,
                }];
                fx.extend(self.flush());
                fx
            }
            Err(why) => {
                *error = Some(why.to_string());
                vec![]
            }
        }
    }

    pub(crate) fn link_screen(
        &self,
        name: &str,
        code: bool,
        error: Option<&str>,
        waiting: bool,
        mut notice: Option<(String, Tone)>,
    ) -> Model {
        if let Some(e) = error {
            notice = Some((e.to_owned(), Tone::Wrong));
        } else if waiting {
            notice = Some(("linking…".into(), Tone::Dim));
        }
        let (about, status) = match &self.player {
            _ if code => (
                "type the code your other device shows (l, then a, there)".into(),
                "a code from another device".into(),
            ),
            // "linked as" once, in the status.
            Some(p) => (
                "your rounds are sent, scored by the server, and get share links".into(),
                format!("linked as {}", p.name),
            ),
            None => (
                "pick a name: your rounds are sent, scored by the server, and get share links"
                    .into(),
                "not linked".into(),
            ),
        };
        let link = Link {
            title: "link this game",
            name: name.to_owned(),
            about,
            status,
        };
        Model {
            kind: Kind::Link,
            banner: None,
            notice,
            hints: match code {
                true => "8 letters and digits · enter link · tab a new name instead · esc back",
                false => {
                    "3 to 20 letters, digits, _ or - · enter link · tab a code instead · esc back"
                }
            },
            taps: &[LINK, TAB, BACK],
            body: Body::Link(link),
        }
    }
}
