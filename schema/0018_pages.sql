-- perflab schema, version 18: keyset pages of a track's points (issue 34,
-- docs/api.md "Pagination"). A page of GET /api/v1/tracks/{id} and of
-- its series is one search of (track_id, id) from the cursor down; the
-- UNIQUE (track_id, commit_sha) index made that a walk of every point
-- of the track.
CREATE INDEX track_points_track ON track_points(track_id, id);
