// SPDX-License-Identifier: MIT
/*
 * Description: the one patch-path parser (common/patch_paths) reads names
 * and modes the way GNU patch 2.7 does (tests/security/patch-modes.sh
 * shows GNU patch acting on each of these): symlink and gitlink modes on
 * index lines, after tabs and after garbage lines are refused; C-quoted
 * names with escapes are unquoted; every name on diff --git, ---/+++,
 * rename and copy lines must stay in the tree.  Both the daemon's
 * patch_parse() and the runner's pp_paths_of() refuse them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/patch_paths.h"
#include "daemon/analysis/patch_parse.h"
#include "unit/check.h"

#define HUNK "@@ -1 +1 @@\n-a\n+b\n"
#define NEWLINK "--- /dev/null\n+++ b/ln\n@@ -0,0 +1 @@\n+/etc\n"

static const struct {
	const char *name, *patch, *why;
} refused[] = {
	{ "mode on an index line",
	  "diff --git a/ln b/ln\nnew file mode 100644\n"
	  "index 0000000..1111111 120000\n" NEWLINK,
	  "symbolic links" },
	{ "tab before the mode",
	  "diff --git a/ln b/ln\nnew file mode \t120000\n" NEWLINK,
	  "symbolic links" },
	{ "tab instead of the space",
	  "diff --git a/ln b/ln\nnew file mode\t120000\n" NEWLINK,
	  "symbolic links" },
	{ "index mode after a tab",
	  "diff --git a/ln b/ln\nindex 0000000..1111111\t120000\n" NEWLINK,
	  "symbolic links" },
	{ "mode after a garbage line",
	  "diff --git a/ln b/ln\nfoo bar\nnew file mode 120000\n" NEWLINK,
	  "symbolic links" },
	{ "new mode", "diff --git a/f b/f\nold mode 100644\nnew mode 120000\n",
	  "symbolic links" },
	{ "old mode", "diff --git a/f b/f\nold mode 120000\nnew mode 100644\n",
	  "symbolic links" },
	{ "deleted file mode",
	  "diff --git a/f b/f\ndeleted file mode 120000\n"
	  "--- a/f\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n",
	  "symbolic links" },
	{ "gitlink",
	  "diff --git a/m b/m\nnew file mode 160000\n"
	  "index 0000000..1111111\n--- /dev/null\n+++ b/m\n"
	  "@@ -0,0 +1 @@\n+Subproject commit 1111111\n",
	  "submodules" },
	{ "device mode",
	  "diff --git a/f b/f\nold mode 100644\nnew mode 020644\n",
	  "only regular" },
	{ "malformed mode", "diff --git a/f b/f\nold mode 100644\nnew mode x\n",
	  "malformed" },
	{ "rename taken from the git line",
	  "diff --git a/f b/../esc\nsimilarity index 100%\n"
	  "rename from f\nrename to g\n",
	  "outside the tree" },
	{ "copy out", "diff --git a/f b/g\ncopy from f\ncopy to ../../g\n",
	  "outside the tree" },
	{ "quoted ..",
	  "diff --git \"a/../x\" \"b/../x\"\n--- \"a/../x\"\n"
	  "+++ \"b/../x\"\n" HUNK,
	  "outside the tree" },
	{ "escaped ..", "--- \"a/\\056\\056/x\"\n+++ \"b/\\056\\056/x\"\n" HUNK,
	  "outside the tree" },
	{ "blanks before an absolute name", "---  /etc/x\n+++  /etc/x\n" HUNK,
	  "absolute" },
	{ "p1 makes it absolute", "--- x//etc/x\n+++ x//etc/x\n" HUNK,
	  "empty component" },
	{ "escaped newline", "--- \"a/x\\ny\"\n+++ \"b/x\\ny\"\n" HUNK,
	  "control character" },
};

static int pp_refuses(const char *patch, const char *why)
{
	struct pp_paths p;
	char err[512] = "";

	if (pp_paths_of(patch, strlen(patch), &p, err, sizeof(err)) == 0) {
		pp_paths_free(&p);
		return 0;
	}
	return strstr(err, why) != NULL;
}

static int daemon_refuses(const char *patch, const char *why)
{
	struct patch_series s;
	char err[512] = "";

	if (patch_parse(patch, strlen(patch), &s, err, sizeof(err)) == 0) {
		patch_series_free(&s);
		return 0;
	}
	printf("  daemon: %s\n", err);
	return strstr(err, why) != NULL;
}

static void quoted_names(void)
{
	static const char q[] = "diff --git \"a/Makefile\" \"b/Makefile\"\n"
				"--- \"a/Makefile\"\n+++ \"b/Makefile\"\n" HUNK;
	static const char esc[] =
		"diff --git \"a/\\115ake\\tfile\" \"b/\\115ake\\tfile\"";
	struct patch_series s;
	struct pp_line pl;
	struct pp_paths p;
	char err[512];

	CHECK(pp_paths_of(q, sizeof(q) - 1, &p, err, sizeof(err)) == 0, "%s",
	      err);
	CHECK(p.n == 1 && !strcmp(p.v[0], "Makefile"), "%s", p.n ? p.v[0] : "");
	pp_paths_free(&p);
	CHECK(patch_parse(q, sizeof(q) - 1, &s, err, sizeof(err)) == 0);
	CHECK(s.n == 1 && s.patches[0].nfiles == 1 &&
	      !strcmp(s.patches[0].files[0].new_path, "Makefile"));
	patch_series_free(&s);
	/* Escapes decode; a tab in a name is refused. */
	pp_header_line(esc, sizeof(esc) - 1, true, &pl);
	CHECK(pl.kind == PP_GIT && pl.a && !strcmp(pl.a, "Make\tfile"));
	CHECK(pl.why && strstr(pl.why, "control character"));
	pp_line_free(&pl);
}

int main(void)
{
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		printf("%s\n", refused[i].name);
		CHECK(pp_refuses(refused[i].patch, refused[i].why),
		      "runner: %s", refused[i].name);
		CHECK(daemon_refuses(refused[i].patch, refused[i].why),
		      "daemon: %s", refused[i].name);
	}
	quoted_names();
	/* A regular mode change and a rename inside the tree are fine. */
	CHECK(!pp_refuses("diff --git a/f b/f\nold mode 100644\n"
			  "new mode 100755\n",
			  ""));
	CHECK(!daemon_refuses("diff --git a/f b/g\nsimilarity index 100%\n"
			      "rename from f\nrename to g\n",
			      ""));
	DONE();
}
