//! The accessible text mirror of the canvas: what a screen reader says, and what the
//! browser tests read. Pure text from the app's state; the shell puts it in the DOM.

use std::fmt::Write as _;

use typepper_engine::{Mode, Score, Tier};

use crate::app::{App, MENU, Screen};

/// The mirror's fields, each a `[data-mirror=<name>]` element on the page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mirror {
    /// `menu`, `playing`, `replay`, `results` or `history`.
    pub screen: &'static str,
    /// `REPLAY · BLITZ 15s` while watching someone's round, else empty.
    pub banner: String,
    /// The mode, the clock, heat and level.
    pub status: String,
    /// The words still to type, from the current one.
    pub words: String,
    /// What is typed of the current word.
    pub typed: String,
    /// The finished round's stats.
    pub results: String,
    /// The menu's items or the history's rows, one a line, `▸` at the selected one.
    pub list: String,
    /// A notice, such as why a replay was refused.
    pub notice: String,
    /// The finished round's share link, once it has one.
    pub share: String,
}

/// The field names, in the order of [`Mirror::fields`].
pub const FIELDS: [&str; 9] = [
    "screen", "banner", "status", "words", "typed", "results", "list", "notice", "share",
];

impl Mirror {
    /// The fields' texts, in the order of [`FIELDS`].
    pub fn fields(&self) -> [&str; 9] {
        [
            self.screen,
            &self.banner,
            &self.status,
            &self.words,
            &self.typed,
            &self.results,
            &self.list,
            &self.notice,
            &self.share,
        ]
    }
}

/// How many upcoming words the mirror reads out.
const WORDS_AHEAD: usize = 24;

/// The mirror of `app` at `now`.
pub fn mirror(app: &App, now: f64) -> Mirror {
    let mut m = Mirror {
        notice: app.notice.clone().unwrap_or_default(),
        ..Mirror::default()
    };
    match &app.screen {
        Screen::Menu => {
            m.screen = "menu";
            for ((i, item), mode) in MENU.iter().enumerate().zip(app.board_modes()) {
                let mark = if i == app.menu_item { "▸ " } else { "  " };
                let level = if i == 4 {
                    format!(" from lv{}", app.level)
                } else {
                    String::new()
                };
                let ranked = if app.ranked_ready(mode) {
                    " · ranked"
                } else {
                    ""
                };
                let _ = writeln!(m.list, "{mark}{item}{level}{ranked}");
            }
        }
        Screen::History => {
            m.screen = "history";
            if app.history.is_empty() {
                m.list = "no rounds yet".into();
            }
            for (i, e) in app.history.iter().rev().enumerate() {
                let mark = if i == app.history_row { "▸ " } else { "  " };
                let share = e.share.as_deref().unwrap_or("");
                let _ = writeln!(
                    m.list,
                    "{mark}{} · {}{}",
                    date(e.unix_ms),
                    headline(&e.score),
                    spaced(share)
                );
            }
        }
        Screen::Play(session) => {
            let watching = session.watch.is_some();
            m.screen = if watching { "replay" } else { "playing" };
            let mode = session.round.mode();
            if watching {
                m.banner = format!("REPLAY · {mode}");
            }
            let view = session.round.view(app.round_time(now));
            m.status = mode.title();
            match (view.time_left_ms(), view.level()) {
                (Some(left), _) => {
                    let _ = write!(m.status, " · {} s left", left.div_ceil(1000));
                }
                (None, Some(level)) => {
                    let _ = write!(m.status, " · lv{level}");
                }
                _ => {
                    let _ = write!(m.status, " · {} s", view.elapsed_ms() / 1000);
                }
            }
            let _ = write!(m.status, " · heat {} {}", view.heat(), view.tier());
            let current = view.current();
            let words: Vec<&str> = (current..current + WORDS_AHEAD)
                .filter_map(|i| view.word(i).map(|w| w.target()))
                .collect();
            m.words = words.join(" ");
            if let Some(w) = view.word(current) {
                m.typed = w.typed().iter().collect();
            }
        }
        Screen::Results(r) => {
            m.screen = "results";
            if r.watched {
                m.banner = format!("REPLAY · {}", r.score.mode);
            }
            m.results = results(&r.score);
            m.share = r.share.clone().unwrap_or_default();
            if let Some(note) = &r.note {
                m.notice = note.clone();
            }
        }
        Screen::Link {
            name,
            error,
            waiting,
        } => {
            m.screen = "link";
            m.status = match &app.player {
                Some(p) => format!("linked as {}", p.name),
                None => "not linked".into(),
            };
            m.typed = name.clone();
            if let Some(e) = error {
                m.notice = e.clone();
            } else if *waiting {
                m.notice = "linking…".into();
            }
        }
        Screen::Boards(b) => {
            m.screen = "boards";
            let mode = app.board_modes()[b.mode];
            m.status = format!("{mode} · this month");
            match &b.rows {
                None => m.notice = "loading…".into(),
                Some(Err(e)) => m.notice = e.clone(),
                Some(Ok(rows)) if rows.is_empty() => m.list = "no runs this month yet".into(),
                Some(Ok(rows)) => {
                    for (i, r) in rows.iter().enumerate() {
                        let mark = if i == b.row { "▸ " } else { "  " };
                        let _ = writeln!(
                            m.list,
                            "{mark}{} · {} · {} {} · {}%",
                            r.rank,
                            r.name,
                            r.score,
                            mode.unit(),
                            r.accuracy
                        );
                    }
                }
            }
        }
    }
    m
}

/// `92 wpm · BLITZ 15s`, the round's line.
pub fn headline(score: &Score) -> String {
    format!("{} · {}", score.headline(), score.mode)
}

fn spaced(s: &str) -> String {
    if s.is_empty() {
        String::new()
    } else {
        format!(" · {s}")
    }
}

/// Every stat of a score, as one line of text.
pub fn results(s: &Score) -> String {
    let c = s.chars;
    let mut out = format!(
        "{} · wpm {} · raw {} · accuracy {}% · consistency {}% · characters {} correct, {} wrong, {} extra, {} missed · words {} · peak heat {} {}",
        headline(s),
        decimal(s.wpm_x100),
        decimal(s.raw_x100),
        decimal(s.accuracy_x100.into()),
        decimal(s.consistency_x100.into()),
        c.correct,
        c.wrong,
        c.extra,
        c.missed,
        s.words,
        s.peak_heat,
        Tier::of(s.peak_heat),
    );
    if let (Mode::Pursuit(_), Some(level)) = (s.mode, s.level) {
        let _ = write!(out, " · reached lv{level}");
    }
    let _ = write!(
        out,
        " · time {}.{} s",
        s.duration_ms / 1000,
        s.duration_ms % 1000 / 100
    );
    out
}

/// Hundredths as `92.5`, `100`, `86.81`.
pub fn decimal(x100: u32) -> String {
    let whole = x100 / 100;
    match x100 % 100 {
        0 => whole.to_string(),
        f if f % 10 == 0 => format!("{whole}.{}", f / 10),
        f => format!("{whole}.{f:02}"),
    }
}

/// `2026-12-01 19:52` (UTC) for unix milliseconds.
pub fn date(unix_ms: u64) -> String {
    let t = typepper_api::Utc::of(i64::try_from(unix_ms).unwrap_or(i64::MAX));
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}",
        t.year, t.month, t.day, t.hour, t.minute
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_decimals_read_as_people_write_them() {
        assert_eq!(date(0), "1970-01-01 00:00");
        assert_eq!(date(1_796_154_720_000), "2026-12-01 19:52");
        assert_eq!(date(951_782_400_000), "2000-02-29 00:00");
        assert_eq!(decimal(9200), "92");
        assert_eq!(decimal(9250), "92.5");
        assert_eq!(decimal(8681), "86.81");
        assert_eq!(decimal(5), "0.05");
    }

    #[test]
    fn the_menu_mirror_marks_the_selection() {
        let (app, _) = App::new(1, &crate::storage::Stored::default());
        let m = mirror(&app, 0.0);
        assert_eq!(m.screen, "menu");
        assert!(m.list.starts_with("▸ BLITZ 15s\n"));
        assert!(m.list.contains("  HOT PURSUIT from lv7"));
    }
}
