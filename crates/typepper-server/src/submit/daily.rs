//! How a round on a daily's seed stands (docs/spec/players.md, "The daily text").

use typepper_api::daily;
use typepper_engine::Score;

use super::Refusal;
use super::rank::{self, Standing, Unranked};
use crate::store::{IssuedSeed, KnownDaily, PlayerId};

/// A daily's try counts for a round that arrives within this long of its first ask: long
/// enough to read the text, type it and send it, too short to rehearse it.
pub const TRY_MS: i64 = 5 * 60_000;

/// Where a round on daily `d`'s seed stands, for `player` at `now_ms`: as a round on a
/// seed issued at their first try would, said as a daily's.
pub fn standing(
    score: &Score,
    d: &KnownDaily,
    player: PlayerId,
    now_ms: i64,
) -> Result<Standing, Refusal> {
    let number = d.number;
    let Some((issued_ms, run)) = &d.tried else {
        return Ok(Standing {
            unranked: Some(Unranked::DailyNotTried { number }),
            uses_seed: false,
        });
    };
    let seed = IssuedSeed {
        seed: d.seed,
        player,
        mode: daily::MODE.into(),
        issued_ms: *issued_ms,
        expires_ms: issued_ms + TRY_MS,
        run: run.clone(),
        room: false,
    };
    let mut standing = rank::standing(score, Some(&seed), false, player, now_ms)?;
    standing.unranked = standing.unranked.map(|why| match why {
        Unranked::SeedUsed { run } => Unranked::DailyTried { number, run },
        Unranked::Expired => Unranked::DailyLate { number },
        other => other,
    });
    Ok(standing)
}
