-- perflab schema, version 13: who can make the lab send mail to whom, and
-- who can make it poll a base (docs/security.md).
--
-- A bisection's report mails the culprit commit's author only when an
-- admin or a track started it, or an admin opted the base in
-- (mail_authors = 1). Every mailed report is kept here, one row per
-- (base, culprit, metric): a second bisection finding the same culprit
-- sends no second mail; the rows of one recipient bound its mails a day.
ALTER TABLE bases ADD COLUMN mail_authors INTEGER NOT NULL DEFAULT 0;
CREATE TABLE culprit_mails (
	id INTEGER PRIMARY KEY,
	base_id INTEGER NOT NULL REFERENCES bases(id),
	culprit TEXT NOT NULL,
	metric TEXT NOT NULL,
	bisection_id INTEGER,
	alert_id INTEGER,
	recipient TEXT,                          -- the author; NULL: list only
	at INTEGER NOT NULL,
	UNIQUE (base_id, culprit, metric)
);
CREATE INDEX culprit_mails_recipient ON culprit_mails(recipient, at);

-- A git host's push hook (POST /api/v1/hooks/git) signs its body with
-- this secret (HMAC-SHA256, X-Hub-Signature-256 / X-Perflab-Signature);
-- NULL: the base takes no unsigned hooks, only admin keys.
ALTER TABLE bases ADD COLUMN hook_secret TEXT;
