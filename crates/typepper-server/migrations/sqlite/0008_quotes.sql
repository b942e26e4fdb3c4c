-- The quotes each player was shown: issued a seed for (POST /v1/seeds with quote:short,
-- …), or stored a round of. A quote's seed is issued only for a passage its player was
-- never shown, so the first try on a passage is the one that ranks (docs/TRUST.md,
-- "Quotes"). Kept for as long as the player is: a passage shown once is shown for good.
CREATE TABLE shown_quotes (
    player_id  INTEGER NOT NULL REFERENCES players(id),
    mode       TEXT    NOT NULL,          -- the quote's Mode::key: quote:137@de
    shown_ms   INTEGER NOT NULL,
    PRIMARY KEY (player_id, mode)
);
