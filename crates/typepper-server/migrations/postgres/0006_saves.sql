-- What the game keeps for a player who plays it over `ssh host` with a key: the entries
-- the browser keeps in localStorage and the terminal game in its data dir (history, the
-- last round, the drill, the outbox), under the same keys, one row each.
CREATE TABLE saves (
    player_id  BIGINT NOT NULL REFERENCES players(id),
    key        TEXT    NOT NULL,
    value      TEXT    NOT NULL,
    saved_ms   BIGINT NOT NULL,
    PRIMARY KEY (player_id, key)
);
