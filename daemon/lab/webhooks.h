/* SPDX-License-Identifier: MIT */
/*
 * Webhooks: the URLs that get every alert, signed with their secret
 * (alerts.h delivers). Registration and the list the admins see.
 */
#ifndef PERFLAB_LAB_WEBHOOKS_H
#define PERFLAB_LAB_WEBHOOKS_H

#include <stdint.h>
#include <jansson.h>

#include "daemon/store/conn.h"
#include "daemon/lab/status.h"

/* Every webhook, without its secret: {id, url, enabled, created_at}. */
json_t *webhooks_json(store_conn *db);

/* Register @url (http:// or https://) with @secret (at least 8
 * characters). Its id, or -1 LAB_INVALID. Takes the write lock. */
int64_t webhooks_add(store_conn *db, const char *url, const char *secret,
		     struct lab_err *e);

#endif
