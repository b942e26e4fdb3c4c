-- Players who deleted their account: when (NULL while they are a player). Their runs
-- leave the boards and the links at once; the sweep removes every row of theirs a day
-- later (`rows_gone` once it has), and their own row, which holds the name, 30 days
-- after the deletion: then the name is free again.
ALTER TABLE players ADD COLUMN deleted_ms INTEGER;
ALTER TABLE players ADD COLUMN rows_gone INTEGER NOT NULL DEFAULT 0;
CREATE INDEX players_deleted ON players (deleted_ms) WHERE deleted_ms IS NOT NULL;
