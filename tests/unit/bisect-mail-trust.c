// SPDX-License-Identifier: MIT
/*
 * Description: outbound mail in the trust model (issue 27 finding 3),
 * against the SMTP sink of tests/stats/receivers.py (what it received is
 * the reference). A bisection started by a submit key mails the list but
 * not the culprit's author; the same on a base an admin opted in
 * (mail_authors) mails the author; an admin's and a track's bisection
 * mail the author. A second bisection finding the same culprit and
 * metric on the same base sends no second mail to anyone (its alert and
 * webhook are still raised); another metric is another report. One
 * author gets at most CULPRIT_MAILS_PER_DAY reports a day: the next one
 * goes to the list only. Fails on the old code, which mailed the author
 * of every culprit every time.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <curl/curl.h>

#include "daemon/lab/alerts.h"
#include "daemon/lab/bisect_report.h"
#include "daemon/lab/culprit_mail.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "unit/check.h"

static char dir[] = "/tmp/perflab-unit.XXXXXX";
static int nr_mails;

static char *wait_file(const char *name, int tries)
{
	char path[512];
	size_t len;
	char *s = NULL;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	while (tries-- > 0 && !(s = slurp(path, &len)))
		usleep(50000);
	return s;
}

/* A bisection row (started by key @key, or by track @track) and its
 * report raised: the alert id. */
static int64_t raise_one(sqlite3 *db, int64_t id, int64_t base_id,
			 const char *base, int64_t key, int64_t track,
			 char c, const char *email, time_t now)
{
	struct bisect_report_opts o = { "http://lab.test", 1, NULL, NULL };
	char sha[41], js[2048];
	json_t *b;
	int64_t alert;

	memset(sha, c, 40);
	sha[40] = '\0';
	CHECK(db_int(db, -1, "INSERT INTO bisections (id, base_id, good, bad,"
		     " bench, runs, culprit, track_id, created_by, created_at)"
		     " VALUES (?, ?, '1111111111111111111111111111111111111111',"
		     " '2222222222222222222222222222222222222222', '{}', 5,"
		     " NULL, NULLIF(?, 0), NULLIF(?, 0), 1) RETURNING id", 4, id,
		     base_id, track, key) == id, "bisection %lld", (long long)id);
	snprintf(js, sizeof(js),
		 "{\"id\": %lld, \"state\": \"done\", \"base\": \"%s\","
		 " \"good\": \"1111111111111111111111111111111111111111\","
		 " \"bad\": \"2222222222222222222222222222222222222222\","
		 " \"step_pct\": -3.1, \"steps\": [], \"culprit\": {\"commit\":"
		 " \"%s\", \"subject\": \"block: slower\", \"author\": \"A\","
		 " \"email\": \"%s\", \"delta_pct\": -3.0, \"verdict\":"
		 " \"regression\", \"patch_id\": null, \"message_id\": null}}",
		 (long long)id, base, sha, email);
	b = json_loads(js, 0, NULL);
	CHECK(b);
	alert = bisect_report_raise(db, b, &o, now);
	json_decref(b);
	return alert;
}

/* Deliver what is due; the envelope of each new mail appended to @out
 * (one "RCPT TO:<...>" line a recipient, mails separated by "--\n"). */
static int deliver(sqlite3 *db, const struct alerts_smtp *smtp, time_t now,
		   char *out, size_t len)
{
	int before = nr_mails;
	char name[32], *m;

	out[0] = '\0';
	alerts_deliver_channel(db, smtp, "email", now);
	for (;;) {
		snprintf(name, sizeof(name), "mail.%d", nr_mails + 1);
		m = wait_file(name, nr_mails == before ? 20 : 2);
		if (!m)
			break;
		nr_mails++;
		*strstr(m, "\n\n") = '\0';	/* the envelope */
		strncat(out, m, len - strlen(out) - 4);
		strcat(out, "\n--\n");
		free(m);
	}
	return nr_mails - before;
}

int main(void)
{
	char path[512], err[512], url[128], got[8192];
	struct alerts_smtp smtp = { 0 };
	char *port;
	sqlite3 *db;
	pid_t rx;
	int n;

	if (access("/usr/bin/python3", X_OK))
		return printf("python3 is not installed\n"), 77;
	if (!mkdtemp(dir))
		return 77;
	curl_global_init(CURL_GLOBAL_ALL);
	snprintf(path, sizeof(path), "%s/t.db", dir);
	db = db_open(path, err, sizeof(err));
	CHECK(db && db_migrate(db, err, sizeof(err)) > 0, "%s", err);
	if (!db)
		DONE();
	rx = fork();
	if (rx == 0) {
		execl("/usr/bin/python3", "python3", "tests/stats/receivers.py",
		      dir, (char *)NULL);
		_exit(127);
	}
	port = wait_file("smtp.port", 100);
	CHECK(port, "receivers did not start");
	if (!port)
		goto out;
	CHECK(!db_exec(db,
		"INSERT INTO api_keys (id, name, role, prefix, salt, hash,"
		" iterations, created_at) VALUES"
		" (1, 'root', 'admin', 'p1', x'00', x'00', 1, 1),"
		" (2, 'alice', 'submit', 'p2', x'00', x'00', 1, 1);"
		"INSERT INTO bases (id, name, tree, kind, url, mail_authors,"
		" created_at) VALUES (2, 'g', '/r', 'git', '/r', 0, 1),"
		" (3, 'optin', '/r', 'git', '/r', 1, 1);"
		"INSERT INTO tracks (id, label, base_id, ref, bench, runs,"
		" created_by, created_at) VALUES (1, 't', 2, 'master', '{}', 1,"
		" 1, 1);"), "%s", sqlite3_errmsg(db));
	snprintf(url, sizeof(url), "smtp://127.0.0.1:%s", port);
	smtp.url = url;
	smtp.from = "perflab@lab.test";
	smtp.to = "list@lab.test";
	smtp.base_url = "http://lab.test";

	/* a submit key's bisection: the list, not the author */
	CHECK(raise_one(db, 1, 2, "g", 2, 0, 'a', "jane@dev.test", 100) > 0);
	n = deliver(db, &smtp, 100, got, sizeof(got));
	CHECK(n == 1, "%d mails", n);
	CHECK(strstr(got, "RCPT TO:<list@lab.test>"), "%s", got);
	CHECK(!strstr(got, "jane@dev.test"), "submit key mailed the author: %s", got);

	/* the same on an opted-in base: the author too */
	CHECK(raise_one(db, 2, 3, "optin", 2, 0, 'b', "jane@dev.test", 110) > 0);
	n = deliver(db, &smtp, 110, got, sizeof(got));
	CHECK(n == 1 && strstr(got, "RCPT TO:<jane@dev.test>"), "%d: %s", n, got);

	/* an admin's bisection mails the author; a second identical one
	 * (same base, culprit, metric) sends nothing, its alert is raised */
	CHECK(raise_one(db, 3, 2, "g", 1, 0, 'c', "bob@dev.test", 120) > 0);
	n = deliver(db, &smtp, 120, got, sizeof(got));
	CHECK(n == 1 && strstr(got, "RCPT TO:<bob@dev.test>") &&
	      strstr(got, "RCPT TO:<list@lab.test>"), "%d: %s", n, got);
	CHECK(raise_one(db, 4, 2, "g", 1, 0, 'c', "bob@dev.test", 130) > 0,
	      "the repeat still raises its alert");
	n = deliver(db, &smtp, 130, got, sizeof(got));
	CHECK(n == 0, "a second identical bisection sent %d mails: %s", n, got);
	CHECK(db_int(db, -1, "SELECT count(*) FROM deliveries WHERE channel ="
		     " 'email' AND alert_id = (SELECT id FROM alerts WHERE"
		     " bisection_id = 4)", 0) == 0);
	/* ... also when the first one was a submit key's (culprit 'a') */
	CHECK(raise_one(db, 5, 2, "g", 1, 0, 'a', "jane@dev.test", 140) > 0);
	n = deliver(db, &smtp, 140, got, sizeof(got));
	CHECK(n == 0, "repeat of a listed culprit sent %d mails: %s", n, got);

	/* a track's bisection mails the author; per recipient at most
	 * CULPRIT_MAILS_PER_DAY reports a day (the address in any case) */
	for (int i = 0; i < CULPRIT_MAILS_PER_DAY; i++) {
		CHECK(raise_one(db, 10 + i, 2, "g", 0, 1, (char)('d' + i),
				i ? "Carl@Dev.Test" : "carl@dev.test",
				200 + i) > 0);
		n = deliver(db, &smtp, 200 + i, got, sizeof(got));
		CHECK(n == 1 && strcasestr(got, "RCPT TO:<carl@dev.test>"),
		      "track mail %d: %d: %s", i, n, got);
	}
	CHECK(raise_one(db, 20, 2, "g", 0, 1, '9', "carl@dev.test", 300) > 0);
	n = deliver(db, &smtp, 300, got, sizeof(got));
	CHECK(n == 1 && !strcasestr(got, "carl@dev.test") &&
	      strstr(got, "RCPT TO:<list@lab.test>"),
	      "over the limit: %d: %s", n, got);
	/* a day later the author is mailed again */
	CHECK(raise_one(db, 21, 2, "g", 0, 1, '8', "carl@dev.test",
			300 + 86400) > 0);
	n = deliver(db, &smtp, 300 + 86400, got, sizeof(got));
	CHECK(n == 1 && strstr(got, "RCPT TO:<carl@dev.test>"), "%d: %s", n, got);
out:
	kill(rx, SIGTERM);
	waitpid(rx, NULL, 0);
	free(port);
	sqlite3_close(db);
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "cannot remove %s\n", dir);
	}
	DONE();
}
