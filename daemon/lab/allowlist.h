/* SPDX-License-Identifier: MIT */
/*
 * The admins' allowlists (docs/security.md, docs/api.md "Trust"): kernel
 * command-line patterns (trust.h checks variants against them), runtime
 * settings patterns of toggle experiments (toggle.h) and named setup
 * scripts. Storage and the JSON the API shows; who may change them is
 * the route's business (admin keys).
 */
#ifndef PERFLAB_LAB_ALLOWLIST_H
#define PERFLAB_LAB_ALLOWLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "daemon/store/conn.h"
#include "daemon/lab/status.h"

/* The two pattern lists share one shape, each with its own rules. */
enum allowlist_kind {
	ALLOWLIST_CMDLINE,	/* cmdline_allowlist: trust_pattern_check */
	ALLOWLIST_SETTINGS,	/* setting_allowlist: toggle_pattern_check */
};

/* The longest pattern of @kind, in bytes. */
size_t allowlist_max_pattern(enum allowlist_kind kind);

/* Every pattern, oldest first: {id, pattern, note, created_by, created_at}. */
json_t *allowlist_json(store_conn *db, enum allowlist_kind kind);

/* Add @pattern (checked by its list's rules). Its id, or -1:
 * LAB_REJECTED (a bad pattern), LAB_CONFLICT (allowed already). */
int64_t allowlist_add(store_conn *db, enum allowlist_kind kind,
		      const char *pattern, const char *note, int64_t key_id,
		      struct lab_err *e);

/* 0, or -1 LAB_NOT_FOUND. */
int allowlist_delete(store_conn *db, enum allowlist_kind kind, int64_t id,
		     struct lab_err *e);

/* Setup scripts: {name, description, bytes, updated_by, updated_at}. */
json_t *allowlist_scripts_json(store_conn *db);
/* One script with its text, or NULL (LAB_NOT_FOUND). */
json_t *allowlist_script_json(store_conn *db, const char *name,
			      struct lab_err *e);
/* Store or replace script @name; *@created says which. 0 or -1. */
int allowlist_script_put(store_conn *db, const char *name, const char *script,
			 const char *desc, int64_t key_id, bool *created,
			 struct lab_err *e);
/* 0, or -1 LAB_NOT_FOUND. */
int allowlist_script_delete(store_conn *db, const char *name,
			    struct lab_err *e);

#endif
