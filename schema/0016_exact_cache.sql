-- perflab schema, version 16: the cache model of exact profiles (issue 33).
-- With the perflab-insn plugin's cache model on, bench.exact_profile
-- carries the geometry and weights, window totals and per-symbol events
-- (docs/contracts.md section 1). Raw integer counts of the measured
-- window, like the instructions next to them; divided by ios only when
-- displayed. Profiles without the model have no rows here.
CREATE TABLE exact_profile_cache (
	run_id INTEGER PRIMARY KEY REFERENCES exact_profiles(run_id),
	line INTEGER NOT NULL CHECK (line > 0),
	l1i_size INTEGER NOT NULL, l1i_ways INTEGER NOT NULL,
	l1d_size INTEGER NOT NULL, l1d_ways INTEGER NOT NULL,
	ll_size INTEGER NOT NULL, ll_ways INTEGER NOT NULL,
	w_l1_hit INTEGER NOT NULL, w_ll_hit INTEGER NOT NULL,
	w_ram INTEGER NOT NULL,
	data_reads INTEGER NOT NULL CHECK (data_reads >= 0),
	data_writes INTEGER NOT NULL CHECK (data_writes >= 0),
	l1i_misses INTEGER NOT NULL CHECK (l1i_misses >= 0),
	l1d_read_misses INTEGER NOT NULL CHECK (l1d_read_misses >= 0),
	l1d_write_misses INTEGER NOT NULL CHECK (l1d_write_misses >= 0),
	ll_misses INTEGER NOT NULL CHECK (ll_misses >= 0),
	est_cycles INTEGER NOT NULL CHECK (est_cycles >= 0)
);

CREATE TABLE exact_profile_cache_symbols (
	run_id INTEGER NOT NULL REFERENCES exact_profile_cache(run_id),
	symbol_id INTEGER NOT NULL REFERENCES symbols(id),
	data_reads INTEGER NOT NULL CHECK (data_reads >= 0),
	data_writes INTEGER NOT NULL CHECK (data_writes >= 0),
	l1i_misses INTEGER NOT NULL CHECK (l1i_misses >= 0),
	l1d_read_misses INTEGER NOT NULL CHECK (l1d_read_misses >= 0),
	l1d_write_misses INTEGER NOT NULL CHECK (l1d_write_misses >= 0),
	ll_misses INTEGER NOT NULL CHECK (ll_misses >= 0),
	est_cycles INTEGER NOT NULL CHECK (est_cycles >= 0),
	PRIMARY KEY (run_id, symbol_id)
) WITHOUT ROWID;
