-- A live room's seed, held while the room races on it: a submission on it from outside
-- the room is refused until `until_ms`, so that no one who watched the race (every
-- connection receives every racer's keys) can store a copy before the room stores the
-- original. The room moves `until_ms` to the moment its rounds are stored.
CREATE TABLE room_seeds (
    seed      INTEGER PRIMARY KEY,
    until_ms  INTEGER NOT NULL
);
CREATE INDEX room_seeds_until ON room_seeds (until_ms, seed);
