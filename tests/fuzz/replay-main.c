// SPDX-License-Identifier: MIT
/*
 * Description: standalone driver for the libFuzzer harnesses. Built with
 * the normal compiler, it feeds every file named on the command line (or
 * every file in the directories named) to LLVMFuzzerTestOneInput once, so
 * the committed corpora and past crashers run as regression tests in
 * `make test` without clang's fuzzing runtime.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long len;
	int ret = -1;

	if (!f) {
		perror(path);
		return -1;
	}
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		goto out;
	/* An exact-size heap copy lets ASan/valgrind see overreads. */
	buf = malloc(len ? len : 1);
	if (!buf || fread(buf, 1, len, f) != (size_t)len)
		goto out;
	LLVMFuzzerTestOneInput(buf, len);
	ret = 0;
out:
	free(buf);
	fclose(f);
	return ret;
}

static int run_path(const char *path, int *count)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	char sub[4096];
	int ret = 0;

	if (stat(path, &st)) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path);
	}
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (run_path(sub, count))
			ret = -1;
	}
	closedir(d);
	return ret;
}

int main(int argc, char **argv)
{
	int count = 0, ret = 0;

	for (int i = 1; i < argc; i++)
		if (run_path(argv[i], &count))
			ret = 1;
	printf("%d inputs replayed\n", count);
	if (!count) {
		fprintf(stderr, "no inputs\n");
		return 1;
	}
	return ret;
}
