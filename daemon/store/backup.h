/* SPDX-License-Identifier: MIT */
/*
 * Backups that restore (docs/operating.md "Backups"): a consistent copy
 * of a live database while perflabd serves it, the check of a database
 * (or of a copy), and the restore of a copy over a database nobody has
 * open.
 *
 * backup: SQLite's online backup API from one read transaction on the
 * live file (WAL: a snapshot that writers do not disturb and that does
 * not hold them up), into FILE.part next to FILE; the copy is checked
 * (quick_check), synced and renamed to FILE, so FILE exists only when
 * whole. The live file is opened without create and only read: a kill
 * at any point leaves it as it was, and a stale FILE.part is replaced by
 * the next backup.
 *
 * restore: the copy must pass the check first; the live file is then
 * taken with an exclusive lock (refused while any connection, perflabd's
 * above all, has it open) and overwritten by the backup API in one
 * transaction of its journal: a kill during the restore leaves the old
 * database. perflabd migrates a restored older schema at its start.
 */
#ifndef PERFLAB_STORE_BACKUP_H
#define PERFLAB_STORE_BACKUP_H

#include <stddef.h>

struct db_backup_opts {
	int pages_per_step;		/* 0: a default */
	int pages_per_second;		/* 0: as fast as the disk goes */
	/* Called after each step with pages copied and the total; NULL: none. */
	void (*progress)(void *arg, int done, int total);
	void *arg;
};

/* Copy the database @src into the new file @dst. 0 or -1 with @err. */
int db_backup_file(const char *src, const char *dst,
		   const struct db_backup_opts *o, char *err, size_t len);

/*
 * Check @path: a SQLite file of a perflab schema this binary knows,
 * PRAGMA integrity_check and PRAGMA foreign_key_check. Each problem is
 * passed to @report (at most @max of them; 0: 100). Returns the number
 * of problems (0: sound), or -1 when @path cannot be read (@err).
 * *@version gets its schema version when not NULL.
 */
int db_check_path(const char *path, int max,
		  void (*report)(void *arg, const char *problem), void *arg,
		  int *version, char *err, size_t len);

/*
 * Replace the database @live (created if missing) by the copy @backup,
 * which must pass db_check_path. Refused while @live is in use. 0 or -1.
 */
int db_restore_file(const char *backup, const char *live, char *err,
		    size_t len);

#endif
