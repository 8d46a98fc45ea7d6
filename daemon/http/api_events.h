/* SPDX-License-Identifier: MIT */
/*
 * GET /api/v1/events[?experiment=ID][&since=N]: Server-Sent Events from
 * the lab's event ring (lab/events.h); Last-Event-ID resumes.
 */
#ifndef PERFLAB_API_EVENTS_H
#define PERFLAB_API_EVENTS_H

#include "daemon/http/http.h"

int api_events(struct http_req *req, struct http_resp *resp);

#endif
