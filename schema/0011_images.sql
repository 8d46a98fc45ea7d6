-- Build once, test on many hosts (issue 30): the image store, builds in
-- progress, and what each host can build.

-- Kernel images uploaded by the runner that built them. The files live in
-- the image directory (--image-dir) under images/<key>/; a row exists only
-- once they are complete (renamed into place first, then recorded).
CREATE TABLE images (
	key TEXT PRIMARY KEY,                    -- build cache key (kimage_key)
	sha256 TEXT NOT NULL,                    -- manifest digest
	size INTEGER NOT NULL,                   -- bytes of all files
	files TEXT NOT NULL,                     -- JSON [{name, size, sha256}]
	meta TEXT NOT NULL DEFAULT '{}',         -- JSON of the meta file
	host_id INTEGER REFERENCES hosts(id),    -- the uploader's host
	key_id INTEGER REFERENCES api_keys(id),  -- the uploader's key
	created_at INTEGER NOT NULL,
	last_used_at INTEGER NOT NULL            -- upload or claim that named it
) WITHOUT ROWID;
CREATE INDEX images_used ON images(last_used_at);

-- A host building a key: for its own job (job_id, the job's lease is the
-- build's) or as a build task (its own lease). One live row per key.
CREATE TABLE image_builds (
	id INTEGER PRIMARY KEY,
	key TEXT NOT NULL,
	experiment_id INTEGER REFERENCES experiments(id),
	variant_id INTEGER REFERENCES variants(id),
	job_id INTEGER REFERENCES jobs(id),
	host_id INTEGER NOT NULL REFERENCES hosts(id),
	lease_token TEXT,
	lease_expires INTEGER,
	state TEXT NOT NULL DEFAULT 'building'
		CHECK (state IN ('building', 'done', 'failed', 'lost')),
	failure_reason TEXT,
	failure_log TEXT,
	created_at INTEGER NOT NULL,
	finished_at INTEGER
);
CREATE INDEX image_builds_key ON image_builds(key, state);

-- builder | test | any; NULL: a runner from before the image store.
ALTER TABLE hosts ADD COLUMN role TEXT CHECK (role IN ('builder', 'test', 'any'));

-- The config hash a host builds each config fragment with.
CREATE TABLE host_configs (
	host_id INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
	name TEXT NOT NULL,
	hash TEXT NOT NULL,
	PRIMARY KEY (host_id, name)
) WITHOUT ROWID;
