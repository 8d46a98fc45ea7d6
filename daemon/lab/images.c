// SPDX-License-Identifier: MIT
/*
 * The image store: uploads streamed to temporary files and renamed into
 * place, downloads by key and file, collection by age and need.
 */
#include <dirent.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "daemon/lab/builds.h"
#include "daemon/lab/images.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/json.h"
#include "daemon/store/writer.h"

/* Say why in @err; return @status. */
static int refuse(char *err, size_t errlen, int status, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int refuse(char *err, size_t errlen, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return status;
}

struct image_upload {
	struct image_store *s;
	char key[65], digest[65];
	char tmp[PATH_MAX + 64];
	int cur;			/* part being written, -1 none */
	int fd;
	EVP_MD_CTX *md;
	bool seen[KIMAGE_NFILES];
	struct kimage_manifest_file f[KIMAGE_NFILES];
	uint64_t total;
	bool dead, stored;
};

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path) && errno != ENOENT ? -1 : 0;
}

static int rm_rf(const char *path)
{
	return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS) &&
	       errno != ENOENT ? -1 : 0;
}

static void rand_hex(char *out, size_t bytes)
{
	unsigned char r[32];

	if (bytes > sizeof(r) || RAND_bytes(r, (int)bytes) != 1)
		memset(r, 0x5a, sizeof(r));
	for (size_t i = 0; i < bytes; i++)
		sprintf(out + 2 * i, "%02x", r[i]);
}

static bool has_row(sqlite3 *db, const char *key)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT 1 FROM images WHERE key = ?");
	bool yes = true;	/* on error: keep the files */

	if (!st)
		return yes;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

int images_init(struct image_store *s, const char *dir, uint64_t max_body,
		int64_t max_age, sqlite3 *db, char *err, size_t errlen)
{
	char tmp[PATH_MAX + 8], path[PATH_MAX + 80];
	struct dirent *e;
	DIR *d;

	memset(s, 0, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	s->max_body = max_body ? max_body : IMAGES_DEFAULT_MAX_BODY;
	s->max_age = max_age > 0 ? max_age : IMAGES_DEFAULT_MAX_AGE;
	/* The first collection a while after start: runners that were
	 * restarted with the daemon claim again first. */
	s->next_gc = time(NULL) + 600;
	snprintf(tmp, sizeof(tmp), "%s/.tmp", dir);
	if ((mkdir(dir, 0755) && errno != EEXIST) ||
	    (rm_rf(tmp), mkdir(tmp, 0700) && errno != EEXIST)) {
		snprintf(err, errlen, "image directory %s: %s", dir,
			 strerror(errno));
		return -1;
	}
	d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "image directory %s: %s", dir,
			 strerror(errno));
		return -1;
	}
	/* Renamed into place, then the daemon died before the commit. */
	while ((e = readdir(d))) {
		if (!kimage_is_hex64(e->d_name) || has_row(db, e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		rm_rf(path);
	}
	closedir(d);
	return 0;
}

/* ---- upload ---------------------------------------------------------- */

int images_upload_begin(struct image_store *s, const char *key,
			const char *digest, struct image_upload **out,
			char *err, size_t errlen)
{
	struct image_upload *u;
	char r[33];

	*out = NULL;
	if (!kimage_is_hex64(key))
		return refuse(err, errlen, 422, "the image key must be 64"
				" lower-case hex digits");
	if (!kimage_is_hex64(digest))
		return refuse(err, errlen, 422, "'sha256' (the image digest, 64"
				" lower-case hex digits) is required");
	u = calloc(1, sizeof(*u));
	if (!u)
		return -1;
	u->s = s;
	u->cur = -1;
	u->fd = -1;
	snprintf(u->key, sizeof(u->key), "%s", key);
	snprintf(u->digest, sizeof(u->digest), "%s", digest);
	rand_hex(r, 16);
	snprintf(u->tmp, sizeof(u->tmp), "%s/.tmp/%s", s->dir, r);
	if (mkdir(u->tmp, 0755)) {
		snprintf(err, errlen, "upload directory: %s", strerror(errno));
		free(u);
		return -1;
	}
	*out = u;
	return 0;
}

static int close_part(struct image_upload *u)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	int ret = 0;

	if (u->cur < 0)
		return 0;
	if (!EVP_DigestFinal_ex(u->md, md, &n) || n != 32)
		ret = -1;
	for (unsigned int i = 0; i < n && i < 32; i++)
		sprintf(u->f[u->cur].sha256 + 2 * i, "%02x", md[i]);
	EVP_MD_CTX_free(u->md);
	u->md = NULL;
	if (fsync(u->fd) || close(u->fd))
		ret = -1;
	u->fd = -1;
	u->cur = -1;
	return ret;
}

static int open_part(struct image_upload *u, int i, char *err, size_t errlen)
{
	char path[PATH_MAX + 128];

	if (u->seen[i])
		return refuse(err, errlen, 422, "part '%s' appears twice",
				kimage_files[i].name);
	if (close_part(u))
		return refuse(err, errlen, -1, "writing the upload: %s",
				strerror(errno));
	snprintf(path, sizeof(path), "%s/%s", u->tmp, kimage_files[i].name);
	u->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	u->md = EVP_MD_CTX_new();
	if (u->fd < 0 || !u->md || !EVP_DigestInit_ex(u->md, EVP_sha256(), NULL))
		return refuse(err, errlen, -1, "writing the upload: %s",
				strerror(errno));
	u->seen[i] = true;
	u->cur = i;
	return 0;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int images_upload_part(struct image_upload *u, const char *name,
		       const char *data, size_t len, uint64_t off,
		       char *err, size_t errlen)
{
	int i = kimage_file_index(name), rc;

	if (u->dead)
		return refuse(err, errlen, 422, "upload refused earlier");
	rc = 422;
	if (i < 0) {
		snprintf(err, errlen, "unknown part '%s' (an image has bzImage,"
			 " System.map, config and meta)", name ? name : "");
		goto dead;
	}
	if (i != u->cur) {
		rc = off ? (snprintf(err, errlen, "part '%s' continues after"
				     " another part", name), 422) :
			   open_part(u, i, err, errlen);
		if (rc)
			goto dead;
	}
	if (off != u->f[i].size) {
		rc = refuse(err, errlen, 422, "part '%s': data out of order", name);
		goto dead;
	}
	if (u->f[i].size + len > kimage_files[i].max ||
	    u->total + len > u->s->max_body) {
		rc = refuse(err, errlen, 413, "part '%s' is larger than %llu bytes",
			      name, (unsigned long long)(u->total + len >
					u->s->max_body ? u->s->max_body :
					kimage_files[i].max));
		goto dead;
	}
	if (len && (write_all(u->fd, data, len) ||
		    !EVP_DigestUpdate(u->md, data, len))) {
		rc = refuse(err, errlen, -1, "writing the upload: %s",
			      strerror(errno));
		goto dead;
	}
	u->f[i].size += len;
	u->total += len;
	return 0;
dead:
	u->dead = true;
	return rc;
}

uint64_t images_upload_bytes(const struct image_upload *u)
{
	return u->total;
}

/* meta's key=value lines as JSON (seconds a number; commit null when none). */
static json_t *meta_json(const char *path)
{
	static const char *const keys[] = { "release", "build_id", "seconds",
		"commit", NULL };
	char line[512];
	json_t *o = json_object();
	FILE *f = fopen(path, "re");

	while (f && fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '='), *v;

		line[strcspn(line, "\r\n")] = '\0';
		if (!eq)
			continue;
		*eq = '\0';
		v = eq + 1;
		for (int i = 0; keys[i]; i++) {
			if (strcmp(line, keys[i]))
				continue;
			if (!strcmp(keys[i], "seconds"))
				json_object_set_new(o, keys[i], json_real(atof(v)));
			else
				json_object_set_new(o, keys[i],
					json_string_lossy(v, strlen(v)));
		}
	}
	if (f)
		fclose(f);
	if (!json_object_get(o, "commit") ||
	    !json_string_length(json_object_get(o, "commit")))
		json_object_set_new(o, "commit", json_null());
	return o;
}

static json_t *files_json(const struct kimage_manifest_file *f)
{
	json_t *a = json_array();

	for (int i = 0; i < KIMAGE_NFILES; i++)
		json_array_append_new(a, json_pack("{s:s,s:I,s:s}", "name",
				      kimage_files[i].name, "size",
				      (json_int_t)f[i].size, "sha256", f[i].sha256));
	return a;
}

/* 0 same digest stored, 1 none, 409 another, -1 error. */
static int existing(sqlite3 *db, const char *key, const char *digest)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT sha256 FROM images WHERE key = ?");
	int rc = 1;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		rc = strcmp((const char *)sqlite3_column_text(st, 0), digest) ? 409 : 0;
	sqlite3_finalize(st);
	return rc;
}

static int insert_row(sqlite3 *w, const struct image_upload *u,
		      const struct image_uploader *who, json_t *meta, time_t now)
{
	char *files = json_dumps(files_json(u->f), JSON_COMPACT | JSON_REAL_PRECISION(10));
	char *m = json_dumps(meta, JSON_COMPACT);
	sqlite3_stmt *st = db_prepare(w, "INSERT INTO images (key, sha256, size,"
				      " files, meta, host_id, key_id, created_at,"
				      " last_used_at) VALUES (?,?,?,?,?,?,?,?,?8)");
	int rc = -1;

	if (st && files && m) {
		sqlite3_bind_text(st, 1, u->key, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, u->digest, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, (int64_t)u->total);
		sqlite3_bind_text(st, 4, files, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, m, -1, SQLITE_STATIC);
		if (who->host_id > 0)
			sqlite3_bind_int64(st, 6, who->host_id);
		if (who->key_id > 0)
			sqlite3_bind_int64(st, 7, who->key_id);
		sqlite3_bind_int64(st, 8, (int64_t)now);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	}
	sqlite3_finalize(st);
	free(files);
	free(m);
	return rc;
}

/* Move @path out of the way into .tmp (removed by the caller or at start). */
static int set_aside(struct image_store *s, const char *path, char *aside,
		     size_t len)
{
	char r[33];

	rand_hex(r, 16);
	snprintf(aside, len, "%s/.tmp/old-%s", s->dir, r);
	return rename(path, aside);
}

/* Under the writer: record the checked upload. */
static int record(struct image_upload *u, sqlite3 *w,
		  const struct image_uploader *who, json_t *meta, time_t now,
		  char *err, size_t errlen)
{
	char dst[PATH_MAX + 80], aside[PATH_MAX + 80] = "";
	int rc;

	if (db_begin(w))
		return refuse(err, errlen, -1, "database: %s", sqlite3_errmsg(w));
	rc = existing(w, u->key, u->digest);
	if (rc == 409)
		snprintf(err, errlen, "image %s is stored with another digest;"
			 " an image is never overwritten", u->key);
	if (rc <= 0 || rc == 409)
		goto out;
	rc = builds_check_upload(w, u->key, who->host_id, who->admin, now, err,
				 errlen);
	if (rc)
		goto out;
	snprintf(dst, sizeof(dst), "%s/%s", u->s->dir, u->key);
	/* A directory without a row: a crash between rename and commit. */
	if (!access(dst, F_OK) && set_aside(u->s, dst, aside, sizeof(aside))) {
		rc = refuse(err, errlen, -1, "%s: %s", dst, strerror(errno));
		goto out;
	}
	if (rename(u->tmp, dst)) {
		rc = refuse(err, errlen, -1, "%s: %s", dst, strerror(errno));
		goto out;
	}
	if (insert_row(w, u, who, meta, now) ||
	    builds_mark_uploaded(w, u->key, who->host_id, now) || db_commit(w)) {
		snprintf(err, errlen, "database: %s", sqlite3_errmsg(w));
		rename(dst, u->tmp);
		rc = -1;
		goto out;
	}
	u->stored = true;
	rc = 201;
out:
	if (rc != 201)
		db_rollback(w);
	if (aside[0])
		rm_rf(aside);
	return rc;
}

int images_upload_finish(struct image_upload *u, sqlite3 *db,
			 const struct image_uploader *who, time_t now,
			 json_t **answer, char *err, size_t errlen)
{
	char digest[65], path[PATH_MAX + 128];
	json_t *meta;
	sqlite3 *w;
	int rc;

	*answer = NULL;
	if (u->dead)
		return refuse(err, errlen, 422, "upload refused");
	if (close_part(u))
		return refuse(err, errlen, -1, "writing the upload: %s",
				strerror(errno));
	for (int i = 0; i < KIMAGE_NFILES; i++)
		if (!u->seen[i])
			return refuse(err, errlen, 422, "part '%s' is missing (an"
					" image has bzImage, System.map, config"
					" and meta)", kimage_files[i].name);
	if (kimage_digest(u->key, u->f, NULL, digest))
		return -1;
	if (strcmp(digest, u->digest))
		return refuse(err, errlen, 422, "digest mismatch: the parts"
			      " hash to %s, not %s; nothing stored", digest,
			      u->digest);
	snprintf(path, sizeof(path), "%s/meta", u->tmp);
	meta = meta_json(path);
	w = db_write_lock(db);
	rc = record(u, w, who, meta, now, err, errlen);
	db_write_unlock(db, w);
	json_decref(meta);
	if (rc == 201 || rc == 0) {
		*answer = json_pack("{s:s,s:s,s:I}", "key", u->key, "sha256",
				    u->digest, "size", (json_int_t)u->total);
		if (rc == 0)
			json_object_set_new(*answer, "existing", json_true());
		if (rc == 201)
			atomic_fetch_add(&u->s->uploads, 1);
		return rc == 201 ? 201 : 200;
	}
	return rc;
}

void images_upload_free(struct image_upload *u)
{
	if (!u)
		return;
	if (u->fd >= 0)
		close(u->fd);
	EVP_MD_CTX_free(u->md);
	if (!u->stored)
		rm_rf(u->tmp);
	free(u);
}

/* ---- download -------------------------------------------------------- */

/* The size and sha256 of @file in @key's row; 0, 404 or -1. */
static int file_entry(sqlite3 *db, const char *key, int idx,
		      struct image_fileref *f)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT j.value ->> 'size',"
				      " j.value ->> 'sha256' FROM images,"
				      " json_each(images.files) j WHERE"
				      " images.key = ? AND j.value ->> 'name' = ?");
	int rc = 404;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, kimage_files[idx].name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		f->size = (uint64_t)sqlite3_column_int64(st, 0);
		snprintf(f->sha256, sizeof(f->sha256), "%s",
			 (const char *)sqlite3_column_text(st, 1));
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

int images_open(struct image_store *s, sqlite3 *db, const char *key,
		const char *file, struct image_fileref *f)
{
	char path[PATH_MAX + 96];
	struct stat sb;
	int idx = kimage_file_index(file), rc;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	if (idx < 0 || !kimage_is_hex64(key))
		return 404;
	rc = file_entry(db, key, idx, f);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/%s/%s", s->dir, key, file);
	f->fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (f->fd < 0)
		return errno == ENOENT ? 404 : -1;
	if (fstat(f->fd, &sb) || !S_ISREG(sb.st_mode) ||
	    (uint64_t)sb.st_size != f->size) {
		close(f->fd);
		f->fd = -1;
		return -1;
	}
	f->index = idx;
	return 0;
}

void images_count_download(struct image_store *s, const struct image_fileref *f,
			   uint64_t bytes)
{
	atomic_fetch_add(&s->downloads[f->index], 1);
	atomic_fetch_add(&s->download_bytes, bytes);
}

static const char manifest_sql[] =
	"SELECT i.key, i.sha256, i.size, i.files AS files_json,"
	" i.meta AS meta_json, h.name AS host, i.created_at, i.last_used_at"
	" FROM images i LEFT JOIN hosts h ON h.id = i.host_id";

json_t *images_manifest_json(sqlite3 *db, const char *key, time_t now)
{
	char sql[512];
	sqlite3_stmt *st;
	json_t *o = NULL;
	int need;

	(void)now;
	snprintf(sql, sizeof(sql), "%s WHERE i.key = ?", manifest_sql);
	st = db_prepare(db, sql);
	if (!st)
		return NULL;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		o = json_row(st);
	sqlite3_finalize(st);
	if (!o)
		return NULL;
	need = builds_key_needed(db, key);
	json_object_set_new(o, "needed", json_boolean(need > 0));
	return o;
}

json_t *images_list_json(sqlite3 *db, int limit)
{
	char sql[512];
	sqlite3_stmt *st;
	json_t *a, *o;
	size_t i;
	int64_t n = 0, bytes = 0;

	snprintf(sql, sizeof(sql), "%s ORDER BY i.created_at DESC, i.key"
		 " LIMIT %d", manifest_sql, limit > 0 && limit <= 500 ? limit : 500);
	st = db_prepare(db, sql);
	if (!st)
		return NULL;
	a = json_rows(st);
	sqlite3_finalize(st);
	if (!a || images_stats(db, &n, &bytes)) {
		json_decref(a);
		return NULL;
	}
	json_array_foreach(a, i, o)
		json_object_del(o, "files");
	return json_pack("{s:o,s:I,s:I}", "images", a, "count", (json_int_t)n,
			 "bytes", (json_int_t)bytes);
}

int images_stats(sqlite3 *db, int64_t *count, int64_t *bytes)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT count(*), coalesce(sum(size), 0)"
				      " FROM images");
	int rc = -1;

	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*count = sqlite3_column_int64(st, 0);
		*bytes = sqlite3_column_int64(st, 1);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

/* ---- removal --------------------------------------------------------- */

/* Under the writer: the row goes, then the files are set aside. */
static int remove_one(struct image_store *s, sqlite3 *w, const char *key,
		      int64_t used_before, int64_t *freed)
{
	char dir[PATH_MAX + 80], aside[PATH_MAX + 80];
	sqlite3_stmt *st;
	int rc = -1;

	if (db_begin(w))
		return -1;
	/* Not if a claim handed it out since the GC looked. */
	st = db_prepare(w, "DELETE FROM images WHERE key = ? AND last_used_at < ?"
			" RETURNING size");
	if (!st)
		goto out;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, used_before);
	rc = sqlite3_step(st) == SQLITE_ROW ? 0 : 404;
	if (!rc && freed)
		*freed += sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc || db_commit(w)) {
		rc = rc ? rc : -1;
		goto out;
	}
	snprintf(dir, sizeof(dir), "%s/%s", s->dir, key);
	if (!set_aside(s, dir, aside, sizeof(aside)))
		rm_rf(aside);
	return 0;
out:
	db_rollback(w);
	return rc;
}

int images_delete(struct image_store *s, sqlite3 *db, const char *key,
		  bool force, time_t now, char *err, size_t errlen)
{
	sqlite3 *w;
	int rc;

	(void)now;
	if (!kimage_is_hex64(key))
		return refuse(err, errlen, 404, "no such image");
	if (!force && builds_key_needed(db, key) > 0)
		return refuse(err, errlen, 409, "an unfinished experiment needs"
				" image %s (?force=1 removes it anyway)", key);
	w = db_write_lock(db);
	rc = remove_one(s, w, key, INT64_MAX, NULL);
	db_write_unlock(db, w);
	if (rc == 404)
		snprintf(err, errlen, "no such image");
	return rc ? rc : 200;
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(a, b);
}

int images_gc(struct image_store *s, sqlite3 *db, int64_t max_age,
	      time_t now, struct images_gc_result *r)
{
	char (*needed)[65] = NULL, (*old)[65] = NULL;
	size_t nneeded = 0, nold = 0, cap = 0;
	sqlite3_stmt *st;
	sqlite3 *w;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (max_age < 0)
		max_age = s->max_age;
	st = db_prepare(db, "SELECT key FROM images WHERE last_used_at < ?");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)now - max_age);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (nold == cap) {
			void *p = realloc(old, (cap = cap ? 2 * cap : 64) * 65);

			if (!p)
				goto out;
			old = p;
		}
		snprintf(old[nold++], 65, "%s", sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	st = NULL;
	/* Needed now: computed after the candidates, so a job queued in
	 * between is seen. */
	if (nold && builds_needed_keys(db, &needed, &nneeded))
		goto out;
	w = db_write_lock(db);
	for (size_t i = 0; i < nold; i++) {
		if (bsearch(old[i], needed, nneeded, 65, cmp_key))
			continue;
		if (remove_one(s, w, old[i], (int64_t)now - max_age,
			       &r->bytes_freed) == 0)
			r->removed++;
	}
	db_write_unlock(db, w);
	rc = images_stats(db, &r->kept, &r->bytes);
out:
	sqlite3_finalize(st);
	free(old);
	free(needed);
	return rc;
}

void images_gc_tick(struct image_store *s, sqlite3 *db, time_t now)
{
	struct images_gc_result r;

	if (!s->dir[0] || now < s->next_gc)
		return;
	s->next_gc = now + 3600;
	if (!images_gc(s, db, -1, now, &r) && r.removed)
		fprintf(stderr, "perflabd: image GC removed %lld images"
			" (%lld bytes), kept %lld\n", (long long)r.removed,
			(long long)r.bytes_freed, (long long)r.kept);
}
