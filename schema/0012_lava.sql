-- perflab schema, version 12: LAVA labs (daemon/lab/lava.h). A lab binds
-- a host label to a LAVA instance: perflabd runs the label's jobs there
-- through a host of its own (hosts.name = lava_labs.name, backend
-- lava_labs.backend), one LAVA job per perflab job. The LAVA token stays
-- in its file (token_file); only the path is stored.
CREATE TABLE lava_labs (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE,               -- the perflab host it drives
	label TEXT NOT NULL,                     -- host label bound to LAVA
	url TEXT NOT NULL,                       -- LAVA's base URL
	token_file TEXT NOT NULL,                -- LAVA API token, read when used
	device_type TEXT NOT NULL,
	backend TEXT NOT NULL,                   -- what experiments name
	tags TEXT NOT NULL DEFAULT '[]',         -- LAVA tags pinning the device
	template TEXT NOT NULL,                  -- job definition template (JSON)
	vars TEXT NOT NULL DEFAULT '{}',         -- admin's template variables
	callback_url TEXT,                       -- perflabd as LAVA reaches it
	poll_seconds INTEGER NOT NULL DEFAULT 60,
	host_id INTEGER NOT NULL REFERENCES hosts(id),
	enabled INTEGER NOT NULL DEFAULT 1,
	created_at INTEGER NOT NULL
);

-- One row per LAVA job perflab submitted (a perflab job's attempt).
CREATE TABLE lava_jobs (
	id INTEGER PRIMARY KEY,
	lab_id INTEGER NOT NULL REFERENCES lava_labs(id),
	job_id INTEGER NOT NULL REFERENCES jobs(id),
	attempt INTEGER NOT NULL,
	lease_token TEXT NOT NULL,               -- the perflab lease it holds
	token_hash TEXT NOT NULL,                -- sha256 of its callback/file token
	lava_id INTEGER,                         -- LAVA's job id once submitted
	image_key TEXT,                          -- the kernel build it boots
	state TEXT NOT NULL DEFAULT 'submitting'
		CHECK (state IN ('submitting', 'submitted', 'fetching', 'done',
				 'failed', 'cancelled')),
	lava_state TEXT,                         -- LAVA's state and health
	lava_health TEXT,
	definition TEXT,                         -- as submitted, token redacted
	outcome TEXT,                            -- 'result' or the failure reason
	message TEXT,
	callbacks INTEGER NOT NULL DEFAULT 0,    -- callbacks received
	submitted_at INTEGER,
	polled_at INTEGER,
	finished_at INTEGER,
	created_at INTEGER NOT NULL,
	UNIQUE (job_id, attempt)
);
CREATE INDEX lava_jobs_open ON lava_jobs(state) WHERE state IN
	('submitting', 'submitted', 'fetching');
