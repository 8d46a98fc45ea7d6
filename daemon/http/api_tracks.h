/* SPDX-License-Identifier: MIT */
/*
 * Tracks and bisections over HTTP (docs/contracts.md section "Tracks and
 * bisections"); the work is lab/tracks.c and lab/bisect_run.c.
 *
 *   POST /api/v1/tracks              (admin) create; its head is queued
 *   GET  /api/v1/tracks[/{id}]       list; one with points, change points
 *   POST /api/v1/tracks/{id}/poll    (admin) fetch now, queue new commits
 *   POST /api/v1/hooks/git           (admin) {base, ref, after}: a push
 *   POST /api/v1/bisections          (submit) start by hand
 *   GET  /api/v1/bisections[/{id}]   list; one with its steps and culprit
 */
#ifndef PERFLAB_API_TRACKS_H
#define PERFLAB_API_TRACKS_H

#include "daemon/http/http.h"

int api_tracks_post(struct http_req *req, struct http_resp *resp);
int api_tracks_list(struct http_req *req, struct http_resp *resp);
int api_track_get(struct http_req *req, struct http_resp *resp);
int api_track_poll(struct http_req *req, struct http_resp *resp);
int api_hooks_git(struct http_req *req, struct http_resp *resp);

int api_bisections_post(struct http_req *req, struct http_resp *resp);
int api_bisections_list(struct http_req *req, struct http_resp *resp);
int api_bisection_get(struct http_req *req, struct http_resp *resp);

#endif
