/* SPDX-License-Identifier: MIT */
/*
 * List watches over HTTP (docs/api.md "Watches"); the work is
 * lab/watches.c and the watch worker (lab/watch_worker.h).
 *
 *   POST /api/v1/watches             (admin) register a watch
 *   GET  /api/v1/watches             (admin) list
 *   GET  /api/v1/watches/{id}        its series, their state, the log
 *   POST /api/v1/watches/{id}/poll   (admin) poll now (202: the worker does)
 */
#ifndef PERFLAB_API_WATCHES_H
#define PERFLAB_API_WATCHES_H

#include "daemon/http/http.h"

int api_watches_post(struct http_req *req, struct http_resp *resp);
int api_watches_list(struct http_req *req, struct http_resp *resp);
int api_watch_get(struct http_req *req, struct http_resp *resp);
int api_watch_poll(struct http_req *req, struct http_resp *resp);

#endif
