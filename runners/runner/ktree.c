// SPDX-License-Identifier: MIT
/*
 * ktree: worktree as a hard-link farm of the pristine tree, and a reset
 * that compares the two trees instead of trusting what a patch declared.
 * Every access below the roots is an *at() call with AT_SYMLINK_NOFOLLOW
 * or O_NOFOLLOW: the worktree's directories belong to the build user and
 * anything in them may have been replaced by a link.
 */
#include "runners/runner/ktree.h"
#include "runners/runner/rutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DEPTH 256 /* the kernel tree is < 20 deep */

struct rec {
	char *path;
	ino_t ino;
	int keep;
};

struct recs {
	struct rec *v;
	size_t n, cap;
};

struct walk {
	const struct ktree *t;
	struct ktree_stats st;
	struct recs old, fresh; /* copies made earlier / by this walk */
	int farm; /* making the farm: link where safe */
	/*
	 * Reset: the last reset's end (mtime of @copies).  Every build in
	 * this tree ran before it, so a pristine entry modified after it
	 * (the base moved to another commit) is newer than every object:
	 * linking it rebuilds what depends on it, like a fresh copy would.
	 */
	struct timespec since;
	int relink;
	char *msg;
};

static int err_at(struct walk *w, const char *what, const char *rel)
{
	if (!w->msg)
		w->msg = rutil_strdupf("%s %s: %s", what, rel[0] ? rel : ".",
				       strerror(errno));
	return -1;
}

static int rec_cmp(const void *a, const void *b)
{
	return strcmp(((const struct rec *)a)->path,
		      ((const struct rec *)b)->path);
}

static int rec_add(struct recs *r, const char *path, ino_t ino)
{
	struct rec *nv;

	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		nv = realloc(r->v, r->cap * sizeof(*nv));
		if (!nv)
			return -1;
		r->v = nv;
	}
	r->v[r->n].path = strdup(path);
	r->v[r->n].ino = ino;
	r->v[r->n].keep = 0;
	if (!r->v[r->n].path)
		return -1;
	r->n++;
	return 0;
}

static void recs_free(struct recs *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].path);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/* "INO PATH" lines; a missing or odd file only costs rebuilds. */
static void recs_load(struct walk *w)
{
	char *text = rutil_read_file(w->t->copies, NULL), *save, *l, *sp;

	for (l = text ? strtok_r(text, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		sp = strchr(l, ' ');
		if (sp && rec_add(&w->old, sp + 1, strtoull(l, NULL, 10)))
			break;
	}
	free(text);
	qsort(w->old.v, w->old.n, sizeof(*w->old.v), rec_cmp);
}

static int recs_save(struct walk *w)
{
	char *text = strdup(""), *t;
	struct recs *r[2] = { &w->old, &w->fresh };
	int ret;

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < r[k]->n && text; i++) {
			if (!k && !r[k]->v[i].keep)
				continue;
			t = rutil_strdupf("%s%llu %s\n", text,
					  (unsigned long long)r[k]->v[i].ino,
					  r[k]->v[i].path);
			free(text);
			text = t;
		}
	ret = text ? rutil_write_file(w->t->copies, text, strlen(text)) : -1;
	free(text);
	return ret ? err_at(w, "writing", w->t->copies) : 0;
}

static struct rec *rec_find(struct walk *w, const char *rel)
{
	struct rec key = { .path = (char *)rel };

	if (!w->old.n)
		return NULL;
	return bsearch(&key, w->old.v, w->old.n, sizeof(key), rec_cmp);
}

static int rm_at(struct walk *w, int dfd, const char *name, int depth)
{
	struct dirent *e;
	struct stat st;
	DIR *d;
	int fd;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : err_at(w, "stat", name);
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dfd, name, 0) ? err_at(w, "unlink", name) : 0;
	if (depth > MAX_DEPTH) {
		errno = ELOOP;
		return err_at(w, "removing", name);
	}
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return err_at(w, "opendir", name);
	}
	fchmod(fd, 0700); /* a build user's 0000 dir */
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    rm_at(w, fd, e->d_name, depth + 1)) {
			closedir(d);
			return -1;
		}
	closedir(d);
	return unlinkat(dfd, name, AT_REMOVEDIR) ? err_at(w, "rmdir", name) : 0;
}

static int copy_fd(int in, int out)
{
	char buf[65536];
	ssize_t r, o;

	while ((r = read(in, buf, sizeof(buf))) > 0)
		for (char *p = buf; r > 0; p += o, r -= o) {
			o = write(out, p, (size_t)r);
			if (o < 0)
				return -1;
		}
	return r < 0 ? -1 : 0;
}

/* A fresh root-owned copy of a pristine file or link (new mtime). */
static int copy_at(struct walk *w, int pfd, int dfd, const char *name,
		   const struct stat *ps, const char *rel)
{
	char target[4096];
	struct stat st;
	ssize_t n;
	int in, out, ret;

	if (S_ISLNK(ps->st_mode)) {
		n = readlinkat(pfd, name, target, sizeof(target) - 1);
		if (n < 0)
			return err_at(w, "readlink", rel);
		target[n] = 0;
		if (symlinkat(target, dfd, name))
			return err_at(w, "symlink", rel);
	} else {
		in = openat(pfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (in < 0)
			return err_at(w, "open", rel);
		out = openat(dfd, name,
			     O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				     O_CLOEXEC,
			     ps->st_mode & 0755);
		ret = out < 0 ? -1 : copy_fd(in, out);
		if (out >= 0 && (fchmod(out, ps->st_mode & 0755) || close(out)))
			ret = -1;
		close(in);
		if (ret)
			return err_at(w, "copying", rel);
	}
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) ||
	    rec_add(&w->fresh, rel, st.st_ino))
		return err_at(w, "recording", rel);
	w->st.restored++;
	return 0;
}

/* Can the build user write this pristine inode?  Then never link it. */
static int writable_by_build(const struct walk *w, const struct stat *ps)
{
	if (S_ISLNK(ps->st_mode))
		return 0; /* a link's target cannot be rewritten */
	return ps->st_uid == w->t->uid || ps->st_uid != 0 ||
	       (ps->st_mode & 0022);
}

static int put_entry(struct walk *w, int pfd, int dfd, const char *name,
		     const struct stat *ps, const char *rel);

/* Same content as the pristine entry (regular file or link)? */
static int same_content(int pfd, int dfd, const char *name,
			const struct stat *ps, const struct stat *ds)
{
	char a[65536], b[65536];
	ssize_t ra, rb;
	int fa, fb, same = 0;

	if (ps->st_size != ds->st_size)
		return 0;
	if (S_ISLNK(ps->st_mode)) {
		ra = readlinkat(pfd, name, a, sizeof(a));
		rb = readlinkat(dfd, name, b, sizeof(b));
		return ra >= 0 && ra == rb && !memcmp(a, b, (size_t)ra);
	}
	fa = openat(pfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	fb = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	while (fa >= 0 && fb >= 0) {
		ra = read(fa, a, sizeof(a));
		rb = read(fb, b, sizeof(b));
		if (ra < 0 || ra != rb || memcmp(a, b, (size_t)ra))
			break;
		if (ra == 0) {
			same = 1;
			break;
		}
	}
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

/* A worktree file or link that is not the pristine inode: root's copy? */
static int clean_copy(struct walk *w, int pfd, int dfd, const char *name,
		      const struct stat *ps, const struct stat *ds,
		      const char *rel)
{
	struct rec *r = rec_find(w, rel);

	if (!r || r->ino != ds->st_ino || ds->st_uid != geteuid() ||
	    (S_ISREG(ds->st_mode) && (ds->st_mode & 0022)) ||
	    !same_content(pfd, dfd, name, ps, ds))
		return 0;
	r->keep = 1;
	return 1;
}

static int walk_dir(struct walk *w, int pfd, int dfd, const char *rel,
		    int depth);

static int check_entry(struct walk *w, int pfd, int dfd, const char *name,
		       const char *rel, int depth)
{
	struct stat ps, ds;

	if (fstatat(pfd, name, &ps, AT_SYMLINK_NOFOLLOW))
		return err_at(w, "stat pristine", rel);
	if (!S_ISDIR(ps.st_mode) && !S_ISREG(ps.st_mode) &&
	    !S_ISLNK(ps.st_mode))
		return 0;
	w->st.entries++;
	if (fstatat(dfd, name, &ds, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT)
			return err_at(w, "stat", rel);
		return put_entry(w, pfd, dfd, name, &ps, rel);
	}
	if ((ps.st_mode & S_IFMT) == (ds.st_mode & S_IFMT)) {
		if (S_ISDIR(ps.st_mode)) {
			int a = openat(pfd, name,
				       O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					       O_CLOEXEC);
			int b = openat(dfd, name,
				       O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					       O_CLOEXEC);
			int ret = a < 0 || b < 0 ?
					  err_at(w, "opendir", rel) :
					  walk_dir(w, a, b, rel, depth + 1);

			if (a >= 0)
				close(a);
			if (b >= 0)
				close(b);
			return ret;
		}
		if (ds.st_ino == ps.st_ino && ds.st_dev == ps.st_dev)
			return 0;
		if (clean_copy(w, pfd, dfd, name, &ps, &ds, rel))
			return 0;
	}
	if (rm_at(w, dfd, name, depth))
		return -1;
	w->st.removed++;
	return put_entry(w, pfd, dfd, name, &ps, rel);
}

/* Create the pristine entry at dfd/name (absent now). */
static int newer(const struct walk *w, const struct stat *ps)
{
	return w->relink &&
	       (ps->st_mtim.tv_sec > w->since.tv_sec ||
		(ps->st_mtim.tv_sec == w->since.tv_sec &&
		 ps->st_mtim.tv_nsec > w->since.tv_nsec));
}

static int put_entry(struct walk *w, int pfd, int dfd, const char *name,
		     const struct stat *ps, const char *rel)
{
	int a, b, ret;

	if (!S_ISDIR(ps->st_mode)) {
		if ((w->farm || newer(w, ps)) && !writable_by_build(w, ps)) {
			if (!linkat(pfd, name, dfd, name, 0)) {
				w->st.restored += !w->farm;
				return 0;
			}
			if (errno != EXDEV) /* other fs: copies */
				return err_at(w, "link", rel);
		}
		return copy_at(w, pfd, dfd, name, ps, rel);
	}
	if (mkdirat(dfd, name, 0755))
		return err_at(w, "mkdir", rel);
	if (!w->farm)
		w->st.restored++;
	a = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	b = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	ret = a < 0 || b < 0 ? err_at(w, "opendir", rel) :
			       walk_dir(w, a, b, rel, 1);
	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
	return ret;
}

/* Worktree entries the pristine directory does not have. */
static int remove_extra(struct walk *w, int pfd, int dfd, int depth)
{
	struct recs extra = { 0 };
	struct dirent *e;
	struct stat st;
	int fd = dup(dfd), ret = 0;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return err_at(w, "opendir", "worktree");
	}
	while ((e = readdir(d)) && !ret) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(pfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			ret = rec_add(&extra, e->d_name, 0);
	}
	closedir(d);
	for (size_t i = 0; i < extra.n && !ret; i++) {
		ret = rm_at(w, dfd, extra.v[i].path, depth);
		w->st.removed++;
	}
	recs_free(&extra);
	return ret;
}

static int walk_dir(struct walk *w, int pfd, int dfd, const char *rel,
		    int depth)
{
	struct dirent *e;
	char sub[4096];
	int fd = dup(pfd), ret = 0;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (depth > MAX_DEPTH || !d) {
		if (fd >= 0 && !d)
			close(fd);
		if (d)
			closedir(d);
		errno = depth > MAX_DEPTH ? ELOOP : errno;
		return err_at(w, "walking", rel);
	}
	/* The build user owns the directories (patch renames in them). */
	if ((geteuid() == 0 && fchown(dfd, w->t->uid, w->t->gid)) ||
	    fchmod(dfd, 0755))
		ret = err_at(w, "chown", rel);
	while (!ret && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s%s%s", rel, rel[0] ? "/" : "",
			 e->d_name);
		ret = check_entry(w, pfd, dfd, e->d_name, sub, depth);
	}
	closedir(d);
	return ret ? ret : remove_extra(w, pfd, dfd, depth);
}

static int run(const struct ktree *t, int farm, struct ktree_stats *st,
	       char **msg)
{
	struct walk w = { .t = t, .farm = farm };
	struct stat cs;
	int pfd, dfd, ret;

	/* No record of the last reset: copies only, as always. */
	if (!farm && !lstat(t->copies, &cs) && S_ISREG(cs.st_mode)) {
		w.since = cs.st_mtim;
		w.relink = 1;
	}
	recs_load(&w);
	if (farm && mkdir(t->src, 0755)) {
		ret = err_at(&w, "mkdir", t->src);
		goto out;
	}
	pfd = open(t->pristine, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dfd = open(t->src, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	ret = pfd < 0 || dfd < 0 ?
		      err_at(&w, "open", pfd < 0 ? t->pristine : t->src) :
		      walk_dir(&w, pfd, dfd, "", 0);
	if (pfd >= 0)
		close(pfd);
	if (dfd >= 0)
		close(dfd);
	if (!ret)
		ret = recs_save(&w);
out:
	if (st)
		*st = w.st;
	*msg = w.msg;
	recs_free(&w.old);
	recs_free(&w.fresh);
	return ret;
}

int ktree_farm(const struct ktree *t, char **msg)
{
	unlink(t->copies);
	return run(t, 1, NULL, msg);
}

int ktree_reset(const struct ktree *t, struct ktree_stats *st, char **msg)
{
	return run(t, 0, st, msg);
}
