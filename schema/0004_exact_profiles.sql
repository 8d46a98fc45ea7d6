-- perflab schema, version 4: exact profiles (issue 16).
-- Executed instructions counted by the QEMU TCG plugin over the measured
-- window of one run (docs/contracts.md section 1, bench.exact_profile).
-- Counts are exact, so they are kept as integers next to the IO count and
-- divided only when displayed (instructions per IO).
CREATE TABLE exact_profiles (
	run_id INTEGER PRIMARY KEY REFERENCES runs(id),
	kind TEXT NOT NULL CHECK (kind IN ('instructions')),
	source TEXT NOT NULL,                    -- e.g. qemu-tcg-plugin
	ios INTEGER NOT NULL CHECK (ios > 0),    -- IOs of the measured window
	total INTEGER NOT NULL CHECK (total >= 0),
	kernel INTEGER NOT NULL CHECK (kernel >= 0),
	user INTEGER NOT NULL CHECK (user >= 0),
	unattributed INTEGER NOT NULL DEFAULT 0 CHECK (unattributed >= 0)
);

-- Per symbol (the symbols table of the sampled profiles); a symbol named
-- twice in one upload (same-named static functions) is summed.
CREATE TABLE exact_profile_symbols (
	run_id INTEGER NOT NULL REFERENCES exact_profiles(run_id),
	symbol_id INTEGER NOT NULL REFERENCES symbols(id),
	insns INTEGER NOT NULL CHECK (insns >= 0),
	PRIMARY KEY (run_id, symbol_id)
) WITHOUT ROWID;
