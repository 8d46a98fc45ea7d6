// SPDX-License-Identifier: MIT
/*
 * lava_image: the variant build's key and its files under --lava-images.
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

static void sha_text(const char *s, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;

	EVP_Digest(s, strlen(s), md, &n, EVP_sha256(), NULL);
	hex(md, n, out);
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

int lava_image_find(const char *dir, const json_t *spec, struct lava_image *img,
		    char *err, size_t errlen)
{
	const json_t *base = json_object_get(spec, "base");
	const json_t *var = json_object_get(spec, "variant"), *p;
	const char *commit = json_string_value(json_object_get(base, "commit"));
	size_t i, len = 1;
	char *set, *text, phash[65];
	struct stat st;

	memset(img, 0, sizeof(*img));
	set = malloc(65 * json_array_size(json_object_get(var, "patches")) + 1);
	if (!set)
		return -1;
	set[0] = 0;
	json_array_foreach(json_object_get(var, "patches"), i, p) {
		const char *s = json_string_value(json_object_get(p, "sha256"));

		if (!s || strlen(s) != 64) {
			free(set);
			snprintf(err, errlen, "patch without a sha256");
			return -1;
		}
		len += (size_t)sprintf(set + len - 1, "%s\n", s);
	}
	sha_text(set, phash);
	free(set);
	if (asprintf(&text, "perflab-lava-image-v0\nbase=%s\ncommit=%s\n"
		     "patches=%s\nconfig=%s\n",
		     json_string_value(json_object_get(base, "name")) ?: "",
		     commit ? commit : "", phash,
		     json_string_value(json_object_get(spec, "config")) ?: "") < 0)
		return -1;
	sha_text(text, img->key);
	free(text);
	if (!dir) {
		snprintf(err, errlen, "no image store (perflabd --lava-images)");
		return 0;
	}
	snprintf(img->kernel, sizeof(img->kernel), "%s/%s/bzImage", dir, img->key);
	snprintf(img->sysmap, sizeof(img->sysmap), "%s/%s/System.map", dir,
		 img->key);
	if (stat(img->sysmap, &st) || !S_ISREG(st.st_mode))
		img->sysmap[0] = 0;
	if (stat(img->kernel, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "waiting for image %s (%s/%s/bzImage)",
			 img->key, dir, img->key);
		return 0;
	}
	return 1;
}
