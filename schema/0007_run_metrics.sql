-- perflab schema, version 7: run values per metric.
-- A run's measured values live in one row per metric instead of one
-- column per metric, so a new metric is a row of common/metric_defs.c and
-- no migration. `metric` is a name of that table; `value` keeps the type
-- the bench reported (integer counts stay integers), hence no affinity.
-- Absent values (e.g. ns_per_io of a run without --ios on an old runner)
-- have no row.
CREATE TABLE run_metrics (
	run_id INTEGER NOT NULL REFERENCES runs(id),
	metric TEXT NOT NULL,
	value NOT NULL,
	PRIMARY KEY (run_id, metric)
) WITHOUT ROWID;

-- Today's columns, named as in the metric table (their bench JSON path in
-- the comment). Names are frozen here: this migration describes version 6.
INSERT INTO run_metrics (run_id, metric, value)
	SELECT id, 'iops', mean FROM runs WHERE mean IS NOT NULL;	-- summary.mean
INSERT INTO run_metrics (run_id, metric, value)
	SELECT id, 'iops_median', median FROM runs WHERE median IS NOT NULL;
INSERT INTO run_metrics (run_id, metric, value)
	SELECT id, 'iops_stddev', stddev FROM runs WHERE stddev IS NOT NULL;
INSERT INTO run_metrics (run_id, metric, value)
	SELECT id, 'total_ios', total_ios FROM runs WHERE total_ios IS NOT NULL;
INSERT INTO run_metrics (run_id, metric, value)
	SELECT id, 'ns_per_io', ns_per_io FROM runs WHERE ns_per_io IS NOT NULL;
INSERT INTO run_metrics (run_id, metric, value)
	SELECT id, 'ios_measured', ios_measured FROM runs WHERE ios_measured IS NOT NULL;
INSERT INTO run_metrics (run_id, metric, value)
	SELECT id, 'cpu_user_ns_per_io', cpu_user_ns_per_io FROM runs
	WHERE cpu_user_ns_per_io IS NOT NULL;
INSERT INTO run_metrics (run_id, metric, value)
	SELECT id, 'cpu_sys_ns_per_io', cpu_sys_ns_per_io FROM runs
	WHERE cpu_sys_ns_per_io IS NOT NULL;

-- One place for a value: the columns go (SQLite >= 3.35). warmup and
-- seconds stay in runs: they describe the run, the analysis drops the
-- warm-up seconds by them.
ALTER TABLE runs DROP COLUMN mean;
ALTER TABLE runs DROP COLUMN median;
ALTER TABLE runs DROP COLUMN stddev;
ALTER TABLE runs DROP COLUMN total_ios;
ALTER TABLE runs DROP COLUMN ns_per_io;
ALTER TABLE runs DROP COLUMN ios_measured;
ALTER TABLE runs DROP COLUMN cpu_user_ns_per_io;
ALTER TABLE runs DROP COLUMN cpu_sys_ns_per_io;
