-- Guests: a racer in a live room who never linked a game. Their finished rounds are
-- stored as runs like any other, unranked, each under a player row of its own that no
-- one can act as: no token was ever given out for it, and its name key (`#guest-…`) is
-- one no chosen name can take. Their names are shown as a guest's, so a guest can't pass
-- for the player who holds the name.
ALTER TABLE players ADD COLUMN guest BOOLEAN NOT NULL DEFAULT false;
