/* SPDX-License-Identifier: MIT */
/*
 * The image store's endpoints and build tasks (docs/api.md "Kernel
 * images"). The GET of a file is http_reply_file over images_open, so a
 * handler authenticated another way (a per-job download token) serves
 * files the same way.
 */
#ifndef PERFLAB_API_IMAGES_H
#define PERFLAB_API_IMAGES_H

#include "daemon/http/http.h"

extern const struct route_stream api_image_upload_stream;
int api_image_put(struct http_req *req, struct http_resp *resp);
int api_image_get(struct http_req *req, struct http_resp *resp);
int api_image_file(struct http_req *req, struct http_resp *resp);
int api_images_list(struct http_req *req, struct http_resp *resp);
int api_image_delete(struct http_req *req, struct http_resp *resp);
int api_images_gc(struct http_req *req, struct http_resp *resp);
int api_build_heartbeat(struct http_req *req, struct http_resp *resp);
int api_build_fail(struct http_req *req, struct http_resp *resp);

#endif
