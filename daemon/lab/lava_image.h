/* SPDX-License-Identifier: MIT */
/*
 * lava_image: where a LAVA-run job's kernel comes from. LAVA never
 * builds: the image is perflab's own build. Until the image store (issue
 * 30) serves built images by their build key, perflabd reads them from
 * --lava-images DIR, one directory per variant build,
 *
 *   DIR/<key>/bzImage, DIR/<key>/System.map
 *   key = sha256("perflab-lava-image-v0\nbase=B\ncommit=C\npatches=P\nconfig=F\n")
 *
 * B the base name, C the variant's commit (git bases; empty otherwise),
 * P the sha256 over "<patch sha256>\n" of the variant's patches in order
 * (sha256 of "" without patches), F the config name. A builder (perflab-
 * runner try --build-only, then a copy) puts them there; a job whose
 * image is missing waits, holding its lease, with the key in its message.
 */
#ifndef PERFLAB_LAVA_IMAGE_H
#define PERFLAB_LAVA_IMAGE_H

#include <stddef.h>
#include <jansson.h>

struct lava_image {
	char key[65];
	char kernel[4200];	/* bzImage */
	char sysmap[4200];	/* System.map ("" when absent) */
};

/* The image for a claimed job's @spec: 1 there, 0 missing (key set), -1. */
int lava_image_find(const char *images_dir, const json_t *spec,
		    struct lava_image *img, char *err, size_t errlen);

/* sha256 hex of a file; 0 or -1. */
int lava_file_sha256(const char *path, char hex[65], long long *size);

#endif
