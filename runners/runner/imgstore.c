// SPDX-License-Identifier: MIT
/*
 * imgstore: the runner's side of perflabd's image store (docs/api.md
 * "Kernel images"): download a claimed image into the kernel cache,
 * resuming with Range and checking every file's sha256 and the digest;
 * upload an image the runner built.
 */
#include "runners/runner/imgstore.h"
#include "runners/runner/rutil.h"
#include "common/kimage.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define FETCH_TRIES 3

static struct curl_slist *auth_header(const struct proto *p)
{
	char line[1024];

	snprintf(line, sizeof(line), "Authorization: Bearer %s", p->key);
	return curl_slist_append(curl_slist_append(NULL, line), "Expect:");
}

static int cancelled(void *arg, curl_off_t a, curl_off_t b, curl_off_t c,
		     curl_off_t d)
{
	const volatile sig_atomic_t *stop = arg;

	(void)a;
	(void)b;
	(void)c;
	(void)d;
	return stop && *stop;
}

struct sink {
	FILE *f;
	long status;
	int restarted;
	uint64_t bytes;
};

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct sink *s = arg;
	size_t n = size * nmemb;

	if (fwrite(ptr, 1, n, s->f) != n)
		return 0;
	s->bytes += n;
	return n;
}

/* GET @url into @path from byte @have on (Range); 0, or -1 with @err. */
static int get_range(const struct proto *p, const char *url, const char *path,
		     uint64_t have, uint64_t *bytes, char *err, size_t errlen)
{
	struct curl_slist *h = auth_header(p);
	struct sink s = { 0 };
	char range[64];
	CURLcode rc;
	CURL *c = curl_easy_init();
	int ret = -1;

	s.f = fopen(path, have ? "ab" : "wb");
	if (!c || !s.f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &s);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1024L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 60L);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, cancelled);
	curl_easy_setopt(c, CURLOPT_XFERINFODATA, (void *)p->stop);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(c, CURLOPT_FAILONERROR, 1L);
	if (have) {
		snprintf(range, sizeof(range), "%llu-", (unsigned long long)have);
		curl_easy_setopt(c, CURLOPT_RANGE, range);
	}
	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &s.status);
	if (rc != CURLE_OK) {
		snprintf(err, errlen, "GET %s: %s", url, curl_easy_strerror(rc));
		goto out;
	}
	/* A 200 to a range request is the whole file: start again. */
	if (have && s.status == 200) {
		fclose(s.f);
		s.f = NULL;
		if (truncate(path, 0) == 0)
			ret = get_range(p, url, path, 0, bytes, err, errlen);
		goto out;
	}
	ret = 0;
out:
	*bytes += s.bytes;
	if (s.f && fclose(s.f) && !ret) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		ret = -1;
	}
	curl_slist_free_all(h);
	if (c)
		curl_easy_cleanup(c);
	return ret;
}

/* The image's files as the manifest lists them, checked. */
static int manifest_files(const json_t *image, struct kimage_manifest_file *f,
			  char *err, size_t errlen)
{
	const json_t *files = json_object_get(image, "files"), *e;
	size_t i;

	if (!json_is_array(files) || json_array_size(files) != KIMAGE_NFILES)
		return snprintf(err, errlen, "image: files must list %d files",
				KIMAGE_NFILES), -1;
	json_array_foreach(files, i, e) {
		const char *name = json_string_value(json_object_get(e, "name"));
		const char *sha = json_string_value(json_object_get(e, "sha256"));
		json_int_t size = json_integer_value(json_object_get(e, "size"));

		if (kimage_file_index(name) != (int)i || !kimage_is_hex64(sha) ||
		    size < 0 || (uint64_t)size > kimage_files[i].max)
			return snprintf(err, errlen, "image: bad file %zu", i), -1;
		f[i].size = (uint64_t)size;
		snprintf(f[i].sha256, sizeof(f[i].sha256), "%s", sha);
	}
	return 0;
}

int imgstore_digest(const char *dir, const char *key, char digest[65])
{
	struct kimage_manifest_file f[KIMAGE_NFILES];
	char path[4400];
	struct stat st;

	for (int i = 0; i < KIMAGE_NFILES; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, kimage_files[i].name);
		if (lstat(path, &st) || !S_ISREG(st.st_mode) ||
		    rutil_sha256_file(path, f[i].sha256))
			return -1;
		f[i].size = (uint64_t)st.st_size;
	}
	return kimage_digest(key, f, NULL, digest);
}

/* One file: resume what is there, check, fetch again from 0 if wrong. */
static int fetch_file(const struct proto *p, const char *key, int i,
		      const struct kimage_manifest_file *want, const char *dl,
		      struct imgstore_stats *st, char *err, size_t errlen)
{
	char path[4400], url[2400], sha[65];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/%s", dl, kimage_files[i].name);
	snprintf(url, sizeof(url), "%s/api/v1/images/%s/%s", p->server, key,
		 kimage_files[i].name);
	for (int t = 0; t < FETCH_TRIES; t++) {
		uint64_t have = lstat(path, &sb) ? 0 : (uint64_t)sb.st_size;

		if (have > want->size || (have && !S_ISREG(sb.st_mode))) {
			unlink(path);
			have = 0;
		}
		if (have < want->size || (!have && !want->size)) {
			if (have)
				st->resumed++;
			if (get_range(p, url, path, have, &st->bytes, err, errlen))
				return -1;
		}
		if (!rutil_sha256_file(path, sha) && !strcmp(sha, want->sha256))
			return 0;
		fprintf(stderr, "perflab-runner: image %.12s: %s: sha256 %s, not"
			" %s; fetching it again\n", key, kimage_files[i].name, sha,
			want->sha256);
		st->refetched++;
		unlink(path);
	}
	return snprintf(err, errlen, "image %s: %s does not match its sha256"
			" after %d downloads", key, kimage_files[i].name,
			FETCH_TRIES), -1;
}

/* @dir holds @key's complete image with @digest (files are renamed in whole). */
static bool image_present(const char *dir, const char *key, const char *digest,
			  struct imgstore_stats *st)
{
	char have[65];

	if (imgstore_digest(dir, key, have) || strcmp(have, digest))
		return false;
	st->present = 1;
	return true;
}

int imgstore_fetch(const struct proto *p, const char *kcache, const json_t *image,
		   struct imgstore_stats *st, char *err, size_t errlen)
{
	struct kimage_manifest_file f[KIMAGE_NFILES];
	const char *key = json_string_value(json_object_get(image, "key"));
	const char *digest = json_string_value(json_object_get(image, "sha256"));
	char dir[4200], dl[4300], lock[4300], have[65], *log;
	int fd, ret = -1;

	memset(st, 0, sizeof(*st));
	if (!kimage_is_hex64(key) || !kimage_is_hex64(digest))
		return snprintf(err, errlen, "image: key and sha256 required"), -1;
	if (manifest_files(image, f, err, errlen))
		return -1;
	snprintf(dir, sizeof(dir), "%s/images/%s", kcache, key);
	snprintf(dl, sizeof(dl), "%s.dl", dir);
	/*
	 * Here already, complete (built here, fetched by another runner, or
	 * a read-only image disk as on the kexec rehearsal host): nothing to
	 * write, so no lock either. Files are renamed into place whole, so a
	 * matching digest is a finished image.
	 */
	if (image_present(dir, key, digest, st))
		return 0;
	snprintf(lock, sizeof(lock), "%s/images", kcache);
	if (rutil_mkdirs(lock, 0755))
		return snprintf(err, errlen, "%s/images: %s", kcache,
				strerror(errno)), -1;
	snprintf(lock, sizeof(lock), "%s.lock", dir);
	fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || flock(fd, LOCK_EX)) {
		snprintf(err, errlen, "%s: %s", lock, strerror(errno));
		goto out;
	}
	/* Fetched by another runner while we waited for the lock. */
	if (image_present(dir, key, digest, st)) {
		ret = 0;
		goto out;
	}
	if (mkdir(dl, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dl, strerror(errno));
		goto out;
	}
	for (int i = 0; i < KIMAGE_NFILES; i++)
		if (fetch_file(p, key, i, &f[i], dl, st, err, errlen))
			goto out;
	if (imgstore_digest(dl, key, have) || strcmp(have, digest)) {
		snprintf(err, errlen, "image %s: the files hash to digest %s, not"
			 " %s", key, have, digest);
		rutil_rm_rf(dl);
		goto out;
	}
	log = rutil_strdupf("perflab-runner: image %s downloaded from %s"
			    " (digest %s)\n", key, p->server, digest);
	snprintf(have, sizeof(have), "%s", "");
	{
		char path[4400];

		snprintf(path, sizeof(path), "%s/build.log", dl);
		if (!log || rutil_write_file(path, log, strlen(log))) {
			free(log);
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto out;
		}
		free(log);
	}
	rutil_rm_rf(dir);
	if (rename(dl, dir)) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	return ret;
}

int imgstore_put(const struct proto *p, const char *kcache, const char *key,
		 long *status, char *err, size_t errlen)
{
	char dir[4200], path[4400], digest[65], url[2400];
	struct curl_slist *h = auth_header(p);
	curl_mime *mime = NULL;
	CURLcode rc;
	CURL *c = curl_easy_init();
	FILE *sink = fopen("/dev/null", "w");
	int ret = -1;

	*status = 0;
	snprintf(dir, sizeof(dir), "%s/images/%s", kcache, key);
	if (!c || !sink) {
		snprintf(err, errlen, "upload: out of resources");
		goto out;
	}
	if (imgstore_digest(dir, key, digest)) {
		snprintf(err, errlen, "image %s is not complete here", key);
		goto out;
	}
	mime = curl_mime_init(c);
	for (int i = 0; i < KIMAGE_NFILES; i++) {
		curl_mimepart *part = curl_mime_addpart(mime);

		snprintf(path, sizeof(path), "%s/%s", dir, kimage_files[i].name);
		curl_mime_name(part, kimage_files[i].name);
		if (curl_mime_filedata(part, path) != CURLE_OK) {
			snprintf(err, errlen, "%s: cannot read", path);
			goto out;
		}
	}
	snprintf(url, sizeof(url), "%s/api/v1/images/%s?sha256=%s", p->server,
		 key, digest);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_MIMEPOST, mime);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "PUT");
	curl_easy_setopt(c, CURLOPT_WRITEDATA, sink);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1024L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 60L);
	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	if (rc != CURLE_OK)
		snprintf(err, errlen, "PUT %s: %s", url, curl_easy_strerror(rc));
	else if (*status != 200 && *status != 201)
		snprintf(err, errlen, "PUT image %s: HTTP %ld", key, *status);
	else
		ret = 0;
out:
	if (sink)
		fclose(sink);
	curl_mime_free(mime);
	curl_slist_free_all(h);
	if (c)
		curl_easy_cleanup(c);
	return ret;
}
