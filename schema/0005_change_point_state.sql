-- perflab schema, version 5 (issue 17): change points are re-checked by
-- every full re-run of the detection. 'candidate': found by the last run
-- only; 'confirmed': found again by a later run (only these alert);
-- 'retracted': a later run no longer finds it. Rows from before stay
-- 'confirmed' (they were alerted on already).
ALTER TABLE change_points ADD COLUMN state TEXT NOT NULL DEFAULT 'confirmed'
	CHECK (state IN ('candidate', 'confirmed', 'retracted'));
