-- perflab schema, version 2: dose-response ladder fits (issue 10).
-- A calibration experiment whose variants differ by perflab_canary=N on
-- the kernel command line is fitted as delta % of the metric against N.
CREATE TABLE ladder_fits (
	id INTEGER PRIMARY KEY,
	experiment_id INTEGER NOT NULL REFERENCES experiments(id),
	host_id INTEGER REFERENCES hosts(id),
	metric TEXT NOT NULL,
	slope_pct REAL NOT NULL,                 -- % change of the metric per canary unit
	intercept_pct REAL,
	r2 REAL,
	slope_se REAL,
	mde_units REAL,                          -- the comparison MDE in canary units
	points TEXT NOT NULL DEFAULT '[]',       -- [{"n": N, "delta_pct": d}] one per run
	computed_at INTEGER NOT NULL
);
CREATE INDEX ladder_fits_experiment ON ladder_fits(experiment_id);
