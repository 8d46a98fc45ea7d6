/* SPDX-License-Identifier: MIT */
/*
 * kimage: what names a kernel image, computed alike by the runner and the
 * daemon (docs/contracts.md section 6): the config hash, the patch-set
 * hash, the build cache key (with the submitter's trust domain for
 * patched variants), the trust domain itself, and the image's files and
 * manifest digest.
 */
#ifndef PERFLAB_KIMAGE_H
#define PERFLAB_KIMAGE_H

#include <stddef.h>
#include <stdint.h>

/* The files of an image, in manifest order, with their size limits. */
struct kimage_file_def {
	const char *name;
	uint64_t max;
};
#define KIMAGE_NFILES 4
extern const struct kimage_file_def kimage_files[KIMAGE_NFILES];
/* Index of @name in kimage_files, or -1. */
int kimage_file_index(const char *name);

/* Trust domain of variants without patches. */
#define KIMAGE_DOMAIN_BASE "base"

/* 1 if @s is exactly 64 lower-case hex digits. */
int kimage_is_hex64(const char *s);
void kimage_sha256_hex(const void *buf, size_t len, char out[65]);
/* sha256("<B>\n<fragment>"), B = @base_config_sha256 or "tinyconfig". */
void kimage_config_hash(const char *base_config_sha256, const char *fragment,
			size_t len, char out[65]);
/* sha256 of the ordered "<patch sha256>\n" lines. */
void kimage_patchset_hash(const char *const *patch_sha256, int n, char out[65]);
/*
 * The build cache key. @commit NULL for tarball bases; @domain NULL for
 * variants without patches (their keys are those of earlier runners).
 * -1 when out of memory.
 */
int kimage_key(const char *base_name, const char *commit,
	       const char *patchset_hash, const char *config_hash,
	       const char *domain, char out[65]);
/* Trust domain of a submitting key: 16 hex from its stored hash. */
void kimage_domain(const void *key_hash, size_t len, char out[17]);
/* A trust domain as runners use it in a path: "base" or 1-64 of [a-z0-9]. */
int kimage_domain_valid(const char *d);

struct kimage_manifest_file {
	uint64_t size;
	char sha256[65];
};
/*
 * The manifest text of @key's @files (kimage_files order) into @text
 * (malloc'ed, may be NULL) and its sha256, the image digest. -1 on OOM.
 */
int kimage_digest(const char *key,
		  const struct kimage_manifest_file files[KIMAGE_NFILES],
		  char **text, char digest[65]);

#endif
