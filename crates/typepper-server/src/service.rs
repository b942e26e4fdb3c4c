//! The service: every operation the server does for a client, typed, whichever door the
//! request came in by. The HTTP routes (the `http` door), `v1` over SSH, the SSH game and
//! the rooms each read their request, call one of these with what it names (a player
//! already found, a mode key, a name), and write out what comes back in their own way.
//!
//! What is decided here, once for every door: the limits (each client's request rate,
//! players linked per address, runs per player, rooms per address), verification off the
//! async workers, what the metrics count, and every refusal, as a [`ServiceError`] whose
//! sentence a door writes out as it is.

mod error;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use typepper_api::Period;
use typepper_api::room::Opened;
use typepper_api::room::ROOM_TEXT_CHARS;
use typepper_engine::Mode;

pub use self::error::ServiceError;
use crate::limit::Hold;
use crate::players::{self, LinkKey, Linked};
use crate::rooms::Target;
use crate::store::{Done, Job, Player, PlayerId, Run, Span, StoreError};
use crate::submit::{self, Judged};
use crate::{Shared, client, secrets, seeds};

/// What a request with no player is told: the HTTP door's way to link a game. (`v1` over
/// SSH, from a guest with no key, is told the same.)
pub(crate) const LINK_FIRST: &str =
    "link the game first: POST /v1/players, then send Authorization: Bearer <token>";

/// What a device its player removed is told.
pub(crate) const REMOVED: &str = "this device was removed from its player: link it again, or \
     enter a code from one of their devices";

/// What a run id that can't be one is told; never said back, as it can hold anything.
const NOT_A_RUN_ID: &str = "no such run: a run id is 8 letters and digits";

impl Shared {
    /// Takes one request from the allowance of the client at `ip`: every request pays
    /// it, whichever door it came in by.
    pub(crate) fn take_request(&self, ip: IpAddr) -> Result<(), ServiceError> {
        self.ip_limit
            .take(&client::bucket(ip), Instant::now())
            .map_err(ServiceError::RateLimited)
    }

    /// Takes one player's linking from the hourly allowance of the client at `ip`, if
    /// its address is known.
    pub(crate) fn take_registration(&self, ip: Option<IpAddr>) -> Result<(), ServiceError> {
        if let Some(ip) = ip {
            self.register_limit
                .take(&client::bucket(ip), Instant::now())
                .map_err(ServiceError::RateLimited)?;
        }
        Ok(())
    }

    /// The player a web token names. A token whose device its player removed is told so.
    pub(crate) async fn player_of_token(&self, token: &str) -> Result<Player, ServiceError> {
        let hash = secrets::token_hash(token.trim());
        if let Some(player) = self.store.player_by_token(hash).await? {
            return Ok(player);
        }
        Err(ServiceError::Unauthorized(
            match self.store.token_removed(hash).await? {
                true => REMOVED,
                false => "that token belongs to no player: link the game again",
            },
        ))
    }

    /// The player an SSH key (its fingerprint) is linked to.
    pub(crate) async fn player_of_key(&self, key: &str) -> Result<Player, ServiceError> {
        self.store
            .player_by_key(key.to_owned())
            .await?
            .ok_or(ServiceError::Unauthorized(
                "this key is not linked to a player: run v1 link <name> first",
            ))
    }

    /// Links a game to a new player called `name`, the game their first device (called
    /// `device`): the player and its token, said this once. The caller has taken the
    /// linking from its client's allowance ([`Shared::take_registration`]).
    pub(crate) async fn link(
        &self,
        name: String,
        device: Option<&str>,
    ) -> Result<typepper_api::Player, ServiceError> {
        let device = typepper_api::devices::device_name(device);
        players::create(&*self.store, name, device, self.now_ms()).await
    }

    /// Links the SSH key `key` as `ask` says: to a new player (taken from the allowance
    /// of the client at `ip`, as [`Shared::link`]) or to the player a web token names.
    pub(crate) async fn link_key(
        &self,
        key: String,
        ask: LinkKey,
        ip: Option<IpAddr>,
    ) -> Result<Linked, ServiceError> {
        let now = self.now_ms();
        let create = async |name| {
            self.take_registration(ip)?;
            // Its token is said to the client, and works as a browser's does.
            let device = "the token v1 link gave".into();
            players::create(&*self.store, name, device, now).await
        };
        players::link_key(&*self.store, key, ask, now, self.config.max_keys, create).await
    }

    /// A seed for `player` to play a ranked round of `mode` on: a mode's key, or a
    /// quote's length (`quote:short@de`), answered with the passage's own mode.
    pub(crate) async fn issue_seed(
        &self,
        player: PlayerId,
        mode: &str,
    ) -> Result<typepper_api::IssuedSeed, ServiceError> {
        if mode == typepper_api::daily::ASK {
            return self.issue_daily(player).await;
        }
        let ask = seeds::Ask::parse(mode).map_err(ServiceError::BadRequest)?;
        let issued = seeds::issue(&*self.store, player, ask, self.now_ms()).await?;
        Ok(typepper_api::IssuedSeed {
            mode: issued.mode,
            seed: issued.seed,
            expires: typepper_api::Utc::of(issued.expires_ms).rfc3339(),
            daily: None,
            unranked: None,
        })
    }

    /// Judges every replay of a submission `body` by `player`, stores the good ones, and
    /// answers a line each (docs/spec/replays.md). Its request `started` then: what is
    /// not being stored within the request's time is not stored at all.
    pub(crate) async fn submit(
        &self,
        player: PlayerId,
        body: bytes::Bytes,
        started: Instant,
    ) -> Result<String, ServiceError> {
        if body.is_empty() {
            return Err(ServiceError::BadRequest(
                "an empty submission: send each replay after its claimed score".into(),
            ));
        }
        // Counting the entries is cheap (nothing is played): a body over the limit, or
        // more runs than the player's rate allows, costs no verification.
        let entries = submit::split(&body).map_err(|submit::TooMany| {
            ServiceError::BadRequest(format!(
                "a submission carries at most {} rounds: send the rest in another",
                submit::MAX_ENTRIES
            ))
        })?;
        self.player_limit
            .take_n(&player, entries.len() as u32, Instant::now())
            .map_err(ServiceError::RateLimited)?;
        drop(entries);
        let judged = self
            .verify(move || judge_body(&body))
            .await
            .map_err(ServiceError::Internal)?;
        let sub = self.submission(player);
        // Not started within the request's time, it is not done at all: nothing is
        // stored that is not answered. Once started it finishes (in milliseconds) and is
        // answered.
        let deadline = started + Duration::from_secs(self.config.request_timeout_secs);
        let done = match self
            .store_judged(submit::job(sub.clone(), judged, deadline))
            .await?
        {
            Ok(done) => done,
            Err(quota) => {
                return Err(ServiceError::Quota(quota, secs_to_tomorrow(sub.now_ms)));
            }
        };
        // Their profile changed: the next asks for it anew.
        self.profiles.forget(player);
        Ok(submit::answer(done, &|id| self.config.share_link(id)))
    }

    /// The run `id`: its replay and its player.
    pub(crate) async fn run(&self, id: &str) -> Result<Arc<Run>, ServiceError> {
        if !typepper_api::is_run_id(id) {
            return Err(not_a_run_id());
        }
        self.find_run(id).await?.ok_or_else(|| {
            ServiceError::NotFound(format!("no run {id}: it never was, or it expired"))
        })
    }

    /// The run with `id`, from memory when it was read lately (or found missing lately).
    pub(crate) async fn find_run(&self, id: &str) -> Result<Option<Arc<Run>>, ServiceError> {
        match self.runs.get(id, Instant::now()) {
            crate::cache::Lookup::Found(run) => return Ok(Some(run)),
            crate::cache::Lookup::Missing => return Ok(None),
            crate::cache::Lookup::Unknown => {}
        }
        let reading = Instant::now();
        let found = self.store.run(id.to_owned()).await;
        self.metrics.db.observe(reading.elapsed());
        match found? {
            Some(run) => Ok(Some(self.runs.put(run, Instant::now()))),
            None => {
                self.runs.missing(id, Instant::now());
                Ok(None)
            }
        }
    }

    /// Run `id`'s card, a PNG: drawn the first time it is asked for, and kept.
    pub(crate) async fn card(&self, id: &str, run: &Run) -> Result<Arc<[u8]>, ServiceError> {
        let (replay, by, at) = (run.played.replay.clone(), run.by(), run.played.created_ms);
        self.draw_card(id, move || crate::card::Card::of(&replay, by, at))
            .await
    }

    /// The card kept as `key` (a run's id, or a profile's `p/<name key>/<rounds>`),
    /// drawn from `card` the first time it is asked for.
    pub(crate) async fn draw_card(
        &self,
        key: &str,
        card: impl FnOnce() -> Option<crate::card::Card> + Send + 'static,
    ) -> Result<Arc<[u8]>, ServiceError> {
        self.cards
            .get_or_draw(key, card)
            .await
            .map_err(|e| match e {
                crate::card::CardError::Busy => {
                    ServiceError::Unavailable("too many cards are being drawn: try again".into(), 1)
                }
                crate::card::CardError::Broken(why) => ServiceError::Internal(why),
            })
    }

    /// The board of `mode` for `period` (`day`, `week`, `month`, `all`; `month` if
    /// `None`), or a `month` (`YYYY-MM`; this month if `None`): the period's best run per
    /// player, top 100.
    pub(crate) async fn board(
        &self,
        mode: &str,
        period: Option<&str>,
        month: Option<String>,
    ) -> Result<typepper_api::Board, ServiceError> {
        let parsed: Mode = mode.parse().map_err(|e: typepper_engine::ModeError| {
            ServiceError::NotFound(format!("no board: {e}"))
        })?;
        if let Some(why) = crate::submit::rank::Unranked::never(parsed) {
            return Err(ServiceError::NotFound(format!(
                "no board for {parsed}: {why}"
            )));
        }
        if let Some(missing) = no_text(parsed) {
            return Err(ServiceError::NotFound(format!("no board: {missing}")));
        }
        let bad = |why: String| Err(ServiceError::BadRequest(why));
        let period = match period.map(|p| (p, Period::parse(p))) {
            None => Period::Month,
            Some((_, Some(period))) => period,
            Some((p, None)) => {
                return bad(format!(
                    "{p:?} is not a period: write day, week, month or all"
                ));
            }
        };
        let now = self.now_ms();
        let month = match month {
            Some(m) if period != Period::Month => {
                return bad(format!(
                    "a month ({m:?}) is a period of its own: leave out period={} or month=",
                    period.name()
                ));
            }
            Some(m) if is_month(&m) => m,
            Some(m) => return bad(format!("{m:?} is not a month: write YYYY-MM")),
            None => crate::month_of(now),
        };
        let span = match (period, period.range(now)) {
            (Period::Month, _) => Span::Month(month.clone()),
            (_, Some((from, until))) => Span::Between(from, until),
            (_, None) => Span::All,
        };
        let rows = self.store.board(parsed.key(), span, 100).await?;
        Ok(typepper_api::Board {
            mode: parsed.key(),
            title: parsed.title(),
            unit: parsed.unit().into(),
            month,
            period: period.name().into(),
            rows: rows.into_iter().map(board_row).collect(),
        })
    }

    /// Opens a live room for `mode`, for the client at `ip`.
    pub(crate) async fn open_room(
        self: &Arc<Self>,
        open: &typepper_api::room::Open,
        ip: IpAddr,
    ) -> Result<Opened, ServiceError> {
        let mode: Mode = open
            .mode
            .parse()
            .map_err(|e| ServiceError::BadRequest(format!("{e}")))?;
        let bad = |why: &str| Err(ServiceError::BadRequest(why.into()));
        match (mode.base() == typepper_engine::Base::Custom, &open.text) {
            (true, None) => {
                return bad(
                    "a custom room needs its text: send {\"mode\": \"custom\", \"text\": \"…\"}",
                );
            }
            (false, Some(_)) => return bad("only a custom room takes a text"),
            (true, Some(text)) if text.chars().count() > ROOM_TEXT_CHARS => {
                let most = typepper_api::profile::grouped(ROOM_TEXT_CHARS as u32);
                return bad(&format!(
                    "a room's text is at most {most} characters: a longer one is a round of your own"
                ));
            }
            // What a submitted custom text must be (NFC, no bidirectional control), or
            // its racers' rounds would be refused when the room stores them.
            (true, Some(text)) => {
                if let Err(why) = crate::submit::kept_text(text) {
                    return bad(&why.to_string());
                }
            }
            _ => {}
        }
        // A quote the corpus lacks would leave the room no text to race on.
        if let Some(missing) = no_text(mode) {
            return bad(&missing);
        }
        crate::rooms::open(self, mode, open.text.as_deref(), ip).await
    }

    /// Lets a connection from `ip` into room `code`: where the room is, and the
    /// connection's place among the rooms' connections, held until it is dropped.
    pub(crate) async fn join_room(
        &self,
        code: &str,
        ip: IpAddr,
    ) -> Result<(Target, Hold<IpAddr>), ServiceError> {
        self.rooms.admit(&self.config, code, ip).await
    }

    /// Runs `judge` (playing rounds and checking them: CPU work) off the async workers,
    /// a few at once, timed for `typepper_verify_seconds`.
    pub(crate) async fn verify(
        &self,
        judge: impl FnOnce() -> Vec<Judged> + Send + 'static,
    ) -> Result<Vec<Judged>, String> {
        let _permit = self.verifying.acquire().await.map_err(|e| e.to_string())?;
        let verifying = Instant::now();
        let judged = tokio::task::spawn_blocking(judge)
            .await
            .map_err(|e| format!("a blocking task failed: {e}"))?;
        self.metrics.verify.observe(verifying.elapsed());
        Ok(judged)
    }

    /// Stores a judged submission in one transaction, timed for `typepper_db_seconds`,
    /// each round counted in `typepper_rounds_total` by what became of it; a quota the
    /// submission would pass comes back as `Ok(Err(why))`.
    pub(crate) async fn store_judged(
        &self,
        job: Job,
    ) -> Result<Result<Vec<Done>, String>, StoreError> {
        let storing = Instant::now();
        let done = self.store.submit(job).await;
        self.metrics.db.observe(storing.elapsed());
        if let Ok(Ok(done)) = &done {
            for outcome in crate::submit::outcomes(done) {
                self.metrics.round(outcome);
            }
        }
        done
    }
}

/// Why this build has no text for `mode`: a quote its corpus doesn't have (a mode's key
/// names any number from 1 to 65,535).
fn no_text(mode: Mode) -> Option<String> {
    let typepper_engine::Base::Quote(n) = mode.base() else {
        return None;
    };
    let language = mode.prose().language;
    let have = typepper_engine::quotes::passages(language).map_or(0, <[_]>::len);
    (usize::from(n.get()) > have)
        .then(|| typepper_engine::PlayError::NoQuote(language, n).to_string())
}

/// A run id that can't be one.
pub(crate) fn not_a_run_id() -> ServiceError {
    ServiceError::NotFound(NOT_A_RUN_ID.into())
}

/// Reads and judges every entry of a body (it was counted before).
fn judge_body(body: &[u8]) -> Vec<Judged> {
    match submit::split(body) {
        Ok(entries) => entries
            .iter()
            .map(|entry| entry.as_ref().map_err(Clone::clone).and_then(submit::judge))
            .collect(),
        Err(submit::TooMany) => vec![Err(submit::Refusal::TooMany)],
    }
}

/// Seconds from `now_ms` to the next midnight, UTC.
fn secs_to_tomorrow(now_ms: i64) -> u64 {
    let day_ms = 86_400_000;
    u64::try_from(day_ms - now_ms.rem_euclid(day_ms)).map_or(1, |ms| ms.div_ceil(1000))
}

/// Whether `m` is a month as the API writes one: `YYYY-MM`.
fn is_month(m: &str) -> bool {
    let b = m.as_bytes();
    b.len() == 7
        && b[4] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || c.is_ascii_digit())
        && matches!(
            &m[5..],
            "01" | "02" | "03" | "04" | "05" | "06" | "07" | "08" | "09" | "10" | "11" | "12"
        )
}

/// A board's row as the API says it.
pub(crate) fn board_row(r: crate::store::BoardRow) -> typepper_api::BoardRow {
    typepper_api::BoardRow {
        rank: r.rank,
        name: r.name,
        score: r.score,
        wpm: f64::from(r.wpm_x100) / 100.0,
        accuracy: f64::from(r.accuracy_x100) / 100.0,
        run: r.run,
        time: typepper_api::Utc::of(r.created_ms).rfc3339(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_and_days_read_as_the_api_writes_them() {
        assert!(is_month("2026-12") && !is_month("2026-13") && !is_month("26-12"));
        assert_eq!(secs_to_tomorrow(1_796_154_720_000), 4 * 3600 + 8 * 60);
        assert_eq!(secs_to_tomorrow(86_400_000), 86_400);
    }
}
