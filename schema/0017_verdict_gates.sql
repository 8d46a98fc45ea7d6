-- perflab schema, version 17 (issue 29): the MDE gate of a track's
-- change points, and tracks moved off the old change-point defaults.

-- Why a confirmed change point was (or was not) bisected: its size
-- against the MDE of the bisection's first step on this host
-- (analysis/bisect.h bisect_gate). NULL until the bisect worker looks;
-- one not bisected is looked at again when its series has more points
-- than bisect_gate_points (the noise and the delta move with them).
ALTER TABLE change_points ADD COLUMN bisect_note TEXT;
ALTER TABLE change_points ADD COLUMN bisect_mde_pct REAL;
ALTER TABLE change_points ADD COLUMN bisect_gate_points INTEGER;

-- Tracks stored with the old defaults (segments of 3 points, p 0.05)
-- confirm about 2 false change points per 1,000 points, each starting a
-- bisection (docs/verdicts.md); the detection defaults are now 5 and
-- 0.001. A row holding exactly 3 / 0.05 took the old defaults, or asked
-- for those very values: the two cannot be told apart, and the cost of
-- a wrong guess is far lower one way (fewer detections on a short track
-- than a bisection per ~500 points of noise), so such tracks move to the
-- new defaults. What they held is kept in detect_migrated_from (shown in
-- the track's JSON as detect.migrated_from); other values stay as asked.
ALTER TABLE tracks ADD COLUMN detect_migrated_from TEXT;
UPDATE tracks SET detect_migrated_from = json_object('min_size', cp_min_size,
	'max_p', cp_max_p, 'schema', 17), cp_min_size = 5, cp_max_p = 0.001
	WHERE cp_min_size = 3 AND cp_max_p = 0.05;

-- How a bisection ended (NULL while running): culprit, range (every
-- commit between skipped), split (a midpoint between both ends: two
-- child bisections, parent_id, one each side), did_not_reproduce (the
-- step between its ends is not significant: no culprit, no mail),
-- unknown, not_confirmed, failed. failure_reason says why for the ones
-- without a culprit.
ALTER TABLE bisections ADD COLUMN outcome TEXT;
ALTER TABLE bisections ADD COLUMN parent_id INTEGER REFERENCES bisections(id);
CREATE INDEX bisections_parent ON bisections(parent_id) WHERE parent_id IS NOT NULL;
UPDATE bisections SET outcome = CASE WHEN culprit IS NOT NULL THEN 'culprit'
	WHEN range_lo IS NOT NULL THEN 'range'
	WHEN failure_reason LIKE 'the step between good and bad did not reproduce%'
	THEN 'did_not_reproduce' WHEN failure_reason LIKE 'unknown:%' THEN 'unknown'
	WHEN failure_reason LIKE 'not confirmed:%' THEN 'not_confirmed'
	ELSE 'failed' END WHERE state != 'running';
-- Bisections that did not reproduce are done, not failed: the lab
-- worked, the step was not there.
UPDATE bisections SET state = 'done' WHERE outcome = 'did_not_reproduce';

-- A step's three-way decision (analysis/bisect.h): good, bad, unknown
-- (more runs, or the cap), between (it split the range), skipped; the
-- first step and a culprit's confirmation: reproduced / not.
ALTER TABLE bisection_steps ADD COLUMN call TEXT;
UPDATE bisection_steps SET call = CASE WHEN state = 'skipped' THEN 'skipped'
	WHEN bad = 1 THEN 'bad' WHEN bad = 0 THEN 'good'
	WHEN verdict = 'unknown' THEN 'unknown' END;
