// SPDX-License-Identifier: MIT
/*
 * kimage: image keys, trust domains and digests (kimage.h).
 */
#include "kimage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

const struct kimage_file_def kimage_files[KIMAGE_NFILES] = {
	{ "bzImage", 256ull << 20 },
	{ "System.map", 64ull << 20 },
	{ "config", 16ull << 20 },
	{ "meta", 64ull << 10 },
};

int kimage_file_index(const char *name)
{
	for (int i = 0; i < KIMAGE_NFILES; i++)
		if (name && !strcmp(name, kimage_files[i].name))
			return i;
	return -1;
}

int kimage_is_hex64(const char *s)
{
	size_t i;

	for (i = 0; s && i < 64; i++)
		if (!strchr("0123456789abcdef", s[i]) || !s[i])
			return 0;
	return s && s[64] == '\0';
}

void kimage_sha256_hex(const void *buf, size_t len, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	EVP_Digest(buf, len, md, &n, EVP_sha256(), NULL);
	for (unsigned int i = 0; i < n && i < 32; i++)
		sprintf(out + 2 * i, "%02x", md[i]);
	out[64] = '\0';
}

void kimage_config_hash(const char *base_config_sha256, const char *fragment,
			size_t len, char out[65])
{
	const char *b = base_config_sha256 ? base_config_sha256 : "tinyconfig";
	size_t blen = strlen(b);
	char *s = malloc(blen + 1 + len);

	if (!s) {
		memset(out, '0', 64);
		out[64] = '\0';
		return;
	}
	memcpy(s, b, blen);
	s[blen] = '\n';
	memcpy(s + blen + 1, fragment, len);
	kimage_sha256_hex(s, blen + 1 + len, out);
	free(s);
}

void kimage_patchset_hash(const char *const *patch_sha256, int n, char out[65])
{
	char *all = calloc((size_t)n + 1, 65);

	if (!all) {
		memset(out, '0', 64);
		out[64] = '\0';
		return;
	}
	for (int i = 0; i < n; i++) {
		memcpy(all + i * 65, patch_sha256[i], 64);
		all[i * 65 + 64] = '\n';
	}
	kimage_sha256_hex(all, (size_t)n * 65, out);
	free(all);
}

int kimage_key(const char *base_name, const char *commit,
	       const char *patchset_hash, const char *config_hash,
	       const char *domain, char out[65])
{
	char *s = NULL;
	int n;

	n = asprintf(&s, "perflab-kbuild-v2\nbase=%s\n%s%s%spatches=%s\n"
		     "config=%s\n%s%s%s", base_name, commit ? "commit=" : "",
		     commit ? commit : "", commit ? "\n" : "", patchset_hash,
		     config_hash, domain ? "domain=" : "", domain ? domain : "",
		     domain ? "\n" : "");
	if (n < 0)
		return -1;
	kimage_sha256_hex(s, (size_t)n, out);
	free(s);
	return 0;
}

void kimage_domain(const void *key_hash, size_t len, char out[17])
{
	static const char tag[] = "perflab-trust-domain-v1\n";
	const unsigned char *h = key_hash;
	char *s = malloc(sizeof(tag) + 2 * len), full[65];

	if (!s) {
		snprintf(out, 17, "0000000000000000");
		return;
	}
	memcpy(s, tag, sizeof(tag) - 1);
	for (size_t i = 0; i < len; i++)
		sprintf(s + sizeof(tag) - 1 + 2 * i, "%02x", h[i]);
	kimage_sha256_hex(s, sizeof(tag) - 1 + 2 * len, full);
	free(s);
	memcpy(out, full, 16);
	out[16] = '\0';
}

int kimage_domain_valid(const char *d)
{
	size_t n = d ? strlen(d) : 0;

	if (n == 0 || n > 64)
		return 0;
	return strspn(d, "abcdefghijklmnopqrstuvwxyz0123456789") == n;
}

int kimage_digest(const char *key,
		  const struct kimage_manifest_file files[KIMAGE_NFILES],
		  char **text, char digest[65])
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return -1;
	fprintf(f, "perflab-image-v1\nkey=%s\n", key);
	for (int i = 0; i < KIMAGE_NFILES; i++)
		fprintf(f, "%s %llu %s\n", kimage_files[i].name,
			(unsigned long long)files[i].size, files[i].sha256);
	if (fclose(f) || !s) {
		free(s);
		return -1;
	}
	kimage_sha256_hex(s, len, digest);
	if (text)
		*text = s;
	else
		free(s);
	return 0;
}
