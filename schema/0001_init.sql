-- perflab schema, version 1.
-- Applied by perflabd at start inside one transaction; PRAGMA user_version
-- records the last applied migration. Later changes go in 0002_*.sql etc.
-- Nothing is overwritten: a re-run is a new run, a new comparison is a new
-- row (the newest computed_at wins when displaying).
-- Times are UNIX seconds (INTEGER) unless named *_ns.

-- API keys: only a PBKDF2-HMAC-SHA256 hash is stored. The key text is
-- "plk_<prefix>_<secret>"; prefix is a public lookup id so verification
-- is one indexed row, not a scan.
CREATE TABLE api_keys (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE,
	role TEXT NOT NULL CHECK (role IN ('submit', 'admin', 'runner')),
	prefix TEXT NOT NULL UNIQUE,
	salt BLOB NOT NULL,
	hash BLOB NOT NULL,
	iterations INTEGER NOT NULL,
	host_id INTEGER REFERENCES hosts(id),   -- runner keys: bound host
	created_at INTEGER NOT NULL,
	revoked_at INTEGER
);

-- Test hosts, as registered by perflab-runner.
CREATE TABLE hosts (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE,
	backend TEXT NOT NULL,
	labels TEXT NOT NULL DEFAULT '[]',       -- JSON array, see host_labels
	facts TEXT NOT NULL DEFAULT '{}',        -- JSON object as reported
	cpu_model TEXT,
	cpus INTEGER,
	mem_bytes INTEGER,
	kernel TEXT,
	nvme_model TEXT,
	nvme_firmware TEXT,
	poll_ok INTEGER,
	registered_at INTEGER NOT NULL,
	last_seen INTEGER NOT NULL,
	current_job_id INTEGER                   -- job holding the host, or NULL
);

CREATE TABLE host_labels (
	host_id INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
	label TEXT NOT NULL,
	PRIMARY KEY (host_id, label)
) WITHOUT ROWID;
CREATE INDEX host_labels_label ON host_labels(label);

-- Per-host noise calibration (A/A runs): noise and minimum detectable
-- effect for a backend + bench combination at a given run count.
CREATE TABLE host_calibration (
	id INTEGER PRIMARY KEY,
	host_id INTEGER NOT NULL REFERENCES hosts(id),
	backend TEXT NOT NULL,
	bench_key TEXT NOT NULL,                 -- canonical bench params JSON
	metric TEXT NOT NULL DEFAULT 'iops',
	runs INTEGER NOT NULL,
	noise_pct REAL NOT NULL,                 -- stddev of run means, % of mean
	mde_pct REAL NOT NULL,
	experiment_id INTEGER REFERENCES experiments(id),
	computed_at INTEGER NOT NULL
);
CREATE INDEX host_calibration_host ON host_calibration(host_id, backend, bench_key);

-- Kernel trees a variant is built from.
CREATE TABLE bases (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE,
	tree TEXT NOT NULL,                      -- e.g. debian-linux-source-6.1, or a git URL
	ref TEXT NOT NULL DEFAULT '',
	config TEXT NOT NULL DEFAULT 'qemu',     -- kernel-patches/configs/<config>
	created_at INTEGER NOT NULL
);
INSERT INTO bases (name, tree, ref, config, created_at)
	VALUES ('linux-6.1', 'debian-linux-source-6.1', '', 'qemu', 0);

-- One patch of a series, raw text kept verbatim.
CREATE TABLE patches (
	id INTEGER PRIMARY KEY,
	sha256 TEXT NOT NULL UNIQUE,
	subject TEXT NOT NULL DEFAULT '',
	author TEXT NOT NULL DEFAULT '',
	message_id TEXT NOT NULL DEFAULT '',
	date TEXT NOT NULL DEFAULT '',
	raw BLOB NOT NULL,
	submitter_key_id INTEGER REFERENCES api_keys(id),
	created_at INTEGER NOT NULL
);

CREATE TABLE patch_files (
	patch_id INTEGER NOT NULL REFERENCES patches(id) ON DELETE CASCADE,
	idx INTEGER NOT NULL,
	old_path TEXT,
	new_path TEXT,
	hunks INTEGER NOT NULL DEFAULT 0,
	added INTEGER NOT NULL DEFAULT 0,
	removed INTEGER NOT NULL DEFAULT 0,
	binary INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (patch_id, idx)
) WITHOUT ROWID;

CREATE TABLE experiments (
	id INTEGER PRIMARY KEY,
	title TEXT NOT NULL DEFAULT '',
	kind TEXT NOT NULL DEFAULT 'explicit'
		CHECK (kind IN ('patch', 'explicit', 'baseline', 'calibration')),
	submitter_key_id INTEGER REFERENCES api_keys(id),
	state TEXT NOT NULL DEFAULT 'queued'
		CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
	label TEXT,                              -- NULL: any host
	backend TEXT,                            -- NULL: any backend
	base_id INTEGER NOT NULL REFERENCES bases(id),
	config TEXT NOT NULL DEFAULT '',
	bench TEXT NOT NULL,                     -- JSON bench parameters
	runs INTEGER NOT NULL,                   -- planned runs per variant
	max_runs INTEGER NOT NULL,               -- cap when inconclusive
	host_id INTEGER REFERENCES hosts(id),    -- pinned at first claim
	baseline_id INTEGER REFERENCES baselines(id),
	failure_reason TEXT,
	created_at INTEGER NOT NULL,
	started_at INTEGER,
	finished_at INTEGER
);
CREATE INDEX experiments_state ON experiments(state, id);
CREATE INDEX experiments_host ON experiments(host_id, state);

CREATE TABLE variants (
	id INTEGER PRIMARY KEY,
	experiment_id INTEGER NOT NULL REFERENCES experiments(id),
	idx INTEGER NOT NULL,
	name TEXT NOT NULL,
	is_control INTEGER NOT NULL DEFAULT 0,
	cmdline TEXT NOT NULL DEFAULT '',
	setup TEXT NOT NULL DEFAULT '',
	state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'failed')),
	failure_reason TEXT,
	failure_log TEXT,
	UNIQUE (experiment_id, name),
	UNIQUE (experiment_id, idx)
);

CREATE TABLE variant_patches (
	variant_id INTEGER NOT NULL REFERENCES variants(id),
	position INTEGER NOT NULL,
	patch_id INTEGER NOT NULL REFERENCES patches(id),
	PRIMARY KEY (variant_id, position)
) WITHOUT ROWID;

-- Jobs: one per (variant, run_index). seq is the hand-out order within
-- the experiment (interleaved A B B A ...).
CREATE TABLE jobs (
	id INTEGER PRIMARY KEY,
	experiment_id INTEGER NOT NULL REFERENCES experiments(id),
	variant_id INTEGER NOT NULL REFERENCES variants(id),
	run_index INTEGER NOT NULL,
	seq INTEGER NOT NULL,
	state TEXT NOT NULL DEFAULT 'queued'
		CHECK (state IN ('queued', 'claimed', 'running', 'done', 'failed', 'cancelled')),
	attempt INTEGER NOT NULL DEFAULT 0,      -- number of claims so far
	lease_token TEXT,
	lease_host_id INTEGER REFERENCES hosts(id),
	lease_expires INTEGER,
	phase TEXT,
	message TEXT,
	failure_reason TEXT,
	failure_log TEXT,
	created_at INTEGER NOT NULL,
	claimed_at INTEGER,
	finished_at INTEGER,
	UNIQUE (experiment_id, seq)
);
CREATE INDEX jobs_state ON jobs(state, experiment_id, seq);
CREATE INDEX jobs_lease ON jobs(lease_expires) WHERE state IN ('claimed', 'running');

-- Every lease and failure of a job, kept (the job row shows the latest).
CREATE TABLE job_events (
	id INTEGER PRIMARY KEY,
	job_id INTEGER NOT NULL REFERENCES jobs(id),
	attempt INTEGER NOT NULL,
	at INTEGER NOT NULL,
	event TEXT NOT NULL,                     -- claimed, failed, expired, requeued, done, cancelled
	host_id INTEGER REFERENCES hosts(id),
	lease_token TEXT,
	reason TEXT,
	log TEXT
);
CREATE INDEX job_events_job ON job_events(job_id);

-- Kernel builds reported by runners (cache key = base + patch set + config).
CREATE TABLE builds (
	id INTEGER PRIMARY KEY,
	cache_key TEXT NOT NULL,
	host_id INTEGER REFERENCES hosts(id),
	variant_id INTEGER REFERENCES variants(id),
	job_id INTEGER REFERENCES jobs(id),
	cached INTEGER NOT NULL DEFAULT 0,
	seconds REAL,
	log TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL
);
CREATE INDEX builds_key ON builds(cache_key);

-- One row per accepted result upload. Never updated.
CREATE TABLE runs (
	id INTEGER PRIMARY KEY,
	job_id INTEGER NOT NULL REFERENCES jobs(id),
	lease_token TEXT NOT NULL UNIQUE,        -- idempotency key of the upload
	experiment_id INTEGER NOT NULL REFERENCES experiments(id),
	variant_id INTEGER NOT NULL REFERENCES variants(id),
	host_id INTEGER NOT NULL REFERENCES hosts(id),
	run_index INTEGER NOT NULL,
	attempt INTEGER NOT NULL,
	build_id INTEGER REFERENCES builds(id),
	params TEXT NOT NULL DEFAULT '{}',       -- bench params JSON as run
	kernel TEXT NOT NULL DEFAULT '',
	ring_flags TEXT NOT NULL DEFAULT '[]',
	device TEXT NOT NULL DEFAULT '{}',
	warmup INTEGER,
	seconds INTEGER,
	mean REAL,
	median REAL,
	stddev REAL,
	total_ios INTEGER,
	ns_per_io REAL,
	ios_measured INTEGER,
	cpu_user_ns_per_io REAL,
	cpu_sys_ns_per_io REAL,
	boot_log TEXT NOT NULL DEFAULT '',
	build_s REAL,
	boot_s REAL,
	run_s REAL,
	created_at INTEGER NOT NULL
);
CREATE INDEX runs_experiment ON runs(experiment_id, variant_id);

CREATE TABLE samples (
	run_id INTEGER NOT NULL REFERENCES runs(id),
	t INTEGER NOT NULL,
	iops INTEGER NOT NULL,
	ios_per_submit REAL,
	ios_per_reap REAL,
	inflight INTEGER,
	PRIMARY KEY (run_id, t)
) WITHOUT ROWID;

CREATE TABLE profiles (
	run_id INTEGER PRIMARY KEY REFERENCES runs(id),
	event TEXT NOT NULL,
	total INTEGER NOT NULL,
	lost INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE symbols (
	id INTEGER PRIMARY KEY,
	dso TEXT NOT NULL,
	name TEXT NOT NULL,
	UNIQUE (dso, name)
);

CREATE TABLE profile_symbols (
	run_id INTEGER NOT NULL REFERENCES runs(id),
	symbol_id INTEGER NOT NULL REFERENCES symbols(id),
	samples INTEGER NOT NULL,
	PRIMARY KEY (run_id, symbol_id)
) WITHOUT ROWID;

-- Folded callchains (root first, ';'-separated), deduplicated.
CREATE TABLE stacks (
	id INTEGER PRIMARY KEY,
	folded TEXT NOT NULL UNIQUE
);

CREATE TABLE profile_stacks (
	run_id INTEGER NOT NULL REFERENCES runs(id),
	stack_id INTEGER NOT NULL REFERENCES stacks(id),
	samples INTEGER NOT NULL,
	PRIMARY KEY (run_id, stack_id)
) WITHOUT ROWID;

-- Variant vs control results; a recomputation adds a row.
CREATE TABLE comparisons (
	id INTEGER PRIMARY KEY,
	experiment_id INTEGER NOT NULL REFERENCES experiments(id),
	variant_id INTEGER NOT NULL REFERENCES variants(id),
	control_variant_id INTEGER NOT NULL REFERENCES variants(id),
	metric TEXT NOT NULL DEFAULT 'iops',
	verdict TEXT NOT NULL
		CHECK (verdict IN ('regression', 'improvement', 'no change', 'inconclusive')),
	delta_pct REAL,
	ci_low REAL,
	ci_high REAL,
	p_value REAL,
	mde_pct REAL,
	runs INTEGER,
	result TEXT NOT NULL DEFAULT '{}',       -- full JSON result
	computed_at INTEGER NOT NULL
);
CREATE INDEX comparisons_experiment ON comparisons(experiment_id, variant_id, computed_at);

-- Tracked baselines: a base + bench on a host label, re-run on a schedule.
CREATE TABLE baselines (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE,
	base_id INTEGER NOT NULL REFERENCES bases(id),
	label TEXT,
	backend TEXT,
	bench TEXT NOT NULL,
	runs INTEGER NOT NULL DEFAULT 1,
	schedule_seconds INTEGER NOT NULL,
	last_ref TEXT,
	next_run_at INTEGER,
	enabled INTEGER NOT NULL DEFAULT 1,
	created_at INTEGER NOT NULL
);

-- A time series: one metric of one baseline (or imported history) on a host.
CREATE TABLE series (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	baseline_id INTEGER REFERENCES baselines(id),
	host_id INTEGER REFERENCES hosts(id),
	label TEXT,
	metric TEXT NOT NULL DEFAULT 'iops',
	created_at INTEGER NOT NULL,
	UNIQUE (name, metric)
);

CREATE TABLE series_points (
	id INTEGER PRIMARY KEY,
	series_id INTEGER NOT NULL REFERENCES series(id),
	t INTEGER NOT NULL,
	value REAL NOT NULL,
	label TEXT,                              -- commit / ref / free text
	run_id INTEGER REFERENCES runs(id),
	experiment_id INTEGER REFERENCES experiments(id),
	created_at INTEGER NOT NULL
);
CREATE INDEX series_points_series ON series_points(series_id, t);

CREATE TABLE change_points (
	id INTEGER PRIMARY KEY,
	series_id INTEGER NOT NULL REFERENCES series(id),
	point_id INTEGER REFERENCES series_points(id),
	t INTEGER NOT NULL,
	mean_before REAL,
	mean_after REAL,
	delta_pct REAL,
	p_value REAL,
	detected_at INTEGER NOT NULL
);
CREATE INDEX change_points_series ON change_points(series_id, t);

CREATE TABLE alerts (
	id INTEGER PRIMARY KEY,
	kind TEXT NOT NULL CHECK (kind IN ('verdict', 'change_point')),
	state TEXT NOT NULL DEFAULT 'new'
		CHECK (state IN ('new', 'acknowledged', 'investigating', 'invalid', 'fixed', 'wontfix')),
	title TEXT NOT NULL,
	metric TEXT,
	delta_pct REAL,
	experiment_id INTEGER REFERENCES experiments(id),
	comparison_id INTEGER REFERENCES comparisons(id),
	series_id INTEGER REFERENCES series(id),
	change_point_id INTEGER REFERENCES change_points(id),
	host_id INTEGER REFERENCES hosts(id),
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);
CREATE INDEX alerts_state ON alerts(state, created_at);

CREATE TABLE alert_history (
	id INTEGER PRIMARY KEY,
	alert_id INTEGER NOT NULL REFERENCES alerts(id),
	state TEXT NOT NULL,
	who TEXT NOT NULL,                       -- key name
	note TEXT,
	at INTEGER NOT NULL
);
CREATE INDEX alert_history_alert ON alert_history(alert_id);

CREATE TABLE webhooks (
	id INTEGER PRIMARY KEY,
	url TEXT NOT NULL,
	secret TEXT NOT NULL,
	enabled INTEGER NOT NULL DEFAULT 1,
	created_at INTEGER NOT NULL
);

CREATE TABLE deliveries (
	id INTEGER PRIMARY KEY,
	webhook_id INTEGER REFERENCES webhooks(id),
	channel TEXT NOT NULL DEFAULT 'webhook' CHECK (channel IN ('webhook', 'email')),
	alert_id INTEGER NOT NULL REFERENCES alerts(id),
	attempt INTEGER NOT NULL DEFAULT 1,
	status TEXT NOT NULL CHECK (status IN ('pending', 'ok', 'failed')),
	http_status INTEGER,
	error TEXT,
	next_retry_at INTEGER,
	at INTEGER NOT NULL
);
CREATE INDEX deliveries_alert ON deliveries(alert_id);
