-- perflab schema, version 15: list watches (issue 32, daemon/lab/watches.h).
-- A watch reads a public-inbox archive with lei, groups the patches
-- posted there into series and tests each complete series as an
-- experiment of the watch's own submit key.

CREATE TABLE watches (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE,
	inbox TEXT NOT NULL,                     -- public-inbox directory (or URL)
	query TEXT NOT NULL,                     -- lei search language
	base_id INTEGER NOT NULL REFERENCES bases(id),
	ref TEXT,                                -- NULL: the base's ref
	key_id INTEGER NOT NULL REFERENCES api_keys(id), -- the submit key
	label TEXT,                              -- host label, NULL: any
	backend TEXT,                            -- NULL: any
	runs INTEGER NOT NULL,
	poll_seconds INTEGER NOT NULL,           -- the timer
	window_seconds INTEGER NOT NULL,         -- lei rt: look-back
	complete_timeout INTEGER NOT NULL,       -- seconds to wait for a series
	mail_no_change INTEGER NOT NULL DEFAULT 0, -- reply also on "no change"
	list_address TEXT,                       -- the list a reply also goes to
	mail_apply_note INTEGER NOT NULL DEFAULT 0, -- a note when it does not apply
	enabled INTEGER NOT NULL DEFAULT 1,
	poll_requested INTEGER NOT NULL DEFAULT 0, -- POST .../poll: at once
	polled_at INTEGER,
	poll_error TEXT,
	created_by INTEGER REFERENCES api_keys(id),
	created_at INTEGER NOT NULL
);

-- A series: the messages of one thread root and version
-- (analysis/mail_series.h). Stored whole or not at all.
CREATE TABLE watch_series (
	id INTEGER PRIMARY KEY,
	watch_id INTEGER NOT NULL REFERENCES watches(id),
	series_key TEXT NOT NULL,                -- "<root>#vN"
	version INTEGER NOT NULL,
	total INTEGER NOT NULL,
	subject TEXT NOT NULL DEFAULT '',        -- cover's, else patch 1's
	norm_subject TEXT NOT NULL DEFAULT '',
	author TEXT NOT NULL DEFAULT '',         -- From's addr-spec
	change_id TEXT,
	base_commit TEXT,                        -- the base-commit: it names
	reply_to TEXT,                           -- cover's Message-ID, else patch 1's
	state TEXT NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting',
		'complete', 'timed_out', 'bad', 'refused', 'queued', 'failed')),
	reason TEXT,
	previous_id INTEGER REFERENCES watch_series(id), -- the version before
	experiment_id INTEGER REFERENCES experiments(id),
	base_used TEXT,                          -- "NAME@sha": base-commit or ref head
	base_how TEXT,                           -- 'base-commit' or 'ref-head'
	first_seen INTEGER NOT NULL,
	updated_at INTEGER NOT NULL,
	UNIQUE (watch_id, series_key)
);

-- Every message a watch read, in the order read: its kind, and the
-- refusal when it was refused (the watch's log).
CREATE TABLE watch_messages (
	id INTEGER PRIMARY KEY,
	watch_id INTEGER NOT NULL REFERENCES watches(id),
	message_id TEXT NOT NULL,                -- "<..>"; "sha256:<hex>" without one
	kind TEXT NOT NULL CHECK (kind IN ('patch', 'cover', 'reply', 'own',
		'refused')),
	subject TEXT NOT NULL DEFAULT '',
	author TEXT NOT NULL DEFAULT '',
	reason TEXT,
	series_id INTEGER REFERENCES watch_series(id),
	idx INTEGER,                             -- m of m/n
	raw BLOB,                                -- patches and covers only
	seen_at INTEGER NOT NULL,
	UNIQUE (watch_id, message_id)
);
CREATE INDEX watch_messages_series ON watch_messages(series_id)
	WHERE series_id IS NOT NULL;
CREATE INDEX watch_series_state ON watch_series(watch_id, state);

-- The reply in a series' thread (lab/watch_reply.h): one per series at
-- most, built when its experiment is analysed; 'withheld' with the
-- reason when it is not sent (no change, rate limit, failed experiment).
CREATE TABLE watch_replies (
	id INTEGER PRIMARY KEY,
	series_id INTEGER NOT NULL UNIQUE REFERENCES watch_series(id),
	thread TEXT NOT NULL,                    -- the thread root
	author TEXT NOT NULL,                    -- the series author's address
	message_id TEXT NOT NULL,                -- the reply's own
	rcpts TEXT NOT NULL DEFAULT '',          -- comma-separated
	mail TEXT,                               -- the whole message
	status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed',
		'withheld')),
	note TEXT,
	attempts INTEGER NOT NULL DEFAULT 0,
	archived INTEGER NOT NULL DEFAULT 0,     -- in --reply-inbox
	at INTEGER NOT NULL
);
CREATE INDEX watch_replies_author ON watch_replies(author, at);
CREATE INDEX watch_replies_thread ON watch_replies(thread, at);
