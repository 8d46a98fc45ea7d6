-- perflab schema, version 8: git bases, tracks and bisections.
-- A git base is a repository (absolute path or https/git/file URL) and a
-- ref; the daemon keeps a bare mirror of it, runners build exact commits.
-- Tarball bases (Debian's linux-source) keep kind 'tarball' and no url.
ALTER TABLE bases ADD COLUMN kind TEXT NOT NULL DEFAULT 'tarball'
	CHECK (kind IN ('tarball', 'git'));
ALTER TABLE bases ADD COLUMN url TEXT;

-- The commit a variant builds (40 hex): the experiment's commit unless
-- the variant names another one. NULL for tarball bases.
ALTER TABLE variants ADD COLUMN base_commit TEXT;
-- The base commit the experiment was submitted against: the ref's head
-- at submission, or the pinned NAME@COMMIT. NULL for tarball bases.
ALTER TABLE experiments ADD COLUMN base_commit TEXT;
-- What the runner reports it built (git rev-parse HEAD); NULL: tarball.
ALTER TABLE runs ADD COLUMN commit_built TEXT;

-- A track: every new head of a ref (every N commits, or on a schedule)
-- becomes one experiment of one variant at that commit; its median is a
-- point of series "track:<label>".
CREATE TABLE tracks (
	id INTEGER PRIMARY KEY,
	label TEXT NOT NULL UNIQUE,
	base_id INTEGER NOT NULL REFERENCES bases(id),
	ref TEXT NOT NULL,
	host_label TEXT,                         -- NULL: any host
	backend TEXT,                            -- NULL: any backend
	bench TEXT NOT NULL,                     -- canonical bench JSON
	runs INTEGER NOT NULL,
	every_commits INTEGER NOT NULL DEFAULT 1, -- 0: schedule only
	every_seconds INTEGER NOT NULL DEFAULT 0, -- 0: on new commits
	cp_min_size INTEGER NOT NULL DEFAULT 3,
	cp_max_p REAL NOT NULL DEFAULT 0.05,
	series_id INTEGER REFERENCES series(id),
	head TEXT,                               -- last head seen
	last_commit TEXT,                        -- last commit queued
	next_run_at INTEGER,                     -- schedule tracks
	polled_at INTEGER,
	poll_error TEXT,
	enabled INTEGER NOT NULL DEFAULT 1,
	created_by INTEGER REFERENCES api_keys(id),
	created_at INTEGER NOT NULL
);

-- One measured commit of a track (its experiment and, once analysed,
-- its series point). Ordered by id = first-parent order of the ref.
CREATE TABLE track_points (
	id INTEGER PRIMARY KEY,
	track_id INTEGER NOT NULL REFERENCES tracks(id),
	commit_sha TEXT NOT NULL,
	subject TEXT NOT NULL DEFAULT '',
	author TEXT NOT NULL DEFAULT '',
	committed_at INTEGER,
	experiment_id INTEGER REFERENCES experiments(id),
	point_id INTEGER REFERENCES series_points(id),
	created_at INTEGER NOT NULL,
	UNIQUE (track_id, commit_sha)
);
CREATE INDEX track_points_experiment ON track_points(experiment_id);

-- A bisection of the first-parent history good..bad of a git base.
CREATE TABLE bisections (
	id INTEGER PRIMARY KEY,
	base_id INTEGER NOT NULL REFERENCES bases(id),
	label TEXT NOT NULL DEFAULT '',
	good TEXT NOT NULL,
	bad TEXT NOT NULL,
	host_label TEXT,
	backend TEXT,
	bench TEXT NOT NULL,
	runs INTEGER NOT NULL,
	commits TEXT NOT NULL DEFAULT '[]',      -- JSON: first-parent good..bad
	state TEXT NOT NULL DEFAULT 'running'
		CHECK (state IN ('running', 'done', 'failed')),
	failure_reason TEXT,
	step_pct REAL,                           -- delta of bad vs good
	culprit TEXT,                            -- commit, NULL until found
	range_lo INTEGER,                        -- done without culprit: first
	range_hi INTEGER,                        --   bad in commits (lo, hi]
	track_id INTEGER REFERENCES tracks(id),
	change_point_id INTEGER REFERENCES change_points(id),
	alert_id INTEGER,                        -- its report's alert (kind 'bisection')
	created_by INTEGER REFERENCES api_keys(id),
	created_at INTEGER NOT NULL,
	finished_at INTEGER
);
CREATE UNIQUE INDEX bisections_change_point ON bisections(change_point_id)
	WHERE change_point_id IS NOT NULL;

-- One step: the experiment of commit_sha against good (the first step
-- measures bad itself). state: queued/running until its experiment is
-- analysed, then done (bad 0/1) or skipped (the commit does not build).
CREATE TABLE bisection_steps (
	id INTEGER PRIMARY KEY,
	bisection_id INTEGER NOT NULL REFERENCES bisections(id),
	idx INTEGER NOT NULL,                    -- position in commits
	commit_sha TEXT NOT NULL,
	subject TEXT NOT NULL DEFAULT '',
	author TEXT NOT NULL DEFAULT '',
	email TEXT NOT NULL DEFAULT '',
	experiment_id INTEGER REFERENCES experiments(id),
	state TEXT NOT NULL DEFAULT 'queued'
		CHECK (state IN ('queued', 'running', 'done', 'skipped')),
	bad INTEGER,
	delta_pct REAL,
	ci_lo REAL,
	ci_hi REAL,
	mde_pct REAL,
	verdict TEXT,
	runs INTEGER,
	created_at INTEGER NOT NULL
);
CREATE INDEX bisection_steps_experiment ON bisection_steps(experiment_id);
CREATE INDEX bisection_steps_bisection ON bisection_steps(bisection_id, id);

