-- Profiles: a player's rounds and time typed, and their wpm and accuracy over time, read
-- from the rounds rows, which outlive the runs (swept after 8 days). Each round keeps its
-- numbers now; those stored before this migration get them from their run where it is
-- still kept, and count as a round with no numbers where it is not.
ALTER TABLE rounds ADD COLUMN wpm_x100 INTEGER;
ALTER TABLE rounds ADD COLUMN accuracy_x100 INTEGER;
ALTER TABLE rounds ADD COLUMN duration_ms BIGINT;
UPDATE rounds SET wpm_x100 = r.wpm_x100, accuracy_x100 = r.accuracy_x100,
                  duration_ms = r.duration_ms
FROM runs r WHERE r.id = rounds.run_id;
CREATE INDEX rounds_player ON rounds (player_id, created_ms);
