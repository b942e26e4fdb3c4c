//! The daily text (docs/spec/players.md, "The daily text"): one BLITZ 30s text a UTC day for everyone, a
//! first try that ranks on the day's board, and the day's rounds kept from view until it
//! is over (docs/TRUST.md, "The daily text").
//!
//! How it works:
//! 1. A day's seed is drawn from the OS's randomness by the first server asked for it
//!    that day and kept in `dailies`; every server on the database reads that one. Nobody
//!    can know tomorrow's text: it does not exist yet.
//! 2. Asking for it (`POST /v1/seeds {"mode":"daily"}`) is a player's try: the first ask
//!    of the day is written down, and the first round on it that arrives within
//!    `TRY_MS` counts for it (`submit::daily`). A later ask gets the same seed, said to be unranked.
//! 3. A round on a daily's seed is that daily's, whoever plays it and when: it never
//!    counts for BLITZ 30s's own boards, and only a first try goes on the day's board.
//! 4. Until the day is over, its rounds' keys are not served to anyone, nor its seed: a
//!    player who waits sees scores, never how anyone typed.

use std::collections::HashMap;
use std::sync::Mutex;

use typepper_api::Utc;
use typepper_api::daily::{self, Daily, Yours};

use crate::store::{DailyEntry, PlayerId, Run};
use crate::submit::daily::TRY_MS;
use crate::{ServiceError, Shared, secrets};

/// The rows a daily's board shows.
const BOARD_ROWS: u32 = 100;

/// The dailies' seeds this process has read: they never change.
#[derive(Default)]
pub struct Seeds(Mutex<HashMap<u32, u64>>);

impl Seeds {
    fn get(&self, number: u32) -> Option<u64> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&number)
            .copied()
    }

    fn put(&self, number: u32, seed: u64) {
        let mut seeds = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A process that lives for years, or is asked for every past daily, holds a
        // bounded few.
        if seeds.len() >= 64 {
            seeds.clear();
        }
        seeds.insert(number, seed);
    }
}

impl Shared {
    /// The seed of daily `number`, drawn the first time any server is asked for it.
    async fn daily_seed(&self, number: u32) -> Result<u64, ServiceError> {
        if let Some(seed) = self.dailies.get(number) {
            return Ok(seed);
        }
        let mut drawn = [0u8; 8];
        secrets::random(&mut drawn);
        let seed = (self.store)
            .daily_seed(number, u64::from_le_bytes(drawn))
            .await?;
        self.dailies.put(number, seed);
        Ok(seed)
    }

    /// Today's daily for `player` to play: their try, if it is their first.
    pub(crate) async fn issue_daily(
        &self,
        player: PlayerId,
    ) -> Result<typepper_api::IssuedSeed, ServiceError> {
        let now = self.now_ms();
        let number = daily::number(now).ok_or_else(not_yet)?;
        let seed = self.daily_seed(number).await?;
        let tried = self.store.try_daily(number, player, now).await?;
        let unranked = (!tried.first).then(|| {
            let at = Utc::of(tried.issued_ms);
            format!(
                "you tried {} at {:02}:{:02} UTC, and a daily ranks on its first try only: \
                 this round is kept, unranked",
                daily::name(number),
                at.hour,
                at.minute
            )
        });
        Ok(typepper_api::IssuedSeed {
            mode: daily::MODE.into(),
            seed,
            expires: Utc::of(tried.issued_ms + TRY_MS).rfc3339(),
            daily: Some(number),
            unranked,
        })
    }

    /// Daily `number` (today's if `None`) and its board; where `player`'s first try
    /// stands on it, if they are asking. Its seed once its day is over.
    pub(crate) async fn daily(
        &self,
        number: Option<u32>,
        player: Option<PlayerId>,
    ) -> Result<Daily, ServiceError> {
        let now = self.now_ms();
        let today = daily::number(now).ok_or_else(not_yet)?;
        let number = number.unwrap_or(today);
        if number == 0 || number > today {
            return Err(ServiceError::NotFound(format!(
                "{} isn't out: the first was on 2026-12-05, and today's is #{today}",
                daily::name(number)
            )));
        }
        let seed = match number < today {
            true => Some(self.daily_seed(number).await?),
            false => None,
        };
        let (rows, players) = self.store.daily_board(number, BOARD_ROWS).await?;
        let yours = match player {
            Some(player) => self.yours(number, DailyEntry::Of(player)).await?,
            None => None,
        };
        let starts = daily::starts_ms(number);
        Ok(Daily {
            number,
            day: Utc::of(starts).day(),
            ends: Utc::of(starts + 86_400_000).rfc3339(),
            mode: daily::MODE.into(),
            title: format!("{} · BLITZ 30s", daily::name(number)),
            seed,
            players,
            board: rows.into_iter().map(crate::service::board_row).collect(),
            yours,
        })
    }

    /// Where `entry` (a player's first try, or a run) stands on daily `number`'s board.
    async fn yours(&self, number: u32, entry: DailyEntry) -> Result<Option<Yours>, ServiceError> {
        let place = self.store.daily_place(number, entry).await?;
        Ok(place.map(|p| Yours {
            run: p.run,
            score: p.score,
            place: p.place,
            of: p.of,
        }))
    }

    /// The run `id` to be watched or raced: refused while it is a round of today's
    /// daily, whose keys no one sees until the day is over.
    pub(crate) async fn watchable(&self, id: &str) -> Result<std::sync::Arc<Run>, ServiceError> {
        let run = self.run(id).await?;
        if let Some(why) = withheld(&run, self.now_ms()) {
            return Err(ServiceError::Forbidden(why));
        }
        Ok(run)
    }
}

/// What a daily's round is on its day's board, as its card and share page say it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// `daily #312 · 97 wpm · 14th of 2,031`, or `daily #312 · 97 wpm · unranked` for a
    /// round that is not its player's first try on the board.
    pub line: String,
    /// What sets this standing apart from the run's others: `14-2031`, `unranked`.
    pub tag: String,
    /// It changes no more: the day is over, and so are the tries it gave out.
    pub settled: bool,
}

impl Shared {
    /// Where `run` stands, if it is a round of a daily.
    pub(crate) async fn standing(&self, run: &Run) -> Result<Option<Standing>, ServiceError> {
        let Some(number) = run.daily else {
            return Ok(None);
        };
        let entry = DailyEntry::Run(run.played.id.clone());
        let (line, tag) = match self.yours(number, entry).await? {
            // As the results say it.
            Some(p) => (p.line(number), format!("{}-{}", p.place, p.of)),
            None => (
                format!(
                    "{} · {} wpm · unranked",
                    daily::name(number),
                    run.played.score
                ),
                "unranked".into(),
            ),
        };
        let over = daily::starts_ms(number) + 86_400_000 + TRY_MS;
        Ok(Some(Standing {
            line,
            tag,
            settled: self.now_ms() >= over,
        }))
    }

    /// The card of `run`, a daily's round, titled with its `standing`: kept as that
    /// standing's, so that a place that moved is drawn again.
    pub(crate) async fn daily_card(
        &self,
        run: &Run,
        standing: &Standing,
    ) -> Result<std::sync::Arc<[u8]>, ServiceError> {
        let (replay, by, at) = (run.played.replay.clone(), run.by(), run.played.created_ms);
        let title = standing.line.clone();
        let key = [&run.played.id, "/", &standing.tag].concat();
        self.draw_card(&key, move || {
            let card = crate::card::Card::of(&replay, by, at)?;
            Some(crate::card::Card { title, ..card })
        })
        .await
    }
}

/// Why `run`'s keys are not served at `now_ms`, if they are not: it is a round of the
/// daily still on.
pub fn withheld(run: &Run, now_ms: i64) -> Option<String> {
    let number = run.daily?;
    (daily::number(now_ms) == Some(number)).then(|| {
        let left = daily::starts_ms(number) + 86_400_000 - now_ms;
        let (hours, minutes) = (left / 3_600_000, left % 3_600_000 / 60_000);
        format!(
            "run {} is a round of {}, which is on for {hours} h {minutes} min more: its keys \
             are shown once the day is over, at 00:00 UTC, so that nobody types it knowing \
             how anyone else did; its score is on the day's board now",
            run.played.id,
            daily::name(number)
        )
    })
}

/// Before the first daily (a server whose clock is wrong).
fn not_yet() -> ServiceError {
    ServiceError::NotFound("the first daily is on 2026-12-05".into())
}
