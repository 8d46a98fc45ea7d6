// SPDX-License-Identifier: MIT
/*
 * The admins' allowlists: /api/v1/allowlist/{cmdline,settings} and
 * /api/v1/setup-scripts; see api_trust.h. Stored by lab/allowlist.h.
 */
#include <stdio.h>
#include <string.h>

#include "daemon/http/api.h"
#include "daemon/http/api_trust.h"
#include "daemon/lab/allowlist.h"
#include "daemon/lab/validate.h"

/* ---- allowlists: cmdline patterns, runtime settings ------------------- */

static int list_of(struct http_req *req, struct http_resp *resp,
		   enum allowlist_kind kind)
{
	json_t *a = allowlist_json(req->db, kind);

	return api_list(resp, "patterns", a);
}

static int post_to(struct http_req *req, struct http_resp *resp,
		   enum allowlist_kind kind)
{
	static const char *const keys[] = { "pattern", "note", NULL };
	json_t *body = http_json_body_keys(req, resp, keys);
	const char *pattern, *note;
	struct lab_err e;
	int64_t id;
	int ret = 0;

	if (!body)
		return 0;
	if (api_opt_string(body, "pattern", allowlist_max_pattern(kind), &pattern,
			   resp) ||
	    api_opt_string(body, "note", 256, &note, resp))
		goto out;
	if (!pattern) {
		ret = http_error(resp, 400, "missing field 'pattern'");
		goto out;
	}
	id = allowlist_add(req->db, kind, pattern, note, req->auth.key_id, &e);
	ret = id < 0 ? http_lab_error(resp, &e) :
	      http_json(resp, 201, json_pack("{s:I,s:s}", "id", (json_int_t)id,
					     "pattern", pattern));
out:
	json_decref(body);
	return ret;
}

static int delete_from(struct http_req *req, struct http_resp *resp,
		       enum allowlist_kind kind)
{
	int64_t id = http_param_id(req, "id");
	struct lab_err e;

	if (id < 0)
		return http_error(resp, 404, "no allowlist pattern with that id");
	if (allowlist_delete(req->db, kind, id, &e))
		return http_lab_error(resp, &e);
	return http_json(resp, 200, json_pack("{s:I,s:b}", "id", (json_int_t)id,
					     "deleted", 1));
}

int api_allowlist_list(struct http_req *req, struct http_resp *resp)
{
	return list_of(req, resp, ALLOWLIST_CMDLINE);
}

int api_allowlist_post(struct http_req *req, struct http_resp *resp)
{
	return post_to(req, resp, ALLOWLIST_CMDLINE);
}

int api_allowlist_delete(struct http_req *req, struct http_resp *resp)
{
	return delete_from(req, resp, ALLOWLIST_CMDLINE);
}

int api_settings_allowlist_list(struct http_req *req, struct http_resp *resp)
{
	return list_of(req, resp, ALLOWLIST_SETTINGS);
}

int api_settings_allowlist_post(struct http_req *req, struct http_resp *resp)
{
	return post_to(req, resp, ALLOWLIST_SETTINGS);
}

int api_settings_allowlist_delete(struct http_req *req,
				  struct http_resp *resp)
{
	return delete_from(req, resp, ALLOWLIST_SETTINGS);
}

/* ---- setup scripts --------------------------------------------------- */

int api_scripts_list(struct http_req *req, struct http_resp *resp)
{
	return api_list(resp, "scripts", allowlist_scripts_json(req->db));
}

int api_script_get(struct http_req *req, struct http_resp *resp)
{
	struct lab_err e;
	json_t *o = allowlist_script_json(req->db, http_param(req, "name"), &e);

	return o ? http_json(resp, 200, o) : http_lab_error(resp, &e);
}

int api_script_put(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "script", "description", NULL };
	json_t *body = http_json_body_keys(req, resp, keys);
	const char *name = http_param(req, "name"), *script, *desc;
	struct lab_err e;
	bool created;
	int ret = 0;

	if (!body)
		return 0;
	if (api_opt_string(body, "script", 65536, &script, resp) ||
	    api_opt_string(body, "description", 256, &desc, resp))
		goto out;
	if (!lab_valid_name(name)) {
		ret = http_error(resp, 400, "a script name is 1-64 characters of"
				 " [A-Za-z0-9._+-]");
		goto out;
	}
	if (!script || !*script) {
		ret = http_error(resp, 400, "'script' (shell text, run with sh -ec"
				 " as root) is required");
		goto out;
	}
	if (allowlist_script_put(req->db, name, script, desc, req->auth.key_id,
				 &created, &e))
		ret = http_lab_error(resp, &e);
	else
		ret = http_json(resp, created ? 201 : 200,
				json_pack("{s:s}", "name", name));
out:
	json_decref(body);
	return ret;
}

int api_script_delete(struct http_req *req, struct http_resp *resp)
{
	const char *name = http_param(req, "name");
	struct lab_err e;

	if (allowlist_script_delete(req->db, name, &e))
		return http_lab_error(resp, &e);
	return http_json(resp, 200, json_pack("{s:s,s:b}", "name", name,
					     "deleted", 1));
}
