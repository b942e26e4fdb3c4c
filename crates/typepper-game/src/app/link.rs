//! Linking: the name this game's rounds are sent under, asked for and told by the server.

use typepper_api::Player;

use crate::app::{App, Effect, Key, Screen};
use crate::model::Link;
use crate::model::{BACK, Body, Kind, LINK, Model, Tone};
use crate::request::{Failure, Request};
use crate::storage;

impl App {
    /// Opens the screen that asks for a name to link the game under: `l` on the menu, or
    /// a shell whose player has not linked yet (a new key over `ssh host`).
    pub fn ask_to_link(&mut self) {
        self.screen = Screen::Link {
            name: String::new(),
            error: None,
            waiting: false,
        };
    }

    pub(crate) fn link_key(&mut self, key: Key) -> Vec<Effect> {
        let Screen::Link {
            name,
            error,
            waiting,
        } = &mut self.screen
        else {
            return vec![];
        };
        match key {
            Key::Escape => self.screen = Screen::Menu,
            _ if *waiting => {}
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
        let Screen::Link {
            name: asked,
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
                let already = !asked.eq_ignore_ascii_case(&player.name);
                // Good news, not an error's red.
                self.notice = Some(if already {
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
            hints: "3 to 20 letters, digits, _ or - · enter link · esc back",
            taps: &[LINK, BACK],
            body: Body::Link(link),
        }
    }
}
