//! A player's profile: `p` on the menu for yours, `o` on a board's row for theirs. Each
//! best and latest run is a replay to watch (enter) or race (`g`).

use typepper_api::profile::{Profile, ProfileRun};
use typepper_engine::Decimal;

use crate::app::{App, Effect, Key, Screen};
use crate::model::{self, BACK, Body, Chart, Kind, Model, ProfileLine, Tap, Tone, tap};
use crate::request::{Failure, Request};

use super::boards::Browsing;

/// What `j` does on a daily's round, for a finger.
const PLAY_DAILY: Tap = tap("play this daily", Key::Char('j'));

/// A profile being looked at.
#[derive(Clone, Debug)]
pub struct ProfileScreen {
    /// Whose.
    pub name: String,
    /// The profile once loaded, or why it isn't.
    pub profile: Option<Result<Profile, String>>,
    /// The picked row: a best, then a latest run.
    pub row: usize,
    /// The board it was opened from, which esc goes back to.
    pub board: Option<Box<Browsing>>,
}

impl ProfileScreen {
    /// Its runs as listed: the bests, then the latest. (Indexed, not iterated: each
    /// chain of iterators is code of its own in the wasm.)
    pub(crate) fn run(&self, i: usize) -> Option<&ProfileRun> {
        let p = self.profile.as_ref()?.as_ref().ok()?;
        match i.checked_sub(p.bests.len()) {
            None => p.bests.get(i),
            Some(j) => p.recent.get(j),
        }
    }

    /// How many runs it lists.
    pub(crate) fn len(&self) -> usize {
        match &self.profile {
            Some(Ok(p)) => p.bests.len() + p.recent.len(),
            _ => 0,
        }
    }
}

impl App {
    /// Opens the linked player's own profile; a game linked to no one is told why it has
    /// none.
    pub(crate) fn open_own_profile(&mut self) -> Vec<Effect> {
        match &self.player {
            Some(p) => {
                let name = p.name.clone();
                self.open_profile(name, None)
            }
            None => {
                let why = (self.unlinkable)
                    .unwrap_or("a profile is a linked player's: l links this game");
                self.notice = Some((why.into(), Tone::Dim));
                vec![]
            }
        }
    }

    /// Opens `name`'s profile, and asks for it; from a board, esc goes back to it.
    pub(crate) fn open_profile(
        &mut self,
        name: String,
        board: Option<Box<Browsing>>,
    ) -> Vec<Effect> {
        // Only a name goes into the URL: a board's row is the server's, but never trusted.
        if typepper_api::check_name(&name).is_err() {
            let why = format!("{name} has no profile: a guest's rounds are theirs alone");
            self.notice = Some((why, Tone::Dim));
            return vec![];
        }
        self.screen = Screen::Profile(Box::new(ProfileScreen {
            name: name.clone(),
            profile: None,
            row: 0,
            board,
        }));
        vec![Effect::Request(Request::Profile(name))]
    }

    pub(crate) fn profile_key(&mut self, key: Key, unix_ms: u64) -> Vec<Effect> {
        let Screen::Profile(p) = &mut self.screen else {
            return vec![];
        };
        let rows = p.len();
        match key {
            Key::Escape => {
                self.screen = match p.board.take() {
                    Some(board) => Screen::Boards(board),
                    None => Screen::Menu,
                };
            }
            Key::Up => p.row = p.row.saturating_sub(1),
            Key::Down if rows > 0 => p.row = (p.row + 1).min(rows - 1),
            // A daily's round: that daily's text, for the player to type themselves.
            Key::Char('j') => {
                if let Some(number) = p.run(p.row).and_then(|run| run.daily) {
                    return self.play_daily_number(number, unix_ms);
                }
            }
            Key::Enter | Key::Char('g') => {
                let picked = p.run(p.row).map(|run| run.run.clone());
                if let Some(id) = picked {
                    let name = p.name.clone();
                    let race = key == Key::Char('g');
                    if !race {
                        self.list = Some(Screen::Profile(p.clone()));
                    }
                    return self.fetch_run(&id, &name, race);
                }
            }
            _ => {}
        }
        vec![]
    }

    /// The server's answer to [`Request::Profile`].
    pub(crate) fn profile_loaded(&mut self, name: &str, profile: Result<Profile, Failure>) {
        if let Screen::Profile(p) = &mut self.screen
            && p.name == name
        {
            p.profile = Some(profile.map_err(|e| e.to_string()));
            p.row = 0;
        }
    }

    pub(crate) fn profile_screen(
        &self,
        p: &ProfileScreen,
        notice: Option<(String, Tone)>,
    ) -> Model {
        let own = self.player.as_ref().is_some_and(|me| me.name == p.name);
        // The picked row is a daily's round: `j` plays that daily.
        let daily = p.run(p.row).is_some_and(|run| run.daily.is_some());
        let title = match own {
            true => format!("your profile · {}", p.name),
            false => p.name.clone(),
        };
        let mut view = model::Profile {
            title,
            status: String::new(),
            month: String::new(),
            chart: None,
            rows: vec![],
            selected: p.row,
            keys: vec![],
            say: None,
        };
        match &p.profile {
            None => view.say = Some(("loading…".into(), Tone::Dim)),
            Some(Err(e)) => view.say = Some((e.clone(), Tone::Wrong)),
            Some(Ok(profile)) => fill(&mut view, profile),
        }

        Model {
            kind: Kind::Profile,
            banner: None,
            notice,
            hints: match (view.rows.is_empty(), p.board.is_some(), daily) {
                (false, true, true) => {
                    "↑↓ pick · enter watch · g race · j play this daily · esc board"
                }
                (false, false, true) => {
                    "↑↓ pick · enter watch · g race · j play this daily · esc menu"
                }
                (false, true, false) => "↑↓ pick · enter watch · g race · esc board",
                (false, false, false) => "↑↓ pick · enter watch · g race · esc menu",
                (true, true, _) => "esc board",
                (true, false, _) => "esc menu",
            },
            taps: match daily {
                true => &[PLAY_DAILY, BACK],
                false => &[BACK],
            },
            body: Body::Profile(view),
        }
    }
}

/// The profile's words, as both shells show them. (Loops and joined parts, not chains
/// of iterators and `format!`: each is code of its own in the wasm.)
fn fill(view: &mut model::Profile, p: &Profile) {
    view.status = ["since ", p.joined_day(), " · ", &p.all.said()].concat();
    view.month = ["this month: ", &p.month.said()].concat();
    view.chart = (!p.chart.is_empty()).then(|| Chart::rounds(&p.chart));
    let groups = [(&p.bests, "personal bests"), (&p.recent, "latest rounds")];
    for (runs, name) in groups {
        for (i, r) in runs.iter().enumerate() {
            let accuracy = Decimal((r.accuracy * 100.0).round() as u32).to_string();
            let day = r.time.get(..10).unwrap_or_default();
            let unranked = if r.ranked { "" } else { " · unranked" };
            view.rows.push(ProfileLine {
                group: (i == 0).then_some(name),
                title: r.title.clone(),
                score: [&r.score.to_string(), " ", &r.unit].concat(),
                detail: [&accuracy, "% · ", day, unranked].concat(),
            });
        }
    }
    view.keys = crate::keys::summary(&p.keys);
    if view.rows.is_empty() && p.all.rounds == 0 {
        view.say = Some(("no rounds stored yet".into(), Tone::Dim));
    }
}
