-- Players link a game by name; the token they keep is stored only as its SHA-256.
CREATE TABLE players (
    id          BIGSERIAL PRIMARY KEY,
    name        TEXT   NOT NULL,
    name_key    TEXT   NOT NULL UNIQUE,   -- the name in lower case: names are unique ignoring case
    token_hash  BYTEA  NOT NULL UNIQUE,
    created_ms  BIGINT NOT NULL
);

-- Every verified run, with the server's own numbers beside the replay bytes.
CREATE TABLE runs (
    id             TEXT    PRIMARY KEY,    -- 8 base62 characters
    player_id      BIGINT  NOT NULL REFERENCES players(id),
    mode           TEXT    NOT NULL,       -- Mode::key
    score          INTEGER NOT NULL,       -- the headline number: wpm, or words in HOT PURSUIT
    wpm_x100       INTEGER NOT NULL,
    accuracy_x100  INTEGER NOT NULL,
    duration_ms    BIGINT  NOT NULL,
    created_ms     BIGINT  NOT NULL,
    month          TEXT    NOT NULL,       -- YYYY-MM (UTC) of created_ms
    replay_hash    BYTEA   NOT NULL UNIQUE,-- SHA-256 of the replay: a replay counts once
    replay         BYTEA   NOT NULL
);
CREATE INDEX runs_created ON runs (created_ms);

-- Each player's best run per mode and month: the boards, and the runs retention keeps.
CREATE TABLE bests (
    player_id   BIGINT  NOT NULL REFERENCES players(id),
    mode        TEXT    NOT NULL,
    month       TEXT    NOT NULL,
    run_id      TEXT    NOT NULL,
    score       INTEGER NOT NULL,
    wpm_x100    INTEGER NOT NULL,
    created_ms  BIGINT  NOT NULL,
    PRIMARY KEY (player_id, mode, month)
);
CREATE INDEX bests_board ON bests (mode, month, score DESC, wpm_x100 DESC, created_ms);
CREATE INDEX bests_run ON bests (run_id);

-- Each player's all-time best score per mode, for the `pb` mark; it outlives the runs.
CREATE TABLE pbs (
    player_id  BIGINT  NOT NULL REFERENCES players(id),
    mode       TEXT    NOT NULL,
    score      INTEGER NOT NULL,
    wpm_x100   INTEGER NOT NULL,
    PRIMARY KEY (player_id, mode)
);
