// SPDX-License-Identifier: MIT
/*
 * Description: patch_parse accepts every .patch file in kernel-patches/ as
 * exactly one git format-patch email with a subject, an author, files
 * under block/ or io_uring/ with hunks, and raw bytes equal to the file.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/patch_parse.h"
#include "unit/check.h"

#define DIR_PATH "kernel-patches"

static int check_one(const char *path)
{
	struct patch_series s;
	const struct patch *p;
	char err[256];
	size_t len;
	char *buf = slurp(path, &len);
	int i, bad = 0;

	if (!buf) {
		printf("%s: cannot read\n", path);
		return 1;
	}
	if (patch_parse(buf, len, &s, err, sizeof(err))) {
		printf("%s: rejected: %s\n", path, err);
		free(buf);
		return 1;
	}
	p = &s.patches[0];
	if (s.n != 1 || !p->subject[0] || !p->author[0] || !p->date[0] ||
	    p->nfiles < 1 || p->raw_len != len || memcmp(p->raw, buf, len)) {
		printf("%s: n=%d subject='%s' author='%s' nfiles=%d\n", path,
		       s.n, s.n ? p->subject : "", s.n ? p->author : "",
		       s.n ? p->nfiles : 0);
		bad = 1;
	}
	for (i = 0; !bad && i < p->nfiles; i++) {
		const struct patch_file *f = &p->files[i];

		if (f->hunks < 1 || (strncmp(f->new_path, "block/", 6) &&
				     strncmp(f->new_path, "io_uring/", 9))) {
			printf("%s: unexpected file %s (%d hunks)\n", path,
			       f->new_path, f->hunks);
			bad = 1;
		}
	}
	if (!bad)
		printf("ok %s: \"%s\", %d file(s), sha256 %.12s\n", path,
		       p->subject, p->nfiles, p->sha256);
	patch_series_free(&s);
	free(buf);
	return bad;
}

int main(void)
{
	char path[512];
	struct dirent *de;
	int n = 0, bad = 0;
	size_t l;
	DIR *d;

	d = opendir(DIR_PATH);
	if (!d) {
		printf("cannot open %s (run from the repository root)\n",
		       DIR_PATH);
		return 1;
	}
	while ((de = readdir(d))) {
		l = strlen(de->d_name);
		if (l < 7 || strcmp(de->d_name + l - 6, ".patch"))
			continue;
		snprintf(path, sizeof(path), DIR_PATH "/%s", de->d_name);
		bad += check_one(path);
		n++;
	}
	closedir(d);
	if (n < 4) {
		printf("expected at least 4 kernel patches, found %d\n", n);
		return 1;
	}
	return bad ? 1 : 0;
}
