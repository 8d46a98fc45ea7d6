-- bench/scale-track.sql: one more track on a database bench/scale-fill.sql
-- filled, with a point every commit for a long history (bench/scale.sh).
-- Before .read:
--
--   CREATE TEMP TABLE long_track AS SELECT 10000 AS points;
--
-- The points are commits measured one after the other (first-parent
-- order = id order), each by one of the fill's finished experiments in
-- turn (a track point's experiment is any experiment; the pages read the
-- point and its series value), values with a -5 % step at 70 % and one
-- candidate change point there (a confirmed one would start a
-- bisection, on the tarball base it cannot run).
PRAGMA foreign_keys = ON;
BEGIN;
CREATE TEMP TABLE lt AS SELECT points AS n,
	(SELECT max(id) FROM experiments WHERE state = 'done') AS ne,
	(SELECT coalesce(max(id), 0) FROM series_points) AS p0,
	(SELECT coalesce(max(id), 0) FROM track_points) AS tp0,
	CAST(strftime('%s', 'now') AS INTEGER) - 365 * 86400 AS t0 FROM long_track;
INSERT INTO series (id, name, host_id, label, metric, created_at)
	SELECT 2000, 'track:scale-long', 1001, 'nvme', 'iops', t0 FROM lt;
INSERT INTO tracks (id, label, base_id, ref, host_label, bench, runs, series_id,
		    enabled, created_at)
	SELECT 2000, 'scale-long', 1, 'master', 'nvme', '{}', 5, 2000, 0, t0 FROM lt;
INSERT INTO series_points (id, series_id, t, value, label, experiment_id, created_at)
	WITH RECURSIVE i(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM i
				WHERE i < (SELECT n FROM lt))
	SELECT p0 + i, 2000, t0 + i * 3000,
	       CASE WHEN i > n * 7 / 10 THEN 3325000.0 ELSE 3500000.0 END + (i * 7919) % 5000,
	       printf('%040x', 5000000 + i), 1 + (i * 13) % ne, t0 + i * 3000
	FROM i, lt;
INSERT INTO track_points (id, track_id, commit_sha, subject, author, committed_at,
			  experiment_id, point_id, created_at)
	SELECT tp0 + (sp.id - lt.p0), 2000, sp.label, printf('block: commit %d', sp.id),
	       'A U Thor <a@example.org>', sp.t, sp.experiment_id, sp.id, sp.t
	FROM series_points sp, lt WHERE sp.series_id = 2000;
INSERT INTO change_points (series_id, point_id, t, mean_before, mean_after, delta_pct,
			   p_value, detected_at, state)
	SELECT 2000, p0 + n * 7 / 10 + 1, t0 + (n * 7 / 10 + 1) * 3000, 3502500, 3327500,
	       -5.0, 0.0001, t0, 'candidate' FROM lt;
DROP TABLE lt;
COMMIT;
