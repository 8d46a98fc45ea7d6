// SPDX-License-Identifier: MIT
/*
 * lava_image: a claimed LAVA job's image in the image store.
 */
#include "daemon/lab/lava_image.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void hex(const unsigned char *md, unsigned n, char out[65])
{
	for (unsigned i = 0; i < n && i < 32; i++)
		sprintf(out + 2 * i, "%02x", md[i]);
}

int lava_file_sha256(const char *path, char out[65], long long *size)
{
	unsigned char md[EVP_MAX_MD_SIZE], buf[65536];
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	unsigned n = 0;
	long long total = 0;
	ssize_t r;

	if (fd < 0 || !ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL))
		goto fail;
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		EVP_DigestUpdate(ctx, buf, (size_t)r);
		total += r;
	}
	if (r < 0 || !EVP_DigestFinal_ex(ctx, md, &n))
		goto fail;
	close(fd);
	EVP_MD_CTX_free(ctx);
	hex(md, n, out);
	if (size)
		*size = total;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	EVP_MD_CTX_free(ctx);
	return -1;
}

int lava_image_of(const json_t *spec, const char *lab, struct lava_image *img,
		  char *err, size_t errlen)
{
	const json_t *im = json_object_get(spec, "image"), *f;
	const char *key = json_string_value(json_object_get(im, "key"));
	const char *state = json_string_value(json_object_get(im, "state"));
	size_t i;

	memset(img, 0, sizeof(*img));
	if (!key) {
		snprintf(err, errlen, "LAVA lab %s has no config hash for config"
			 " '%s' (the lab's \"configs\", or a builder runner with"
			 " the lab's label)", lab, json_string_value(
			 json_object_get(spec, "config")) ?: "");
		return -1;
	}
	snprintf(img->key, sizeof(img->key), "%s", key);
	if (!state || strcmp(state, "ready")) {
		snprintf(err, errlen, "image %s left the store after the claim:"
			 " the job waits for its build again", key);
		return -1;
	}
	json_array_foreach(json_object_get(im, "files"), i, f)
		if (!strcmp(json_string_value(json_object_get(f, "name")) ?: "",
			    "bzImage"))
			snprintf(img->kernel_sha256, sizeof(img->kernel_sha256),
				 "%s", json_string_value(json_object_get(f,
				 "sha256")) ?: "");
	if (strlen(img->kernel_sha256) != 64) {
		snprintf(err, errlen, "image %s: no bzImage in its manifest", key);
		return -1;
	}
	return 0;
}

int lava_image_file_ok(const char *name)
{
	return name && (!strcmp(name, "bzImage") || !strcmp(name, "System.map"));
}
