-- perflab schema, version 10: alerts of kind 'bisection' (a bisection
-- found its culprit). The report is built once when the alert is raised
-- (report: JSON {"to", "subject", "in_reply_to", "text", "bisection"}),
-- so retries of its deliveries send the same mail and webhook body.
-- SQLite cannot change a CHECK in place: the alert tables are rebuilt,
-- children first so that no foreign key is ever left dangling.
CREATE TABLE alerts_new (
	id INTEGER PRIMARY KEY,
	kind TEXT NOT NULL CHECK (kind IN ('verdict', 'change_point', 'bisection')),
	state TEXT NOT NULL DEFAULT 'new'
		CHECK (state IN ('new', 'acknowledged', 'investigating', 'invalid', 'fixed', 'wontfix')),
	title TEXT NOT NULL,
	metric TEXT,
	delta_pct REAL,
	experiment_id INTEGER REFERENCES experiments(id),
	comparison_id INTEGER REFERENCES comparisons(id),
	series_id INTEGER REFERENCES series(id),
	change_point_id INTEGER REFERENCES change_points(id),
	host_id INTEGER REFERENCES hosts(id),
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL,
	bisection_id INTEGER,
	report TEXT
);
INSERT INTO alerts_new (id, kind, state, title, metric, delta_pct, experiment_id,
	comparison_id, series_id, change_point_id, host_id, created_at, updated_at)
	SELECT id, kind, state, title, metric, delta_pct, experiment_id,
	comparison_id, series_id, change_point_id, host_id, created_at, updated_at
	FROM alerts;

CREATE TABLE alert_history_new (
	id INTEGER PRIMARY KEY,
	alert_id INTEGER NOT NULL REFERENCES alerts_new(id),
	state TEXT NOT NULL,
	who TEXT NOT NULL,                       -- key name
	note TEXT,
	at INTEGER NOT NULL
);
INSERT INTO alert_history_new SELECT id, alert_id, state, who, note, at
	FROM alert_history;

CREATE TABLE deliveries_new (
	id INTEGER PRIMARY KEY,
	webhook_id INTEGER REFERENCES webhooks(id),
	channel TEXT NOT NULL DEFAULT 'webhook' CHECK (channel IN ('webhook', 'email')),
	alert_id INTEGER NOT NULL REFERENCES alerts_new(id),
	attempt INTEGER NOT NULL DEFAULT 1,
	status TEXT NOT NULL CHECK (status IN ('pending', 'ok', 'failed')),
	http_status INTEGER,
	error TEXT,
	next_retry_at INTEGER,
	at INTEGER NOT NULL
);
INSERT INTO deliveries_new SELECT id, webhook_id, channel, alert_id, attempt,
	status, http_status, error, next_retry_at, at FROM deliveries;

DROP TABLE deliveries;
DROP TABLE alert_history;
DROP TABLE alerts;
-- renaming the parent rewrites the children's REFERENCES alerts_new(id)
ALTER TABLE alerts_new RENAME TO alerts;
ALTER TABLE alert_history_new RENAME TO alert_history;
ALTER TABLE deliveries_new RENAME TO deliveries;
CREATE INDEX alerts_state ON alerts(state, created_at);
CREATE INDEX alert_history_alert ON alert_history(alert_id);
CREATE INDEX deliveries_alert ON deliveries(alert_id);
CREATE INDEX alerts_bisection ON alerts(bisection_id);
