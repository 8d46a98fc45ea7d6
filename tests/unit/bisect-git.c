// SPDX-License-Identifier: MIT
/*
 * Description: bisection agrees with `git bisect run` itself. On a
 * synthetic repository of 12 commits (c0 good .. c11 bad), for every
 * culprit position and for several sets of commits that "do not build"
 * (the run script exits 125, as `git bisect skip`), git's answer ("X is
 * the first bad commit", or "could be any of" a list) is the same commit
 * or the same set as bisect_next()'s culprit or range. Skips (77) without
 * git.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/analysis/bisect.h"
#include "unit/check.h"

#define N 12

static char dir[64] = "/tmp/perflab-bisect-git.XXXXXX";
static char sha[N][41];

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[4096], full[4400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	snprintf(full, sizeof(full), "cd %s && env -i PATH=\"$PATH\" HOME=%s"
		 " GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t"
		 " GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t sh -c '%s'",
		 dir, dir, cmd);
	return system(full);
}

static int make_repo(void)
{
	FILE *f;

	if (sh("git init -q -b master repo >/dev/null 2>&1"))
		return -1;
	for (int i = 0; i < N; i++) {
		char path[128];

		if (sh("cd repo && echo %d > v && git add v && git commit -q -m c%d"
		       " && git rev-parse HEAD > ../sha%d", i, i, i))
			return -1;
		snprintf(path, sizeof(path), "%s/sha%d", dir, i);
		f = fopen(path, "r");
		if (!f || !fgets(sha[i], sizeof(sha[i]), f))
			return -1;
		sha[i][40] = '\0';
		fclose(f);
	}
	return 0;
}

static int index_of(const char *s)
{
	for (int i = 0; i < N; i++)
		if (!strncmp(sha[i], s, 40))
			return i;
	return -1;
}

/* git's answer as a bit set of commit indices (first bad or candidates). */
static unsigned git_answer(int culprit, unsigned skip)
{
	char line[256], path[128], list[128] = "";
	unsigned set = 0;
	FILE *f;

	for (int i = 1; i < N - 1; i++)
		if (skip & (1u << i))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), " %d", i);
	if (sh("cd repo && git bisect reset -q >/dev/null 2>&1; git bisect start"
	       " %s %s >/dev/null 2>&1 && git bisect run sh -c \"i=\\$(cat v);"
	       " case \\\" %s \\\" in *\\\" \\$i \\\"*) exit 125;; esac;"
	       " [ \\$i -lt %d ]\" > ../out 2>&1; git bisect reset -q >/dev/null 2>&1",
	       sha[N - 1], sha[0], list, culprit) < 0)
		return 0;
	snprintf(path, sizeof(path), "%s/out", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		int any = strstr(line, "could be any of") != NULL;

		if (strstr(line, " is the first bad commit")) {
			int i = index_of(line);

			if (i >= 0)
				set |= 1u << i;
		}
		while (any && fgets(line, sizeof(line), f)) {
			int i = index_of(line);

			if (i < 0)
				break;
			set |= 1u << i;
		}
	}
	fclose(f);
	return set;
}

static unsigned ours(int culprit, unsigned skip)
{
	enum bisect_state s[N];
	struct bisect_step st;
	unsigned set = 0;

	for (int i = 0; i < N; i++)
		s[i] = BISECT_UNTESTED;
	s[0] = BISECT_GOOD;
	s[N - 1] = BISECT_BAD;
	while ((st = bisect_next(s, N)).result == BISECT_TEST)
		s[st.index] = (skip & (1u << st.index)) ? BISECT_SKIP :
			      (int)st.index >= culprit ? BISECT_BAD : BISECT_GOOD;
	if (st.result == BISECT_FOUND)
		return 1u << st.index;
	if (st.result == BISECT_RANGE)
		for (size_t i = st.lo + 1; i <= st.hi; i++)
			set |= 1u << i;
	return set;
}

int main(void)
{
	static const unsigned skips[] = { 0, 1u << 5,
		(1u << 3) | (1u << 4) | (1u << 5) | (1u << 7),
		0x7fe /* everything between */ };

	if (system("git --version >/dev/null 2>&1")) {
		printf("git is not installed\n");
		return 77;
	}
	if (!mkdtemp(dir) || make_repo()) {
		printf("cannot make the test repository in %s\n", dir);
		return 1;
	}
	for (size_t k = 0; k < sizeof(skips) / sizeof(skips[0]); k++)
		for (int c = 1; c < N; c++) {
			unsigned g = git_answer(c, skips[k]), o = ours(c, skips[k]);

			CHECK(g && g == o, "culprit %d skip %#x: git %#x, ours %#x", c,
			      skips[k], g, o);
		}
	sh("cd / && rm -rf %s", dir);
	DONE();
}
