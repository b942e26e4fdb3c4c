-- Guarding the boards: look-alike names, pending and hidden runs, banned players, and
-- fingerprints that know a trimmed or stretched copy.

-- Names that look alike are one name: the key folds case, drops `_` and `-`, and takes
-- look-alike letters as one (typepper_api::name_key spells the same fold). Every key is
-- made unique first, so that no two keys meet while they change; of two names that now
-- fold alike, the older keeps the folded key and the younger keeps a key of its own, which
-- no new name can take.
UPDATE players SET name_key = '#' || id;
UPDATE players SET name_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(name), '_', ''), '-', ''), 'rn', 'm'), 'vv', 'w'), 'cl', 'd'), 'i', 'l'), '1', 'l'), '0', 'o'), '5', 's'), '8', 'b'), '2', 'z'), '9', 'g'), 'q', 'g')
WHERE NOT EXISTS (
    SELECT 1 FROM players older
    WHERE older.id < players.id
      AND replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(older.name), '_', ''), '-', ''), 'rn', 'm'), 'vv', 'w'), 'cl', 'd'), 'i', 'l'), '1', 'l'), '0', 'o'), '5', 's'), '8', 'b'), '2', 'z'), '9', 'g'), 'q', 'g')
        = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(players.name), '_', ''), '-', ''), 'rn', 'm'), 'vv', 'w'), 'cl', 'd'), 'i', 'l'), '1', 'l'), '0', 'o'), '5', 's'), '8', 'b'), '2', 'z'), '9', 'g'), 'q', 'g'));

-- The operator took a player off the boards (`typepper-server ban <name>`).
ALTER TABLE players ADD COLUMN banned INTEGER NOT NULL DEFAULT 0;

-- A ranked run far above its player's record waits here (why, in words) until the
-- player types near it again; NULL when it is not waiting.
ALTER TABLE runs ADD COLUMN pending TEXT;
-- The operator took the run off the boards (`typepper-server hide <run>`).
ALTER TABLE runs ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
CREATE INDEX runs_pending ON runs (player_id) WHERE pending IS NOT NULL;

-- A round's mode and seed, and the chained hashes of its inputs at each block's end:
-- a round that is a prefix of another, on the same text, is found by them. NULL for
-- rounds stored before.
ALTER TABLE rounds ADD COLUMN mode TEXT;
ALTER TABLE rounds ADD COLUMN seed INTEGER;
ALTER TABLE rounds ADD COLUMN prefix BLOB;
CREATE INDEX rounds_seed ON rounds (seed) WHERE seed IS NOT NULL;
