// SPDX-License-Identifier: MIT
/*
 * Description: a bisection culprit's report end to end through the alert
 * path, against the local receivers of tests/stats/receivers.py: the
 * alert (kind bisection) is raised once per bisection; the mail reaches
 * the SMTP sink addressed to the commit's author and the configured list
 * (RCPT and To), with the Subject "[perflab] <sha12> <subject>: -3.1% iops
 * regression", a Message-ID, and In-Reply-To/References = the stored
 * patch whose patch-id equals the culprit's (another patch's id does not
 * match); the hostile subject puts no header of its own; the LKP text
 * carries the bench parameters of the culprit experiment; the metric and
 * direction come from its comparison and verdict (ns_per_io: +3.2% is a
 * regression); the webhook
 * event holds the bisection JSON and the report. A culprit whose patch-id
 * matches no stored patch gets no In-Reply-To.
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
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "unit/check.h"

#define PID_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define PID_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

static int calls;

/* Stand-in for git patch-id: the id follows a marker in the text. */
static int fake_patch_id(void *arg, const char *text, size_t len, char out[41])
{
	(void)arg;
	calls++;
	if (memmem(text, len, "canary", 6))
		memcpy(out, PID_A, 41);
	else
		memcpy(out, PID_B, 41);
	return 0;
}

static const char *bisection_json =
	"{\"id\": 5, \"state\": \"done\", \"base\": \"linux-6.1\","
	" \"label\": \"randread\", \"good\": \"1111111111111111111111111111111111111111\","
	" \"bad\": \"2222222222222222222222222222222222222222\", \"step_pct\": -3.1,"
	" \"track_id\": null, \"steps\": ["
	"  {\"commit\": \"2222222222222222222222222222222222222222\", \"subject\": \"end\","
	"   \"state\": \"done\", \"runs\": 3, \"delta_pct\": -3.1, \"ci_lo\": -3.2,"
	"   \"ci_hi\": -3.0, \"mde_pct\": 0.1, \"verdict\": \"regression\", \"bad\": true},"
	"  {\"commit\": \"3333333333333333333333333333333333333333\", \"subject\": \"broken\","
	"   \"state\": \"skipped\", \"runs\": 0, \"bad\": null}],"
	" \"culprit\": {\"commit\": \"4444444444444444444444444444444444444444\","
	"  \"subject\": \"block: canary on\\r\\nBcc: evil@x\", \"author\": \"Jane Dev\","
	"  \"email\": \"jane@dev.test\", \"delta_pct\": -3.07, \"ci_lo\": -3.12,"
	"  \"ci_hi\": -3.02, \"mde_pct\": 0.07, \"verdict\": \"regression\","
	"  \"experiment_id\": 1, \"patch_id\": \"" PID_A "\", \"message_id\": null}}";

static char *wait_file(const char *dir, const char *name, int tries)
{
	char path[512];
	size_t len;
	char *s = NULL;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	while (tries-- > 0 && !(s = slurp(path, &len)))
		usleep(50000);
	return s;
}

int main(void)
{
	char dir[] = "/tmp/perflab-unit.XXXXXX", path[512], err[512], url[128];
	struct bisect_report_opts o = { "http://lab.test", 1, fake_patch_id, NULL };
	struct alerts_smtp smtp = { 0 };
	char *port, *hport, *mail, *hook;
	json_t *b;
	sqlite3 *db;
	int64_t id;
	pid_t rx;

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
	port = wait_file(dir, "smtp.port", 100);
	hport = wait_file(dir, "http.port", 100);
	CHECK(port && hport, "receivers did not start");
	if (!port || !hport)
		goto out;
	snprintf(url, sizeof(url), "http://127.0.0.1:%s/hook", hport);
	CHECK(!db_exec(db,
		"INSERT INTO experiments (id, kind, backend, base_id, bench, runs,"
		" max_runs, created_at) VALUES (1, 'explicit', 'qemu-icount', 1,"
		" '{\"rw\": \"randread\", \"bs\": 4096}', 3, 3, 1);"
		"INSERT INTO patches (sha256, message_id, raw, created_at) VALUES"
		" ('s1', '<other@dev.test>', 'other patch', 1),"
		" ('s2', '<20261201.canary@dev.test>', 'canary patch', 2),"
		" ('s3', '<a@b>', 'unrelated', 3);"
		/* started by an admin: the author may be mailed (culprit_mail.h) */
		"INSERT INTO api_keys (id, name, role, prefix, salt, hash,"
		" iterations, created_at) VALUES (1, 'root', 'admin', 'p1', x'00',"
		" x'00', 1, 1);"
		"INSERT INTO bisections (id, base_id, good, bad, bench, runs,"
		" created_by, created_at) VALUES (5, 1, 'g', 'b', '{}', 3, 1, 1),"
		" (6, 1, 'g', 'b', '{}', 3, 1, 1);"));
	CHECK(db_int(db, -1, "INSERT INTO webhooks (url, secret, created_at)"
		     " VALUES ('x', 'k', 1) RETURNING id", 0) > 0);
	{
		sqlite3_stmt *st = db_prepare(db, "UPDATE webhooks SET url = ?");

		sqlite3_bind_text(st, 1, url, -1, SQLITE_STATIC);
		sqlite3_step(st);
		sqlite3_finalize(st);
	}

	b = json_loads(bisection_json, 0, NULL);
	CHECK(b);
	id = bisect_report_raise(db, b, &o, 100);
	CHECK(id > 0, "alert %lld", (long long)id);
	CHECK(bisect_report_raise(db, b, &o, 101) == 0, "one alert a bisection");
	CHECK(db_int(db, 0, "SELECT count(*) FROM alerts WHERE kind = 'bisection'"
		     " AND bisection_id = 5", 0) == 1);

	snprintf(url, sizeof(url), "smtp://127.0.0.1:%s", port);
	smtp.url = url;
	smtp.from = "perflab@lab.test";
	smtp.to = "list@lab.test";
	smtp.base_url = "http://lab.test";
	CHECK(alerts_deliver_due(db, &smtp, 200) == 2, "webhook + email tried");
	mail = wait_file(dir, "mail.1", 100);
	hook = wait_file(dir, "hook.1", 100);
	CHECK(mail, "no mail");
	CHECK(hook, "no webhook");
	if (mail && getenv("SHOW"))
		fputs(mail, stdout);
	if (mail) {
		CHECK(strstr(mail, "RCPT TO:<jane@dev.test>"), "%s", mail);
		CHECK(strstr(mail, "RCPT TO:<list@lab.test>"));
		CHECK(strstr(mail, "\nTo: jane@dev.test,\n list@lab.test\n"), "%s", mail);
		CHECK(strstr(mail, "\nSubject: [perflab] 444444444444 block: canary on  "
			     "Bcc: evil@x: -3.1% iops regression\n"), "%s", mail);
		CHECK(!strstr(mail, "\nBcc:"));
		CHECK(strstr(mail, "\nIn-Reply-To: <20261201.canary@dev.test>\n"));
		CHECK(strstr(mail, "\nReferences: <20261201.canary@dev.test>\n"));
		CHECK(strstr(mail, "\nMessage-ID: <perflab-bisection-5-alert-"));
		CHECK(strstr(mail, "FYI, we noticed a -3.1% regression of perflab.iops"));
		CHECK(strstr(mail, "        rw: randread\n        bs: 4096\n"), "%s", mail);
		CHECK(strstr(mail, "in testcase: perflab randread on qemu-icount"));
	}
	if (hook) {
		const char *body = strstr(hook, "\n\n");
		json_t *ev = body ? json_loads(body + 2, 0, NULL) : NULL;

		CHECK(ev && !strcmp(json_string_value(json_object_get(ev, "kind")), "bisection"));
		CHECK(ev && json_integer_value(json_object_get(
				json_object_get(ev, "bisection"), "id")) == 5);
		CHECK(ev && strstr(json_string_value(json_object_get(ev, "report")),
				   "Greeting,"));
		json_decref(ev);
	}
	free(mail);
	free(hook);

	/* no stored patch with the culprit's patch-id: no thread; the
	 * metric is ns_per_io (qemu-icount), where a regression is a rise */
	CHECK(!db_exec(db,
		"INSERT INTO variants (id, experiment_id, idx, name, is_control) VALUES"
		" (1, 1, 0, 'good', 1), (2, 1, 1, 'step', 0);"
		"INSERT INTO comparisons (experiment_id, variant_id, control_variant_id,"
		" metric, verdict, delta_pct, computed_at) VALUES (1, 2, 1, 'ns_per_io',"
		" 'regression', 3.21, 1);"));
	json_object_set_new(b, "id", json_integer(6));
	json_object_set_new(json_object_get(b, "culprit"), "delta_pct", json_real(3.21));
	json_object_set_new(json_object_get(b, "culprit"), "patch_id",
			    json_string("cccccccccccccccccccccccccccccccccccccccc"));
	id = bisect_report_raise(db, b, &o, 300);
	CHECK(id > 0);
	CHECK(alerts_deliver_due(db, &smtp, 300) >= 1);
	mail = wait_file(dir, "mail.2", 100);
	CHECK(mail && !strstr(mail, "In-Reply-To") && !strstr(mail, "References"),
	      "%s", mail ? mail : "(none)");
	CHECK(mail && strstr(mail, "Bcc: evil@x: +3.2% ns_per_io regression\n"),
	      "%s", mail ? mail : "(none)");
	CHECK(mail && strstr(mail, "FYI, we noticed a +3.2% regression of perflab.ns_per_io"));
	free(mail);
	json_decref(b);
out:
	kill(rx, SIGTERM);
	waitpid(rx, NULL, 0);
	free(port);
	free(hport);
	sqlite3_close(db);
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "cannot remove %s\n", dir);
	}
	DONE();
}
