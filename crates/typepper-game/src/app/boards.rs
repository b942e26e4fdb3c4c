//! The boards: each player's best run of a mode today, this week, this month or of all
//! time, each row a run to watch or race, fetched from the server when picked.

use typepper_api::{BoardRow, Period};
use typepper_engine::{Decimal, Mode};

use crate::app::{App, BOARDS, Effect, Key, Screen};
use crate::model::BoardLine;
use crate::model::Boards;
use crate::model::{BACK, Body, Kind, Model, Tap, Tone, tap};
use crate::request::{Failure, Request};

/// What `p` and `o` do, for a finger.
const PERIOD: Tap = tap("period", Key::Char('p'));
const PLAYER: Tap = tap("player", Key::Char('o'));
/// What `j` does: on a board, the daily's; on a daily's, play it.
const DAILY: Tap = tap("daily", Key::Char('j'));
const PLAY_DAILY: Tap = tap("play it", Key::Char('j'));

/// A board being looked at.
#[derive(Clone, Debug, Default)]
pub struct Browsing {
    /// Which of [`App::board_modes`].
    pub mode: usize,
    /// A board of its own instead: a quote's (each passage has one), opened from its
    /// results or the menu's QUOTE line; ←→ go on to the boards above.
    pub only: Option<Mode>,
    /// A daily's board instead (`j`): its number; ←→ go to the day before and after.
    pub daily: Option<u32>,
    /// That daily's seed once its day is over and its board has come: `j` plays it.
    pub seed: Option<u64>,
    /// Whose runs: today's, this week's, this month's, all time's (`p` moves it on).
    pub period: Period,
    /// The rows once loaded, or why they aren't.
    pub rows: Option<Result<Vec<BoardRow>, String>>,
    /// The picked row.
    pub row: usize,
}

/// What to do with a run once the server sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pending {
    id: String,
    who: String,
    race: bool,
}

impl App {
    /// Opens the board of `board_modes()[mode]`.
    pub(crate) fn open_boards(&mut self, mode: usize) -> Vec<Effect> {
        self.open_board(mode, None)
    }

    /// Opens the board of `mode`: one of [`App::board_modes`], or a board of its own (a
    /// quote's). A mode with no board (a drill, a custom text) says so on the screen it
    /// was asked from.
    pub(crate) fn open_board_of(&mut self, mode: Mode) -> Vec<Effect> {
        if let Some(i) = self.board_modes().iter().position(|&m| m == mode) {
            return self.open_boards(i);
        }
        if !mode.rankable() {
            let why = format!("{} has no board: its rounds are yours alone", mode.title());
            self.notice = Some((why, Tone::Dim));
            return vec![];
        }
        self.open_board(0, Some(mode))
    }

    fn open_board(&mut self, mode: usize, only: Option<Mode>) -> Vec<Effect> {
        // Another mode keeps the period looked at; from elsewhere, this month's.
        let period = match &self.screen {
            Screen::Boards(b) => b.period,
            _ => Period::Month,
        };
        self.screen = Screen::Boards(Box::new(Browsing {
            mode,
            only,
            period,
            ..Browsing::default()
        }));
        let mode = only.unwrap_or(self.board_modes()[mode]);
        // Its rows play in its language: the list is fetched while they load.
        self.want_list(mode);
        vec![Effect::Request(Request::Board(mode.key(), period))]
    }

    pub(crate) fn boards_key(&mut self, key: Key, unix_ms: u64) -> Vec<Effect> {
        let daily = match &self.screen {
            Screen::Boards(b) => b.daily,
            _ => return vec![],
        };
        // A daily's board has keys of its own; on any other, `j` opens today's daily's.
        match daily {
            Some(number) => {
                if let Some(fx) = self.daily_board_key(number, key, unix_ms) {
                    return fx;
                }
            }
            None if key == Key::Char('j') => {
                let today = self.today(unix_ms);
                return self.open_daily_board(today);
            }
            None => {}
        }
        let Screen::Boards(b) = &mut self.screen else {
            return vec![];
        };
        let rows = match &b.rows {
            Some(Ok(rows)) => rows.len(),
            _ => 0,
        };
        let (mode, boards, only) = (b.mode, BOARDS, b.only);
        // From a board of its own, the arrows go to the first of the others.
        let (left, right) = match b.only {
            Some(_) => (0, 0),
            None => ((mode + boards - 1) % boards, (mode + 1) % boards),
        };
        match key {
            Key::Escape | Key::Char('b') => self.screen = Screen::Menu,
            Key::Left => return self.open_boards(left),
            Key::Right | Key::Tab => return self.open_boards(right),
            Key::Char('p') => {
                let all = Period::ALL;
                let next = all.iter().position(|&p| p == b.period).map_or(0, |i| i + 1);
                b.period = all[next % all.len()];
                return self.open_board(mode, only);
            }
            // The picked row's player: their profile, and esc comes back here.
            Key::Char('o') => {
                if let Some(Ok(rows)) = &b.rows
                    && let Some(row) = rows.get(b.row)
                {
                    let name = row.name.clone();
                    let board = b.clone();
                    return self.open_profile(name, Some(board));
                }
            }
            Key::Up => b.row = b.row.saturating_sub(1),
            Key::Down if rows > 0 => b.row = (b.row + 1).min(rows - 1),
            Key::Enter | Key::Char('g') => {
                if let Some(Ok(rows)) = &b.rows
                    && let Some(row) = rows.get(b.row)
                {
                    let (id, name) = (row.run.clone(), row.name.clone());
                    let race = key == Key::Char('g');
                    if !race {
                        // The board alone is copied: a clone of any screen would take its
                        // rounds' code into the wasm too.
                        self.list = Some(Screen::Boards(b.clone()));
                    }
                    return self.fetch_run(&id, &name, race);
                }
            }
            _ => {}
        }
        vec![]
    }

    /// The server's answer to [`Request::Board`].
    pub(crate) fn board_loaded(
        &mut self,
        mode: &str,
        period: Period,
        rows: Result<Vec<BoardRow>, Failure>,
    ) {
        let modes = self.board_modes();
        if let Screen::Boards(b) = &mut self.screen
            && b.only.unwrap_or(modes[b.mode]).key() == mode
            && b.period == period
        {
            b.rows = Some(rows.map_err(|e| e.to_string()));
            b.row = 0;
        }
    }

    pub(crate) fn fetch_run(&mut self, id: &str, who: &str, race: bool) -> Vec<Effect> {
        // A board row or a link from elsewhere: anything but a run id would name another URL.
        if !typepper_api::is_run_id(id) {
            let why = Failure::NotARunId(id.to_owned());
            return vec![Effect::Warn(format!("run {id} can't be played: {why}"))];
        }
        self.pending = Some(Pending {
            id: id.to_owned(),
            who: who.to_owned(),
            race,
        });
        vec![Effect::Request(Request::Run(id.to_owned()))]
    }

    /// The server's answer to [`Request::Run`] for run `id`: watched or raced, as it
    /// was asked for. An answer nobody waits for any more is dropped.
    pub(crate) fn run_loaded(
        &mut self,
        id: &str,
        bytes: Result<Vec<u8>, Failure>,
        now: f64,
    ) -> Vec<Effect> {
        let Some(pending) = self.pending.take_if(|p| p.id == id) else {
            return vec![];
        };
        let opened = bytes.map_err(|e| e.to_string()).and_then(|b| {
            if pending.race {
                self.race_bytes(&b, Some(pending.who))
            } else {
                self.watch_bytes(&b, Some(pending.who), now)
            }
        });
        match opened {
            Ok(()) => vec![],
            Err(why) => vec![Effect::Warn(format!("run {id} can't be played: {why}"))],
        }
    }

    pub(crate) fn boards_model(&self, b: &Browsing) -> Boards {
        let mode = match b.daily {
            Some(_) => Mode::BLITZ_30,
            None => b.only.unwrap_or(self.board_modes()[b.mode]),
        };
        let (rows, say) = match &b.rows {
            None => (vec![], Some(("loading…".into(), Tone::Dim))),
            Some(Err(e)) => (vec![], Some((e.clone(), Tone::Wrong))),
            Some(Ok(rows)) => (
                rows.iter()
                    .map(|r| BoardLine {
                        rank: r.rank,
                        medal: Tone::rank(r.rank),
                        name: r.name.clone(),
                        score: format!("{} {}", r.score, mode.unit()),
                        accuracy: format!("{}%", Decimal((r.accuracy * 100.0).round() as u32)),
                    })
                    .collect(),
                rows.is_empty().then(|| {
                    let when = match b.period {
                        _ if b.daily.is_some() => String::new(),
                        Period::All => String::new(),
                        p => format!(" {}", p.label()),
                    };
                    (format!("no runs{when} yet: be the first"), Tone::Dim)
                }),
            ),
        };
        if let Some(number) = b.daily {
            return Boards {
                title: "boards",
                mode,
                picker: ["‹ ", &typepper_api::daily::name(number), " ›"].concat(),
                caption: daily_caption(number, b.seed.is_some()),
                rows,
                say,
                selected: b.row,
            };
        }
        Boards {
            title: "boards",
            mode,
            picker: format!("‹ {mode} ›"),
            // Each player's best of the period, which starts in UTC (the server's): a
            // player far from it is told where. Short, to fit beside the picker at 40
            // columns.
            caption: match b.period {
                Period::Day => "today's bests · from 00:00 UTC",
                Period::Week => "this week's bests · from Monday, UTC",
                Period::Month => "this month's bests · UTC",
                Period::All => "all-time bests",
            }
            .into(),
            rows,
            say,
            selected: b.row,
        }
    }

    pub(crate) fn boards_screen(&self, b: &Browsing, notice: Option<(String, Tone)>) -> Model {
        let rows = matches!(&b.rows, Some(Ok(rows)) if !rows.is_empty());
        // Today's daily's rounds are kept from view until the day is over.
        let (hints, taps): (_, &'static [Tap]) = match (b.daily, b.seed, rows) {
            (Some(_), Some(_), true) => (
                "←→ day · ↑↓ pick · enter watch · g race · o player · j play it · esc menu",
                &[PLAY_DAILY, PLAYER, BACK],
            ),
            (Some(_), None, true) => (
                "←→ day · ↑↓ pick · o player · j play it · esc menu",
                &[PLAY_DAILY, PLAYER, BACK],
            ),
            (Some(_), _, false) => ("←→ day · j play it · esc menu", &[PLAY_DAILY, BACK]),
            (None, _, true) => (
                "←→ mode · p period · j daily · ↑↓ pick · enter watch · g race · o player · esc menu",
                &[PERIOD, DAILY, PLAYER, BACK],
            ),
            (None, _, false) => (
                "←→ mode · p period · j daily · esc menu",
                &[PERIOD, DAILY, BACK],
            ),
        };
        Model {
            kind: Kind::Boards,
            banner: None,
            notice,
            hints,
            taps,
            body: Body::Boards(self.boards_model(b)),
        }
    }
}

/// What a daily's board is: each player's first try of that day, which is over or ends
/// at 00:00 UTC.
fn daily_caption(number: u32, over: bool) -> String {
    let day = typepper_api::Utc::of(typepper_api::daily::starts_ms(number)).day();
    match over {
        true => ["first tries · ", &day, " UTC"].concat(),
        false => "today's first tries · ends 00:00 UTC".into(),
    }
}
