/* SPDX-License-Identifier: MIT */
/*
 * imgstore: the runner's client of perflabd's image store: fetch a
 * claimed image into KCACHE/images/<key> (via <key>.dl: resumed with
 * Range, every file's sha256 and the digest checked, a wrong file fetched
 * again from the start), upload one it built.
 */
#ifndef PERFLAB_IMGSTORE_H
#define PERFLAB_IMGSTORE_H

#include <jansson.h>
#include <stdint.h>

#include "runners/runner/proto.h"

struct imgstore_stats {
	uint64_t bytes;		/* downloaded */
	int resumed;		/* files continued with Range */
	int refetched;		/* files that did not match and came again */
	int present;		/* the image was here already */
};

/* @image: the claim's {"key", "sha256", "files"}. 0, or -1 with @err. */
int imgstore_fetch(const struct proto *p, const char *kcache, const json_t *image,
		   struct imgstore_stats *st, char *err, size_t errlen);
/* Upload KCACHE/images/@key; *status the HTTP answer. 0 on 200/201. */
int imgstore_put(const struct proto *p, const char *kcache, const char *key,
		 long *status, char *err, size_t errlen);
/* The digest of the image in @dir (contracts.md section 6), or -1. */
int imgstore_digest(const char *dir, const char *key, char digest[65]);

#endif
