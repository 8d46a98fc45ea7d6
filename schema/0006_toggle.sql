-- perflab schema, version 6: toggle experiments (issue 20).
-- One kernel image, variants that differ only by runtime settings
-- (sysctl, sysfs, module parameters), run alternately within one boot.

-- Rounds (one run of every variant) per boot; 0: not a toggle experiment
-- (every run is its own boot). Jobs whose run_index / runs_per_boot is
-- equal are handed to the runner together and run in one boot.
ALTER TABLE experiments ADD COLUMN runs_per_boot INTEGER NOT NULL DEFAULT 0;

-- A toggle variant's runtime settings: JSON object {path: value}, written
-- in this order before each of its runs and read back.
ALTER TABLE variants ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';

-- The boot a run came from (the kernel's random boot_id as the runner read
-- it) and the run's position in that boot (0, 1, ...). NULL: not recorded
-- (runs uploaded before this version, or runners that do not say).
ALTER TABLE runs ADD COLUMN boot_id TEXT;
ALTER TABLE runs ADD COLUMN boot_pos INTEGER;

-- Runtime settings a submit key may use in a toggle experiment: an exact
-- path, or a prefix ending in '*'. Admin keys are not limited by the list
-- (as for cmdline_allowlist, schema 0003); every key is held to the path
-- rules of daemon/toggle.h (/proc/sys/ or /sys/, no "..").
CREATE TABLE setting_allowlist (
	id INTEGER PRIMARY KEY,
	pattern TEXT NOT NULL UNIQUE,
	note TEXT NOT NULL DEFAULT '',
	created_by INTEGER REFERENCES api_keys(id),  -- NULL: this migration
	created_at INTEGER NOT NULL
);
INSERT INTO setting_allowlist (pattern, note, created_at) VALUES
	('/sys/module/perflab/parameters/canary',
	 'runtime canary (kernel-patches/0007)', 0),
	('/proc/sys/kernel/io_uring_iter_save',
	 'seed 001 iov_iter save switch (kernel-patches/0006)', 0);

-- The jobs of one toggle boot are claimed together: each keeps its own
-- lease token (the idempotency key of its result upload) and they share
-- lease_group, so one heartbeat keeps them all and one expiry or failure
-- releases those not yet uploaded. NULL: a job claimed alone.
ALTER TABLE jobs ADD COLUMN lease_group TEXT;
