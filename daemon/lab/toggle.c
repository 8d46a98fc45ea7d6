// SPDX-License-Identifier: MIT
/*
 * Toggle experiments: settings checks; see toggle.h.
 */
#include <stdio.h>
#include <string.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/roles.h"
#include "daemon/lab/toggle.h"
#include "rtsetting.h"

int toggle_pattern_check(const char *pattern, struct lab_err *e)
{
	char p[RTSETTING_PATH_MAX + 2], why[256];
	size_t n = strlen(pattern);

	if (n == 0 || n > RTSETTING_PATH_MAX)
		return lab_fail(e, LAB_REJECTED, "'pattern' must be 1 to %d"
				" characters", RTSETTING_PATH_MAX);
	snprintf(p, sizeof(p), "%s", pattern);
	if (p[n - 1] == '*')
		p[n - 1] = '\0';
	if (strchr(p, '*'))
		return lab_fail(e, LAB_REJECTED, "'*' may only end a pattern");
	/* A prefix such as /sys/module/x/parameters/ is checked as its dir. */
	if (n > 1 && p[strlen(p) - 1] == '/')
		p[strlen(p) - 1] = '\0';
	if (rtsetting_path_check(p, why, sizeof(why)))
		return lab_fail(e, LAB_REJECTED, "%s", why);
	return 0;
}

static bool pattern_match(const char *pattern, const char *path)
{
	size_t n = strlen(pattern);

	if (n && pattern[n - 1] == '*')
		return !strncmp(pattern, path, n - 1);
	return !strcmp(pattern, path);
}

/* 1 if some allowlist pattern matches @path, 0 if none, -1 on error. */
static int allowed(sqlite3 *db, const char *path)
{
	sqlite3_stmt *st =
		db_prepare(db, "SELECT pattern FROM setting_allowlist");
	int rc, hit = 0;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !hit)
		hit = pattern_match((const char *)sqlite3_column_text(st, 0),
				    path);
	sqlite3_finalize(st);
	return hit ? 1 : (rc == SQLITE_DONE || rc == SQLITE_ROW) ? 0 : -1;
}

int toggle_settings_check(sqlite3 *db, const struct trust_who *who,
			  const json_t *settings, struct lab_err *e)
{
	const char *path;
	char why[256];
	json_t *v;
	int rc;

	if (!settings)
		return 0;
	if (!json_is_object(settings))
		return lab_fail(e, LAB_INVALID, "'settings' must be an object"
				" of path: value strings");
	if (json_object_size(settings) > RTSETTING_MAX)
		return lab_fail(e, LAB_INVALID, "at most %d settings per"
				" variant", RTSETTING_MAX);
	json_object_foreach((json_t *)settings, path, v)
	{
		if (!json_is_string(v))
			return lab_fail(e, LAB_INVALID, "setting '%.64s': the"
					" value must be a string", path);
		if (rtsetting_path_check(path, why, sizeof(why)) ||
		    rtsetting_value_check(json_string_value(v), why, sizeof(why)))
			return lab_fail(e, LAB_INVALID, "%s", why);
		if (who->role == ROLE_ADMIN)
			continue;
		rc = allowed(db, path);
		if (rc < 0)
			return lab_fail_db(e, db);
		if (!rc)
			return lab_fail(e, LAB_FORBIDDEN, "setting '%.64s' is not"
					" in the admins' allowlist (GET /api/v1/"
					"allowlist/settings)", path);
	}
	return 0;
}

static bool same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

int toggle_variants_check(const struct variant_spec *v, int n,
			  const char *commit, struct lab_err *e)
{
	int i, k;

	if (n < 2)
		return lab_fail(e, LAB_INVALID, "a toggle experiment needs at"
				" least two variants");
	for (i = 1; i < n; i++) {
		const char *c0 = v[0].base_commit ? v[0].base_commit : commit;
		const char *ci = v[i].base_commit ? v[i].base_commit : commit;

		if (!same_str(c0, ci))
			return lab_fail(e, LAB_REJECTED, "toggle variant '%s'"
					" builds commit %.12s, '%s' %.12s: a toggle"
					" experiment boots one image of one commit"
					" (pin it with base NAME@COMMIT)", v[i].name,
					ci ? ci : "-", v[0].name, c0 ? c0 : "-");
	}
	for (i = 1; i < n; i++) {
		bool same = v[i].npatches == v[0].npatches &&
			    same_str(v[i].cmdline, v[0].cmdline) &&
			    same_str(v[i].setup, v[0].setup);

		for (k = 0; same && k < v[0].npatches; k++)
			same = v[i].patch_ids[k] == v[0].patch_ids[k];
		if (!same)
			return lab_fail(e, LAB_INVALID, "toggle variant '%s'"
					" differs from '%s' in patches, cmdline or"
					" setup: a toggle experiment boots one image,"
					" its variants may differ only by"
					" 'settings'", v[i].name, v[0].name);
	}
	return 0;
}
