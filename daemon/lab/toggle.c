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

int toggle_pattern_check(const char *pattern, char *err, size_t errlen)
{
	char p[RTSETTING_PATH_MAX + 2];
	size_t n = strlen(pattern);

	if (n == 0 || n > RTSETTING_PATH_MAX) {
		snprintf(err, errlen, "'pattern' must be 1 to %d characters",
			 RTSETTING_PATH_MAX);
		return -1;
	}
	snprintf(p, sizeof(p), "%s", pattern);
	if (p[n - 1] == '*')
		p[n - 1] = '\0';
	if (strchr(p, '*')) {
		snprintf(err, errlen, "'*' may only end a pattern");
		return -1;
	}
	/* A prefix such as /sys/module/x/parameters/ is checked as its dir. */
	if (n > 1 && p[strlen(p) - 1] == '/')
		p[strlen(p) - 1] = '\0';
	return rtsetting_path_check(p, err, errlen);
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
			  const json_t *settings, char *err, size_t errlen)
{
	const char *path;
	json_t *v;
	int rc;

	if (!settings)
		return 0;
	if (!json_is_object(settings)) {
		snprintf(err, errlen,
			 "'settings' must be an object of path:"
			 " value strings");
		return 400;
	}
	if (json_object_size(settings) > RTSETTING_MAX) {
		snprintf(err, errlen, "at most %d settings per variant",
			 RTSETTING_MAX);
		return 400;
	}
	json_object_foreach((json_t *)settings, path, v)
	{
		if (!json_is_string(v)) {
			snprintf(err, errlen,
				 "setting '%.64s': the value must be"
				 " a string",
				 path);
			return 400;
		}
		if (rtsetting_path_check(path, err, errlen) ||
		    rtsetting_value_check(json_string_value(v), err, errlen))
			return 400;
		if (who->role == ROLE_ADMIN)
			continue;
		rc = allowed(db, path);
		if (rc < 0)
			return -1;
		if (!rc) {
			snprintf(err, errlen,
				 "setting '%.64s' is not in the admins'"
				 " allowlist (GET /api/v1/allowlist/settings)",
				 path);
			return 403;
		}
	}
	return 0;
}

static bool same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

int toggle_variants_check(const struct variant_spec *v, int n, char *err,
			  size_t errlen)
{
	int i, k;

	if (n < 2) {
		snprintf(err, errlen,
			 "a toggle experiment needs at least two"
			 " variants");
		return 400;
	}
	for (i = 1; i < n; i++) {
		bool same = v[i].npatches == v[0].npatches &&
			    same_str(v[i].cmdline, v[0].cmdline) &&
			    same_str(v[i].setup, v[0].setup);

		for (k = 0; same && k < v[0].npatches; k++)
			same = v[i].patch_ids[k] == v[0].patch_ids[k];
		if (!same) {
			snprintf(err, errlen,
				 "toggle variant '%s' differs from"
				 " '%s' in patches, cmdline or setup: a toggle"
				 " experiment boots one image, its variants may"
				 " differ only by 'settings'",
				 v[i].name, v[0].name);
			return 400;
		}
	}
	return 0;
}
