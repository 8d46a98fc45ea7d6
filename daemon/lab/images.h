/* SPDX-License-Identifier: MIT */
/*
 * The image store (docs/api.md "Kernel images"): kernel images uploaded
 * by the runner that built them, downloaded by every host that needs the
 * same key, collected when old and no longer needed.
 *
 * On disk, under the store's directory:
 *   <key>/bzImage, System.map, config, meta   a complete image
 *   .tmp/<random>/                            an upload in progress, or
 *                                             an image being removed
 * An image is renamed into place before its row is committed, and its row
 * removed before its files: a row always names complete files, and what a
 * crash leaves (a .tmp entry, a directory without a row) is removed by
 * images_init at the next start.
 *
 * Status numbers are HTTP's (201 stored, 200, 404, 409, 413, 422), -1 an
 * internal error; @err says why.
 */
#ifndef PERFLAB_IMAGES_H
#define PERFLAB_IMAGES_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <jansson.h>
#include "daemon/store/conn.h"

#include "common/kimage.h"

struct image_store {
	char dir[PATH_MAX];
	uint64_t max_body;	/* one upload, all parts */
	int64_t max_age;	/* GC: seconds since last use */
	time_t next_gc;
	/* /metrics counters */
	atomic_ullong uploads, download_bytes;
	atomic_ullong downloads[KIMAGE_NFILES];
};

#define IMAGES_DEFAULT_MAX_BODY (512ull << 20)
#define IMAGES_DEFAULT_MAX_AGE (30 * 86400)

/*
 * Create @dir if needed, remove what a crash left (.tmp, directories
 * without a row). @db may be a pool connection. 0 or -1 (@err).
 */
int images_init(struct image_store *s, const char *dir, uint64_t max_body,
		int64_t max_age, store_conn *db, char *err, size_t errlen);

/* ---- upload ---------------------------------------------------------- */

struct image_upload;

/* @key and @digest checked (422); the temporary directory made. */
int images_upload_begin(struct image_store *s, const char *key,
			const char *digest, struct image_upload **out,
			char *err, size_t errlen);
/*
 * @len bytes at @off of part @name (the parts come one after the other).
 * 0, or 413/422 with @err; after a refusal the upload is dead.
 */
int images_upload_part(struct image_upload *u, const char *name,
		       const char *data, size_t len, uint64_t off,
		       char *err, size_t errlen);
/* Bytes received so far (all parts). */
uint64_t images_upload_bytes(const struct image_upload *u);

struct image_uploader {
	int64_t host_id;	/* 0: none (admin keys) */
	int64_t key_id;
	bool admin;		/* may upload keys no one was told to build */
};

/*
 * The body is complete: check the parts and the digest, then record the
 * image (on the writer, db_write_lock(@db)). 201 stored, 200 the same
 * image was stored already, 409 another image has the key or another
 * host builds it, 422 parts or digest wrong; *answer (201/200) is
 * {"key", "sha256", "size"[, "existing"]}.
 */
int images_upload_finish(struct image_upload *u, store_conn *db,
			 const struct image_uploader *who, time_t now,
			 json_t **answer, char *err, size_t errlen);
/* Frees @u; removes its temporary files unless it was stored. */
void images_upload_free(struct image_upload *u);

/* ---- download -------------------------------------------------------- */

/*
 * An open file of a stored image, for a handler that serves it (the
 * runner's GET, or another kind of authenticated download): the caller
 * owns fd. The answer of images_open.
 */
struct image_fileref {
	int fd;
	uint64_t size;
	char sha256[65];
	int index;		/* in kimage_files */
};

/* 0 with @f filled, 404 unknown key or file, -1 error. */
int images_open(struct image_store *s, store_conn *db, const char *key,
		const char *file, struct image_fileref *f);
/* A download of @f was answered with @bytes of it (a range, or all). */
void images_count_download(struct image_store *s, const struct image_fileref *f,
			   uint64_t bytes);

/* The manifest object of docs/api.md, NULL if @key is unknown. */
json_t *images_manifest_json(store_conn *db, const char *key, time_t now);
/* {"images": [...], "count", "bytes"} newest first. */
json_t *images_list_json(store_conn *db, int limit);
/* Number of images and their bytes; -1 on error. */
int images_stats(store_conn *db, int64_t *count, int64_t *bytes);

/* ---- removal --------------------------------------------------------- */

/* 200 removed, 404, 409 an unfinished experiment needs it (!@force). */
int images_delete(struct image_store *s, store_conn *db, const char *key,
		  bool force, time_t now, char *err, size_t errlen);

struct images_gc_result {
	int64_t removed, bytes_freed, kept, bytes;
};
/*
 * Remove images last used before @now - @max_age (< 0: the store's) that
 * no unfinished experiment needs. 0 or -1.
 */
int images_gc(struct image_store *s, store_conn *db, int64_t max_age,
	      time_t now, struct images_gc_result *r);
/* images_gc when the hourly collection is due (the reaper's tick). */
void images_gc_tick(struct image_store *s, store_conn *db, time_t now);

#endif
