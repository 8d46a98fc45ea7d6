-- perflab schema, version 3: the trust model (issue 14, docs/security.md).
-- What a submit key may put on a test host's kernel command line and run
-- as root before the bench is decided by admins, here.

-- Kernel command-line parameters a submit key may use. A pattern is
-- "key=" (that key with any value), "prefix*" (any parameter that starts
-- with prefix, e.g. "null_blk.*") or an exact parameter ("key=value",
-- "flag"). Admin keys are not limited by the list.
CREATE TABLE cmdline_allowlist (
	id INTEGER PRIMARY KEY,
	pattern TEXT NOT NULL UNIQUE,
	note TEXT NOT NULL DEFAULT '',
	created_by INTEGER REFERENCES api_keys(id),  -- NULL: this migration
	created_at INTEGER NOT NULL
);
-- The calibration canary (kernel-patches/0004): ladders and the example
-- series use it from submit keys.
INSERT INTO cmdline_allowlist (pattern, note, created_at)
	VALUES ('perflab_canary=', 'calibration canary (kernel-patches/0004)', 0);

-- Setup scripts an admin stored; a variant names one ("setup_script")
-- and its text is copied into the variant when the experiment is made,
-- so a later edit does not change what a queued experiment runs.
CREATE TABLE setup_scripts (
	name TEXT PRIMARY KEY,
	script TEXT NOT NULL,
	description TEXT NOT NULL DEFAULT '',
	created_by INTEGER REFERENCES api_keys(id),
	updated_at INTEGER NOT NULL
);

-- The stored script a variant's setup came from (NULL: none, or raw
-- setup text from an admin key).
ALTER TABLE variants ADD COLUMN setup_script TEXT;
