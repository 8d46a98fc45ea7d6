-- bench/scale-fill.sql: a year of a 20-host lab, written straight into a
-- migrated perflab database through its real schema (bench/scale.sh;
-- tests/unit/query-plans.c at a small scale). Before .read, create
--
--   CREATE TEMP TABLE scale AS SELECT 1000 AS experiments,
--          30 AS samples, 100 AS symbols, 2000 AS symtab;
--
-- experiments: how many (2-4 variants of 5-10 runs each, 22.5 runs an
-- experiment on average); samples: per-second samples a run; symbols:
-- profile symbols a run, with shares falling as 1/rank (the top 100 hold
-- about 70 % of the samples, the rest is the long tail); symtab: distinct
-- symbols of the lab. Every 10th experiment is a track's (5 tracks, a
-- point each), every 50th has an alert, the newest 1% are queued.
-- Times: the past 365 days, oldest first.
PRAGMA foreign_keys = ON;
BEGIN;
CREATE TEMP TABLE k AS SELECT experiments AS ne, samples AS ns,
	symbols AS nsym, symtab AS ntab,
	CAST(strftime('%s', 'now') AS INTEGER) - 365 * 86400 AS t0,
	MAX(1, 365 * 86400 / experiments) AS dt,
	experiments - MAX(1, experiments / 100) AS last_done
	FROM scale;

INSERT INTO hosts (id, name, backend, labels, facts, registered_at, last_seen, role)
	WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20)
	SELECT 1000 + i, printf('nvme-%02d', i), 'kexec', '["nvme"]', '{}',
	       (SELECT t0 FROM k), strftime('%s', 'now'), 'test' FROM n;
INSERT INTO host_labels (host_id, label) SELECT id, 'nvme' FROM hosts WHERE id > 1000;

INSERT INTO symbols (id, dso, name)
	WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n
				WHERE i < (SELECT ntab FROM k))
	SELECT 100000 + i, '[kernel.kallsyms]', printf('scale_sym_%05d', i) FROM n;

CREATE TEMP TABLE ex AS
	WITH RECURSIVE n(e) AS (SELECT 1 UNION ALL SELECT e + 1 FROM n
				WHERE e < (SELECT ne FROM k))
	SELECT e, 2 + e % 3 AS nv, 5 + e % 6 AS nr,
	       (SELECT t0 FROM k) + e * (SELECT dt FROM k) AS t,
	       e > (SELECT last_done FROM k) AS queued FROM n;

INSERT INTO experiments (id, title, kind, state, label, backend, base_id, bench,
			 runs, max_runs, host_id, created_at, started_at, finished_at)
	SELECT e, printf('scale experiment %d', e), 'patch',
	       CASE WHEN queued THEN 'queued' ELSE 'done' END, 'nvme', 'kexec', 1,
	       '{"depth":128,"bs":512,"runtime":30}', nr, nr,
	       CASE WHEN queued THEN NULL ELSE 1001 + e % 20 END, t,
	       CASE WHEN queued THEN NULL ELSE t + 60 END,
	       CASE WHEN queued THEN NULL ELSE t + 3600 END FROM ex;

CREATE TEMP TABLE va AS
	WITH RECURSIVE v(e, k) AS (SELECT e, 0 FROM ex UNION ALL
		SELECT v.e, v.k + 1 FROM v JOIN ex ON ex.e = v.e WHERE v.k + 1 < ex.nv)
	SELECT e, k, e * 4 + k AS id FROM v;
INSERT INTO variants (id, experiment_id, idx, name, is_control)
	SELECT id, e, k, CASE k WHEN 0 THEN 'base' ELSE printf('patch%d', k) END,
	       k = 0 FROM va;

CREATE TEMP TABLE jb AS
	WITH RECURSIVE r(e, k, vid, i) AS (SELECT e, k, id, 0 FROM va UNION ALL
		SELECT r.e, r.k, r.vid, r.i + 1 FROM r JOIN ex ON ex.e = r.e
		WHERE r.i + 1 < ex.nr)
	SELECT r.e, r.k, r.vid, r.i, r.vid * 16 + r.i AS id, ex.nv, ex.t, ex.queued
	FROM r JOIN ex ON ex.e = r.e;
INSERT INTO jobs (id, experiment_id, variant_id, run_index, seq, state, attempt,
		  created_at, claimed_at, finished_at)
	SELECT id, e, vid, i, i * nv + k, CASE WHEN queued THEN 'queued' ELSE 'done' END,
	       NOT queued, t, CASE WHEN queued THEN NULL ELSE t + 60 + i * 200 END,
	       CASE WHEN queued THEN NULL ELSE t + 250 + i * 200 END FROM jb;

INSERT INTO runs (id, job_id, lease_token, experiment_id, variant_id, host_id,
		  run_index, attempt, params, kernel, warmup, seconds, created_at)
	SELECT id, id, printf('%032x', id), e, vid, 1001 + e % 20, i, 1,
	       '{"depth":128,"bs":512}', '6.1.0-perflab', 1, (SELECT ns FROM k),
	       t + 250 + i * 200 FROM jb WHERE NOT queued;

INSERT INTO run_metrics (run_id, metric, value)
	SELECT id, 'iops', 3500000.0 + (id * 7919) % 10000 FROM runs WHERE id >= 64;
INSERT INTO run_metrics (run_id, metric, value)
	SELECT id, 'iops_median', 3500000.0 + (id * 7919) % 10000 FROM runs WHERE id >= 64;
INSERT INTO run_metrics (run_id, metric, value)
	SELECT id, 'iops_stddev', 1000.0 + id % 500 FROM runs WHERE id >= 64;
INSERT INTO run_metrics (run_id, metric, value)
	SELECT id, 'total_ios', (3500000.0 + (id * 7919) % 10000) * seconds FROM runs
	WHERE id >= 64;

INSERT INTO samples (run_id, t, iops, ios_per_submit, ios_per_reap, inflight)
	WITH RECURSIVE s(t) AS (SELECT 1 UNION ALL SELECT t + 1 FROM s
				WHERE t < (SELECT ns FROM k))
	SELECT r.id, s.t, 3500000 + (r.id * 31 + s.t * 17) % 20000, 32.0, 31.0, 75
	FROM runs r, s WHERE r.id >= 64;

INSERT INTO profiles (run_id, event, total, lost)
	SELECT id, 'cpu-clock', 150000, 0 FROM runs WHERE id >= 64;
INSERT INTO profile_symbols (run_id, symbol_id, samples)
	WITH RECURSIVE j(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM j
				WHERE j + 1 < (SELECT nsym FROM k))
	SELECT r.id, 100001 + (j.j * 37 + r.id % 11) % (SELECT ntab FROM k),
	       20000 / (j.j + 1) + r.id % 7
	FROM runs r, j WHERE r.id >= 64;

INSERT INTO comparisons (experiment_id, variant_id, control_variant_id, metric,
			 verdict, delta_pct, ci_low, ci_high, p_value, mde_pct,
			 runs, computed_at)
	SELECT va.e, va.id, va.e * 4, 'iops',
	       CASE WHEN va.e % 50 = 0 THEN 'regression' ELSE 'no change' END,
	       CASE WHEN va.e % 50 = 0 THEN -2.5 ELSE 0.1 END, -0.3, 0.4, 0.5, 0.3,
	       ex.nr, ex.t + 3600
	FROM va JOIN ex ON ex.e = va.e WHERE va.k > 0 AND NOT ex.queued;

-- Five tracks, a point for every 10th experiment.
INSERT INTO series (id, name, host_id, label, metric, created_at)
	WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5)
	SELECT 1000 + i, printf('track:scale-%d', i), 1000 + i, 'nvme', 'iops',
	       (SELECT t0 FROM k) FROM n;
-- Disabled: the tarball base has no git to poll.
INSERT INTO tracks (id, label, base_id, ref, host_label, bench, runs, series_id,
		    enabled, created_at)
	SELECT id, substr(name, 7), 1, 'master', 'nvme', '{}', 5, id, 0,
	       (SELECT t0 FROM k) FROM series WHERE id > 1000;
INSERT INTO series_points (id, series_id, t, value, label, experiment_id, created_at)
	SELECT e, 1001 + (e / 10) % 5, t + 3600, 3500000.0 + e % 1000,
	       printf('%040x', e), e, t + 3600 FROM ex WHERE e % 10 = 0 AND NOT queued;
INSERT INTO track_points (track_id, commit_sha, subject, author, committed_at,
			  experiment_id, point_id, created_at)
	SELECT 1001 + (e / 10) % 5, printf('%040x', e), printf('block: change %d', e),
	       'A U Thor <a@example.org>', t, e, e, t FROM ex
	WHERE e % 10 = 0 AND NOT queued;

INSERT INTO alerts (kind, state, title, metric, delta_pct, experiment_id,
		    comparison_id, host_id, created_at, updated_at)
	SELECT 'verdict', CASE WHEN c.experiment_id % 100 = 0 THEN 'acknowledged' ELSE 'new' END,
	       printf('regression in experiment %d', c.experiment_id), 'iops', -2.5,
	       c.experiment_id, c.id, 1001 + c.experiment_id % 20, c.computed_at,
	       c.computed_at
	FROM comparisons c WHERE c.verdict = 'regression'
	AND c.variant_id = c.experiment_id * 4 + 1;

DROP TABLE k;
DROP TABLE ex;
DROP TABLE va;
DROP TABLE jb;
COMMIT;
