// SPDX-License-Identifier: MIT
/*
 * Description: the CLI finds server and key with the documented
 * precedence: flags over PERFLAB_URL/PERFLAB_KEY over the config file over
 * the default; malformed config files are refused with the line number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/config.h"
#include "unit/check.h"

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

int main(void)
{
	char dir[] = "/tmp/perflab-cli-config-XXXXXX", path[256], err[512];
	struct cli_config cfg;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/config", dir);
	unsetenv("PERFLAB_URL");
	unsetenv("PERFLAB_KEY");
	setenv("PERFLAB_CONFIG", path, 1);

	/* no file, no env: default server, no key */
	CHECK(config_resolve(&cfg, NULL, NULL, err, sizeof(err)) == 0);
	CHECK(!strcmp(cfg.server, CLI_DEFAULT_SERVER));
	CHECK(!strcmp(cfg.server_from, "default"));
	CHECK(!strcmp(cfg.key, "") && !strcmp(cfg.key_from, "none"));

	/* file */
	write_file(path, "# lab\n  server = http://file:1  \n\nkey=filekey\n");
	CHECK(config_resolve(&cfg, NULL, NULL, err, sizeof(err)) == 0);
	CHECK(!strcmp(cfg.server, "http://file:1"));
	CHECK(!strcmp(cfg.key, "filekey") && !strcmp(cfg.key_from, "file"));

	/* env beats file */
	setenv("PERFLAB_URL", "http://env:2", 1);
	setenv("PERFLAB_KEY", "envkey", 1);
	CHECK(config_resolve(&cfg, NULL, NULL, err, sizeof(err)) == 0);
	CHECK(!strcmp(cfg.server, "http://env:2") &&
	      !strcmp(cfg.server_from, "env"));
	CHECK(!strcmp(cfg.key, "envkey"));

	/* flags beat env */
	CHECK(config_resolve(&cfg, "https://flag:3", "flagkey", err,
			     sizeof(err)) == 0);
	CHECK(!strcmp(cfg.server, "https://flag:3") &&
	      !strcmp(cfg.server_from, "flag"));
	CHECK(!strcmp(cfg.key, "flagkey") && !strcmp(cfg.key_from, "flag"));

	/* "url=" is accepted as a synonym of "server=" */
	unsetenv("PERFLAB_URL");
	unsetenv("PERFLAB_KEY");
	write_file(path, "url=http://synonym:4\n");
	CHECK(config_resolve(&cfg, NULL, NULL, err, sizeof(err)) == 0);
	CHECK(!strcmp(cfg.server, "http://synonym:4"));

	/* malformed lines and settings are errors with file:line */
	write_file(path, "server=http://x\nnonsense\n");
	CHECK(config_resolve(&cfg, NULL, NULL, err, sizeof(err)) < 0);
	CHECK(strstr(err, ":2:") != NULL);
	write_file(path, "colour=blue\n");
	CHECK(config_resolve(&cfg, NULL, NULL, err, sizeof(err)) < 0);
	CHECK(strstr(err, "colour") != NULL);

	/* a server that is not http(s) is refused */
	unlink(path);
	CHECK(config_resolve(&cfg, "localhost:8080", NULL, err,
			     sizeof(err)) < 0);
	CHECK(strstr(err, "http://") != NULL);

	unlink(path);
	rmdir(dir);
	if (fails)
		return 1;
	printf("ok\n");
	return 0;
}
