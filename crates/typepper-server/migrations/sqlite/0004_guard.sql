-- Guarding the boards: look-alike names, pending and hidden runs, banned players, and
-- fingerprints that know a trimmed or stretched copy.

-- Names that look alike are one name: the key folds case, drops `_` and `-`, and takes
-- look-alike letters as one (typepper_api::name_key spells the same fold, in the same
-- order). Of two names that now fold alike, the older keeps the folded key and the
-- younger keeps a key of its own (`#<id>`), which no new name can take. The folded keys
-- go through an indexed table first: comparing every pair of names would take as long as
-- the square of the players.
CREATE TEMP TABLE folded AS SELECT id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(name), '_', ''), '-', ''), 'i', 'l'), '1', 'l'), '0', 'o'), '5', 's'), '8', 'b'), '2', 'z'), '9', 'g'), 'q', 'g'), 'rn', 'm'), 'vv', 'w'), 'cl', 'd') AS k FROM players;
CREATE INDEX folded_k ON folded (k, id);
UPDATE players SET name_key = '#' || id;
UPDATE players SET name_key = folded.k FROM folded
WHERE folded.id = players.id AND folded.id IN (SELECT min(id) FROM folded GROUP BY k);
DROP TABLE folded;

-- The operator took a player off the boards (`typepper-server ban <name>`).
ALTER TABLE players ADD COLUMN banned INTEGER NOT NULL DEFAULT 0;

-- A player's record, for runs far above it: the best wpm (hundredths) of their runs on
-- the boards, the day it last rose, and what it was before that day began. Within a day a
-- run is judged against the day's start, so a day's runs can't raise the bar for the next.
ALTER TABLE players ADD COLUMN best_x100 INTEGER;
ALTER TABLE players ADD COLUMN best_day TEXT;
ALTER TABLE players ADD COLUMN record_x100 INTEGER;
UPDATE players SET best_x100 = (SELECT max(wpm_x100) FROM pbs WHERE pbs.player_id = players.id);

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
