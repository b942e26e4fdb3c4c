-- The daily text: one BLITZ 30s text a UTC day, the same for everyone (docs/spec/players.md, "The daily text").
-- A day's seed is drawn by the first server asked for it that day, so no one knows it
-- before then; every server on the database reads the one drawn.
CREATE TABLE dailies (
    number      INTEGER PRIMARY KEY,       -- #1 is 2026-12-05; one a day after it
    seed        BIGINT  NOT NULL UNIQUE    -- the u64's bits as a signed 64-bit integer
);

-- Each player's first try of each daily: when its seed was shown them, and the run that
-- counted for it. Only that run can rank on the day's board; later tries are unranked.
CREATE TABLE daily_tries (
    number      INTEGER NOT NULL,
    player_id   BIGINT  NOT NULL REFERENCES players(id),
    issued_ms   BIGINT  NOT NULL,
    run_id      TEXT,
    PRIMARY KEY (number, player_id)
);

-- The daily a run was played on, if it was: it never counts for the mode's own boards.
ALTER TABLE runs ADD COLUMN daily INTEGER;
