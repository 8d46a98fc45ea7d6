// SPDX-License-Identifier: MIT
/*
 * facts: CPU, memory, kernel, NVMe model/firmware, polling.
 */
#include "runners/runner/facts.h"
#include "runners/runner/rutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static char *read_line(const char *root, const char *path)
{
	char full[4096];
	char *s, *nl;

	snprintf(full, sizeof(full), "%s%s", root, path);
	s = rutil_read_file(full, NULL);
	if (!s)
		return NULL;
	nl = strchr(s, '\n');
	if (nl)
		*nl = 0;
	return s;
}

static json_t *cpu_model(const char *root)
{
	char path[4096];
	char *text, *p, *e;
	json_t *j;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	text = rutil_read_file(path, NULL);
	p = text ? strstr(text, "model name") : NULL;
	p = p ? strchr(p, ':') : NULL;
	if (!p) {
		free(text);
		return json_string("unknown");
	}
	p += 1 + strspn(p + 1, " \t");
	e = strchr(p, '\n');
	if (e)
		*e = 0;
	j = json_string(p);
	free(text);
	return j ? j : json_string("unknown");
}

static long long mem_bytes(const char *root)
{
	char path[4096];
	char *text, *p;
	long long kb = 0;

	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	text = rutil_read_file(path, NULL);
	p = text ? strstr(text, "MemTotal:") : NULL;
	if (p)
		sscanf(p, "MemTotal: %lld", &kb);
	free(text);
	return kb * 1024;
}

static int count_cpus(const char *root)
{
	char path[4096];
	char *text, *p;
	int n = 0;

	if (!*root)
		return (int)sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	text = rutil_read_file(path, NULL);
	for (p = text; p && (p = strstr(p, "processor")); p++)
		n++;
	free(text);
	return n;
}

const char *facts_blockdev_name(const char *target)
{
	if (!target || strncmp(target, "/dev/", 5) || strchr(target + 5, '/'))
		return NULL;
	return target + 5;
}

static json_t *str_or_empty(char *s)
{
	json_t *j = json_string(s ? s : "");

	free(s);
	return j ? j : json_string("");
}

static void nvme_facts(json_t *f, const char *root, const char *dev)
{
	char path[512];

	/* The target's controller when the target is NVMe, else nvme0. */
	if (dev && !strncmp(dev, "nvme", 4)) {
		snprintf(path, sizeof(path), "/sys/block/%s/device/model", dev);
		json_object_set_new(f, "nvme_model",
				    str_or_empty(read_line(root, path)));
		snprintf(path, sizeof(path), "/sys/block/%s/device/firmware_rev",
			 dev);
		json_object_set_new(f, "nvme_firmware",
				    str_or_empty(read_line(root, path)));
		return;
	}
	json_object_set_new(f, "nvme_model", str_or_empty(
		read_line(root, "/sys/class/nvme/nvme0/model")));
	json_object_set_new(f, "nvme_firmware", str_or_empty(
		read_line(root, "/sys/class/nvme/nvme0/firmware_rev")));
}

json_t *facts_collect(const char *root, const char *backend,
		      const char *target, int poll_ok)
{
	json_t *f = json_object();
	const char *dev = facts_blockdev_name(target);
	char path[512], *s;
	struct utsname u;

	json_object_set_new(f, "cpu_model", cpu_model(root));
	json_object_set_new(f, "cpus", json_integer(count_cpus(root)));
	json_object_set_new(f, "mem_bytes", json_integer(mem_bytes(root)));
	if (*root) {
		json_object_set_new(f, "kernel", str_or_empty(read_line(root,
				    "/proc/sys/kernel/osrelease")));
	} else {
		uname(&u);
		json_object_set_new(f, "kernel", json_string(u.release));
	}
	nvme_facts(f, root, dev);
	if (poll_ok < 0) {
		poll_ok = 0;
		if (dev) {
			snprintf(path, sizeof(path), "/sys/block/%s/queue/io_poll",
				 dev);
			s = read_line(root, path);
			poll_ok = s && atoi(s) == 1;
			free(s);
		}
	}
	json_object_set_new(f, "poll_ok", json_boolean(poll_ok));
	json_object_set_new(f, "backend", json_string(backend));
	json_object_set_new(f, "target", json_string(target ? target : ""));
	return f;
}
