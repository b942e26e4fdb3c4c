-- A live room's seed, held while the room races on it: a submission on it from outside
-- the room is refused until `until_ms`, so that no one who watched the race (every
-- connection receives every racer's keys) can store a copy before the room stores the
-- original. The room moves `until_ms` to the moment its rounds are stored.
CREATE TABLE room_seeds (
    seed      BIGINT PRIMARY KEY,
    until_ms  BIGINT NOT NULL
);
CREATE INDEX room_seeds_until ON room_seeds (until_ms, seed);

-- Which process holds each open room (rooms/relay.rs): written before its code is given
-- out, deleted when it closes. A join for a code no one holds is answered at once.
CREATE TABLE live_rooms (
    code       TEXT   PRIMARY KEY,
    owner      TEXT   NOT NULL,
    opened_ms  BIGINT NOT NULL
);
