// SPDX-License-Identifier: MIT
/*
 * Description: the daemon knows the backends its runners register and no
 * others: with no host every backend is unknown and the reason says none
 * is registered; once hosts register "local" and a backend the daemon has
 * never heard of, exactly those are accepted, and a refusal lists them.
 */
#include <string.h>

#include "daemon/lab/trust.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "unit/check.h"

int main(void)
{
	struct lab_err e;
	char err[256];
	sqlite3 *db;

	db = db_open(":memory:", err, sizeof(err));
	if (!db || db_migrate(db, err, sizeof(err)) < 0)
		return 1;
	CHECK(trust_backend_check(db, "qemu-icount", &e) == -1 &&
	      e.st == LAB_REJECTED);
	CHECK(strstr(e.msg, "'qemu-icount'") && strstr(e.msg, "none registered"),
	      "%s", e.msg);
	db_exec(db, "INSERT INTO hosts (name, backend, registered_at,"
		" last_seen) VALUES ('h1', 'local', 0, 0), ('h2', 'xen-pv', 0, 0),"
		" ('h3', 'local', 0, 0)");
	CHECK(trust_backend_check(db, "local", &e) == 0);
	CHECK(trust_backend_check(db, "xen-pv", &e) == 0);
	CHECK(trust_backend_check(db, "kexec", &e) == -1);
	CHECK(strstr(e.msg, "(hosts run: local, xen-pv)"), "%s", e.msg);
	CHECK(trust_backend_check(db, "LOCAL", &e) == -1,
	      "names are exact");
	sqlite3_close(db);
	DONE();
}
