-- Boards you can trust: issued seeds, round fingerprints, daily quotas, ranked runs.

-- Seeds the server issued: a ranked round is played on one, by its player, once.
CREATE TABLE seeds (
    seed        INTEGER PRIMARY KEY,       -- the u64's bits as a signed 64-bit integer
    player_id   INTEGER NOT NULL REFERENCES players(id),
    mode        TEXT    NOT NULL,          -- Mode::key it was issued for
    issued_ms   INTEGER NOT NULL,
    expires_ms  INTEGER NOT NULL,
    run_id      TEXT                       -- the run it counted for, once one has
);
CREATE INDEX seeds_player ON seeds (player_id, expires_ms);
CREATE INDEX seeds_expires ON seeds (expires_ms);

-- What makes each stored round itself, kept after its run expires: a copy is known by it.
CREATE TABLE rounds (
    round_key   BLOB    NOT NULL,          -- SHA-256 of mode, seed and the keystrokes
    run_id      TEXT    NOT NULL,
    player_id   INTEGER NOT NULL,
    blocks      BLOB    NOT NULL,          -- how long each block of 16 inputs took (varints)
    created_ms  INTEGER NOT NULL
);
CREATE INDEX rounds_key ON rounds (round_key);

-- Each player's stored runs and bytes per UTC day, for the daily quotas.
CREATE TABLE usage (
    player_id   INTEGER NOT NULL REFERENCES players(id),
    day         TEXT    NOT NULL,          -- YYYY-MM-DD, UTC
    runs        INTEGER NOT NULL,
    bytes       INTEGER NOT NULL,
    PRIMARY KEY (player_id, day)
);

-- A player who ever had a run stored: a name never used may be released.
ALTER TABLE players ADD COLUMN used INTEGER NOT NULL DEFAULT 0;
UPDATE players SET used = 1 WHERE EXISTS (SELECT 1 FROM runs WHERE player_id = players.id);

-- Runs get `unranked`, why a run is not ranked (NULL when it is), and lose `replay_hash`:
-- a round's fingerprint now says what is a copy, whatever its bytes, and the unique index
-- on the hash was a page written for every run. SQLite drops a UNIQUE column only by
-- building the table again. Runs stored before now were played on seeds their players
-- chose, so none of them is ranked: the boards and personal bests start again.
CREATE TABLE runs_new (
    id             TEXT    PRIMARY KEY,    -- 8 base62 characters
    player_id      INTEGER NOT NULL REFERENCES players(id),
    mode           TEXT    NOT NULL,       -- Mode::key
    score          INTEGER NOT NULL,       -- the headline number: wpm, or words in HOT PURSUIT
    wpm_x100       INTEGER NOT NULL,
    accuracy_x100  INTEGER NOT NULL,
    duration_ms    INTEGER NOT NULL,
    created_ms     INTEGER NOT NULL,
    month          TEXT    NOT NULL,       -- YYYY-MM (UTC) of created_ms
    replay         BLOB    NOT NULL,
    unranked       TEXT                    -- why it is not ranked; NULL when it is
);
INSERT INTO runs_new
    SELECT id, player_id, mode, score, wpm_x100, accuracy_x100, duration_ms, created_ms, month,
           replay, 'played before the server issued seeds'
    FROM runs;
DROP TABLE runs;
ALTER TABLE runs_new RENAME TO runs;
CREATE INDEX runs_created ON runs (created_ms);
DELETE FROM bests;
DELETE FROM pbs;
-- The sweep finds monthly bests without it; it was a page written for every new best.
DROP INDEX bests_run;
