-- All-time bests: each player's best ranked run per mode of all time is a `bests` row
-- whose month is `all`. It is on the all-time board, and retention keeps its run as it
-- keeps a monthly best's (a run on any `bests` row is never swept), so a player's best
-- no longer goes with the month. Filled from the runs still kept: a best whose run was
-- swept before now is gone with it (its score lives on in `pbs`, for the `pb` mark).
INSERT INTO bests (player_id, mode, month, run_id, score, wpm_x100, created_ms)
SELECT player_id, mode, 'all', id, score, wpm_x100, created_ms FROM (
    SELECT player_id, mode, id, score, wpm_x100, created_ms,
           row_number() OVER (PARTITION BY player_id, mode
                              ORDER BY score DESC, wpm_x100 DESC, created_ms) AS n
    FROM runs WHERE unranked IS NULL AND pending IS NULL AND NOT hidden
) AS ranked WHERE n = 1;

-- The day's and the week's boards read the runs of a mode in a time range.
CREATE INDEX runs_mode_created ON runs (mode, created_ms);
