-- perflab schema, version 9: analysis off the request path.
-- An experiment whose last job finished is marked here and stays
-- 'running'; the daemon's analysis worker (daemon/lab/analysis_worker.h)
-- computes its verdicts, stores them, then clears the mark and sets the
-- state ('done', or still 'running' when the analysis planned more runs).
-- The mark is durable: a daemon stopped before the analysis ran picks it
-- up again when it starts.
ALTER TABLE experiments ADD COLUMN analysis_pending INTEGER NOT NULL DEFAULT 0;
CREATE INDEX experiments_analysis_pending ON experiments(id)
	WHERE analysis_pending != 0;
