/* SPDX-License-Identifier: MIT */
/*
 * Alert endpoints (see alerts.h for what raises and delivers alerts):
 *   GET   /api/v1/alerts[?state=S&kind=K]
 *   GET   /api/v1/alerts/{id}       with history and deliveries
 *   PATCH /api/v1/alerts/{id}       {"state": S, "note": ".."}; who = key name
 *   GET   /api/v1/webhooks, POST /api/v1/webhooks {"url", "secret"} (admin)
 */
#ifndef PERFLAB_API_ALERTS_H
#define PERFLAB_API_ALERTS_H

#include "daemon/http/http.h"

int api_alerts_list(struct http_req *req, struct http_resp *resp);
int api_alert_get(struct http_req *req, struct http_resp *resp);
int api_alert_patch(struct http_req *req, struct http_resp *resp);
int api_webhooks_list(struct http_req *req, struct http_resp *resp);
int api_webhooks_post(struct http_req *req, struct http_resp *resp);

#endif
