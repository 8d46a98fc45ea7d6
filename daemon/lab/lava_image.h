/* SPDX-License-Identifier: MIT */
/*
 * lava_image: where a LAVA-run job's kernel comes from. LAVA never
 * builds: the lab's host is a test-only host of the build machinery
 * (builds.h), so its jobs are claimed only once their image is in the
 * image store (images.h), and a builder runner gets the build task
 * meanwhile. The claimed job's spec then carries the image as a test
 * runner's does ("image": {key, state "ready", sha256, files}); LAVA
 * downloads its bzImage (and System.map, if a template wants it) through
 * the per-job token path (lava.h), checked against the manifest's sha256.
 */
#ifndef PERFLAB_LAVA_IMAGE_H
#define PERFLAB_LAVA_IMAGE_H

#include <stddef.h>
#include <jansson.h>

struct lava_image {
	char key[65];
	char kernel_sha256[65];	/* the manifest's, of bzImage */
};

/*
 * The stored image of a claimed job's @spec (builds_claim_json's
 * "image"): 0, or -1 with err (no config hash for the job's config, or
 * the image left the store after the claim).
 */
int lava_image_of(const json_t *spec, const char *lab, struct lava_image *img,
		  char *err, size_t errlen);

/* Files of an image a LAVA job may download with its token. */
int lava_image_file_ok(const char *name);

/* sha256 hex of a file; 0 or -1. */
int lava_file_sha256(const char *path, char hex[65], long long *size);

#endif
