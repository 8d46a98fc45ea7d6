/* SPDX-License-Identifier: MIT */
/*
 * The admins' allowlists (docs/security.md, docs/api.md "Trust"): kernel
 * command-line patterns, toggle experiments' runtime settings and named
 * setup scripts. Reads for submit and
 * admin keys (a submitter needs to know what is allowed), changes for
 * admin keys only.
 */
#ifndef PERFLAB_API_TRUST_H
#define PERFLAB_API_TRUST_H

#include "daemon/http/http.h"

int api_allowlist_list(struct http_req *req, struct http_resp *resp);
int api_allowlist_post(struct http_req *req, struct http_resp *resp);
int api_allowlist_delete(struct http_req *req, struct http_resp *resp);
/* Runtime settings of toggle experiments (toggle.h), same shape. */
int api_settings_allowlist_list(struct http_req *req, struct http_resp *resp);
int api_settings_allowlist_post(struct http_req *req, struct http_resp *resp);
int api_settings_allowlist_delete(struct http_req *req,
				  struct http_resp *resp);
int api_scripts_list(struct http_req *req, struct http_resp *resp);
int api_script_get(struct http_req *req, struct http_resp *resp);
int api_script_put(struct http_req *req, struct http_resp *resp);
int api_script_delete(struct http_req *req, struct http_resp *resp);

#endif
