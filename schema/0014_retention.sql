-- perflab schema, version 14: retention (issue 34, daemon/lab/retention.h).
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

-- The hot reads search, never scan, whatever the lab's age
-- (tests/unit/query-plans.c reads their plans).
-- A variant's runs (the perf diff of one side).
CREATE INDEX runs_variant ON runs(variant_id);
-- A track's bisections (the track page).
CREATE INDEX bisections_track ON bisections(track_id) WHERE track_id IS NOT NULL;

-- Experiments and jobs by state for /metrics, kept by triggers: counting
-- them at scrape time read every job the lab ever ran.
CREATE TABLE state_counts (
	tbl TEXT NOT NULL,                       -- 'experiments' or 'jobs'
	state TEXT NOT NULL,
	n INTEGER NOT NULL,
	PRIMARY KEY (tbl, state)
) WITHOUT ROWID;
INSERT INTO state_counts (tbl, state, n)
	SELECT 'experiments', state, count(*) FROM experiments GROUP BY state;
INSERT INTO state_counts (tbl, state, n)
	SELECT 'jobs', state, count(*) FROM jobs GROUP BY state;
CREATE TRIGGER experiments_count_insert AFTER INSERT ON experiments BEGIN
	INSERT INTO state_counts (tbl, state, n) VALUES ('experiments', NEW.state, 1)
		ON CONFLICT (tbl, state) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER experiments_count_update AFTER UPDATE OF state ON experiments
	WHEN OLD.state IS NOT NEW.state BEGIN
	UPDATE state_counts SET n = n - 1 WHERE tbl = 'experiments' AND state = OLD.state;
	INSERT INTO state_counts (tbl, state, n) VALUES ('experiments', NEW.state, 1)
		ON CONFLICT (tbl, state) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER experiments_count_delete AFTER DELETE ON experiments BEGIN
	UPDATE state_counts SET n = n - 1 WHERE tbl = 'experiments' AND state = OLD.state;
END;
CREATE TRIGGER jobs_count_insert AFTER INSERT ON jobs BEGIN
	INSERT INTO state_counts (tbl, state, n) VALUES ('jobs', NEW.state, 1)
		ON CONFLICT (tbl, state) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER jobs_count_update AFTER UPDATE OF state ON jobs
	WHEN OLD.state IS NOT NEW.state BEGIN
	UPDATE state_counts SET n = n - 1 WHERE tbl = 'jobs' AND state = OLD.state;
	INSERT INTO state_counts (tbl, state, n) VALUES ('jobs', NEW.state, 1)
		ON CONFLICT (tbl, state) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER jobs_count_delete AFTER DELETE ON jobs BEGIN
	UPDATE state_counts SET n = n - 1 WHERE tbl = 'jobs' AND state = OLD.state;
END;
-- Keyset pages of the alert list filtered by state or kind.
CREATE INDEX alerts_state_id ON alerts(state, id);
CREATE INDEX alerts_kind_id ON alerts(kind, id);
