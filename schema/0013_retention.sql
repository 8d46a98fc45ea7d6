-- perflab schema, version 13: retention (issue 34, daemon/lab/retention.h).
-- After an admin's age (--retention-days) the per-second samples, the
-- folded stacks and all but the top symbols of the profiles of an old
-- experiment's runs are deleted; run values (run_metrics), stored
-- verdicts and the top symbols stay. Never for an experiment that is
-- pinned, or that a track point, bisection step, alert or series point
-- refers to.

-- Kept whole whatever its age (PATCH /api/v1/experiments/{id}).
ALTER TABLE experiments ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
-- When its runs' detail was compacted; NULL: every detail kept.
ALTER TABLE experiments ADD COLUMN compacted_at INTEGER;
ALTER TABLE runs ADD COLUMN compacted_at INTEGER;

-- The retention worker's queue: finished experiments not compacted,
-- oldest first.
CREATE INDEX experiments_retention ON experiments(finished_at)
	WHERE compacted_at IS NULL;
-- What protects an experiment, looked up by experiment.
CREATE INDEX alerts_experiment ON alerts(experiment_id)
	WHERE experiment_id IS NOT NULL;
CREATE INDEX series_points_experiment ON series_points(experiment_id)
	WHERE experiment_id IS NOT NULL;
