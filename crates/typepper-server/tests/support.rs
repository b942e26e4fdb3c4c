//! What the test modules share: a server in this process, and PostgreSQL databases.

pub mod pg;
pub mod running;

/// How many of `keys` (claimed times first) are due at `now` ms after the go: at most a
/// message's worth, as the game sends them, so that a test starved of the processor for
/// a few seconds sends its backlog in several messages rather than one the room refuses.
pub fn due(keys: &[(u32, u32)], now: u32) -> usize {
    keys.iter()
        .take_while(|(t, _)| *t <= now)
        .take(typepper_api::room::MAX_KEYS_PER_MESSAGE)
        .count()
}
