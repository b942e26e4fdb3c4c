-- SSH keys: over SSH a player is their key, linked to a player like a game on the web.
CREATE TABLE player_keys (
    fingerprint TEXT    PRIMARY KEY,       -- SHA256:<base64> of the public key, as ssh-keygen -l says it
    player_id   INTEGER NOT NULL REFERENCES players(id),
    linked_ms   INTEGER NOT NULL
);
CREATE INDEX player_keys_player ON player_keys (player_id);
