-- Boards you can trust: issued seeds, round fingerprints, daily quotas, ranked runs.

-- Seeds the server issued: a ranked round is played on one, by its player, once.
CREATE TABLE seeds (
    seed        BIGINT  PRIMARY KEY,       -- the u64's bits as a signed 64-bit integer
    player_id   BIGINT  NOT NULL REFERENCES players(id),
    mode        TEXT    NOT NULL,          -- Mode::key it was issued for
    issued_ms   BIGINT  NOT NULL,
    expires_ms  BIGINT  NOT NULL,
    run_id      TEXT                       -- the run it counted for, once one has
);
CREATE INDEX seeds_player ON seeds (player_id, expires_ms);
CREATE INDEX seeds_expires ON seeds (expires_ms);

-- What makes each stored round itself, kept after its run expires: a copy is known by it.
CREATE TABLE rounds (
    round_key   BYTEA   NOT NULL,          -- SHA-256 of mode, seed and the keystrokes
    run_id      TEXT    NOT NULL,
    player_id   BIGINT  NOT NULL,
    blocks      BYTEA   NOT NULL,          -- how long each block of 16 inputs took (varints)
    created_ms  BIGINT  NOT NULL
);
CREATE INDEX rounds_key ON rounds (round_key);

-- Each player's stored runs and bytes per UTC day, for the daily quotas.
CREATE TABLE usage (
    player_id   BIGINT  NOT NULL REFERENCES players(id),
    day         TEXT    NOT NULL,          -- YYYY-MM-DD, UTC
    runs        INTEGER NOT NULL,
    bytes       BIGINT  NOT NULL,
    PRIMARY KEY (player_id, day)
);

-- A player who ever had a run stored: a name never used may be released.
ALTER TABLE players ADD COLUMN used BOOLEAN NOT NULL DEFAULT false;
UPDATE players SET used = true WHERE EXISTS (SELECT 1 FROM runs WHERE player_id = players.id);

-- Why a run is not ranked; NULL when it is.
ALTER TABLE runs ADD COLUMN unranked TEXT;
-- A round's fingerprint now says what is a copy, whatever its bytes; the unique index on
-- the hash was a page written for every run.
ALTER TABLE runs DROP COLUMN replay_hash;

-- Runs stored before now were played on seeds their players chose, so none of them is
-- ranked: the boards and personal bests start again from rounds on issued seeds.
UPDATE runs SET unranked = 'played before the server issued seeds';
DELETE FROM bests;
DELETE FROM pbs;
-- The sweep finds monthly bests without it; it was a page written for every new best.
DROP INDEX bests_run;
