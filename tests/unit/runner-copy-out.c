// SPDX-License-Identifier: MIT
/*
 * Description: root takes the image, .config and kernel.release out of the
 * build user's object dir with rutil_copy_out() only as regular files
 * reached without links: a link in any component (to a root-only file),
 * a link as the file, a FIFO (must not hang), a directory or a file over
 * the cap are refused and leave no copy; a plain file is copied exactly.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runners/runner/rutil.h"
#include "unit/check.h"

static char root[] = "/tmp/perflab-copyout-XXXXXX";

static int refused(const char *rel, size_t max)
{
	int rc = rutil_copy_out(at("obj"), rel, at("out"), max);

	return rc == -1 && access(at("out"), F_OK) != 0;
}

int main(void)
{
	char *text;

	fixture_root = root;	/* mkdtemp fills it in place */
	if (!mkdtemp(root))
		return 1;
	CHECK(rutil_mkdirs(at("obj/arch/x86/boot"), 0755) == 0);
	CHECK(rutil_mkdirs(at("secret"), 0700) == 0);
	CHECK(rutil_write_file(at("secret/key"), "key\n", 4) == 0);
	CHECK(rutil_write_file(at("obj/arch/x86/boot/bzImage"), "image", 5) ==
	      0);

	CHECK(rutil_copy_out(at("obj"), "arch/x86/boot/bzImage", at("out"),
			     1 << 20) == 0);
	text = rutil_read_file(at("out"), NULL);
	CHECK(text && !strcmp(text, "image"));
	free(text);
	unlink(at("out"));

	CHECK(refused("arch/x86/boot/bzImage", 4), "over the cap");
	CHECK(refused("arch", 1 << 20), "a directory");
	CHECK(symlink(at("secret/key"), at("obj/.config")) == 0);
	CHECK(refused(".config", 1 << 20), "a link as the file");
	CHECK(symlink(at("secret"), at("obj/include")) == 0);
	CHECK(refused("include/key", 1 << 20), "a link on the way");
	CHECK(mkfifo(at("obj/fifo"), 0644) == 0);
	CHECK(refused("fifo", 1 << 20), "a FIFO");
	CHECK(rutil_rm_rf(at("obj/arch/x86/boot")) == 0);
	CHECK(symlink(at("secret"), at("obj/arch/x86/boot")) == 0);
	CHECK(rutil_write_file(at("secret/bzImage"), "evil", 4) == 0);
	CHECK(refused("arch/x86/boot/bzImage", 1 << 20), "boot/ a link");
	rutil_rm_rf(root);
	DONE();
}
