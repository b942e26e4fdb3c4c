-- One player on many devices. Each browser or terminal game linked to a player has a
-- token of its own, kept as its hash; a removed device keeps its row, marked, so that its
-- token is told it was removed rather than that it was never known. A player's first
-- device is the token they linked with (`players.token_hash`, which is now only that:
-- a guest's, never given out, is in no device).
CREATE TABLE devices (
    id          BIGSERIAL PRIMARY KEY,
    player_id   BIGINT  NOT NULL REFERENCES players(id),
    token_hash  BYTEA   NOT NULL UNIQUE,
    name        TEXT    NOT NULL,          -- what its player sees it as: Firefox on Linux
    created_ms  BIGINT  NOT NULL,
    removed_ms  BIGINT                     -- when it was removed; NULL while it is the player
);
CREATE INDEX devices_player ON devices (player_id);
INSERT INTO devices (player_id, token_hash, name, created_ms)
    SELECT id, token_hash, 'the first device', created_ms FROM players WHERE NOT guest;

-- The one-time codes a linked device shows to add another: kept as their hash, used once
-- (the row goes when it is), for ten minutes. `asked_by` is the device that asked for it (a
-- device's id, `web-12`, or a key's fingerprint): removing that device voids its codes.
CREATE TABLE device_codes (
    code_hash   BYTEA   PRIMARY KEY,
    player_id   BIGINT  NOT NULL REFERENCES players(id),
    asked_by    TEXT    NOT NULL,
    expires_ms  BIGINT  NOT NULL
);
CREATE INDEX device_codes_player ON device_codes (player_id);
