// SPDX-License-Identifier: MIT
/*
 * Target opening and sysfs device facts.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "target.h"

#define TMPFS_MAGIC_	0x01021994UL
#define RAMFS_MAGIC_	0x858458f6UL
#define OVERLAY_MAGIC_	0x794c7630UL

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* Reads the first line of a sysfs file, newline stripped. -1 if absent. */
static int read_line(const char *dir, const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	int ret = -1;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(buf, len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ret = 0;
	}
	fclose(f);
	return ret;
}

/* Copies @src into @dst, truncating to fit. */
static void scopy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Trims trailing blanks (sysfs model strings are space padded). */
static void rtrim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

/* "none [mq-deadline] kyber" -> "mq-deadline" */
static void pick_scheduler(const char *line, char *out, size_t len)
{
	const char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;

	if (a && b && (size_t)(b - a - 1) < len) {
		memcpy(out, a + 1, b - a - 1);
		out[b - a - 1] = '\0';
	} else {
		scopy(out, len, line);
	}
}

/*
 * Finds the sysfs directory holding the request queue of device @dev:
 * the device itself, or its parent disk for a partition.
 */
static int find_queue_dir(dev_t dev, struct target *t)
{
	char dir[128], real[PATH_MAX], probe[PATH_MAX + 16];
	const char *base;

	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	if (!realpath(dir, real))
		return -1;
	snprintf(probe, sizeof(probe), "%s/partition", real);
	if (!access(probe, F_OK)) {
		char *slash = strrchr(real, '/');

		if (!slash)
			return -1;
		*slash = '\0';
	}
	snprintf(probe, sizeof(probe), "%s/queue", real);
	if (access(probe, F_OK))
		return -1;
	base = strrchr(real, '/');
	scopy(t->name, sizeof(t->name), base ? base + 1 : real);
	snprintf(t->sysdir, sizeof(t->sysdir), "/sys/block/%s", t->name);
	if (access(t->sysdir, F_OK))
		scopy(t->sysdir, sizeof(t->sysdir), real);
	return 0;
}

static void read_facts(struct target *t)
{
	char line[256], q[160];

	snprintf(q, sizeof(q), "%s/queue", t->sysdir);
	if (!read_line(q, "logical_block_size", line, sizeof(line)))
		t->lbs = strtoul(line, NULL, 10);
	if (!read_line(q, "io_poll", line, sizeof(line)))
		t->io_poll = atoi(line);
	if (!read_line(q, "nr_requests", line, sizeof(line)))
		t->nr_requests = strtoul(line, NULL, 10);
	if (!read_line(q, "scheduler", line, sizeof(line)))
		pick_scheduler(line, t->scheduler, sizeof(t->scheduler));
	snprintf(q, sizeof(q), "%s/device", t->sysdir);
	read_line(q, "model", t->model, sizeof(t->model));
	rtrim(t->model);
	if (read_line(q, "firmware_rev", t->firmware, sizeof(t->firmware)))
		read_line(q, "rev", t->firmware, sizeof(t->firmware));
	rtrim(t->firmware);
}

/*
 * O_NOATIME, as t/io_uring opens its files: without it every read checks
 * whether the inode's atime needs an update (touch_atime, current_time:
 * 118 of the ~2120 instructions per IO on 6.1 under qemu-icount, measured
 * exactly with the perflab-insn plugin), a cost of the instrument diluting
 * every kernel change the lab measures. Only the file's owner (or
 * CAP_FOWNER) may ask for it; anyone else gets the plain open.
 */
static int open_direct(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC | O_NOATIME);

	if (fd < 0 && errno == EPERM)
		fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	return fd;
}

int target_open(struct target *t, const char *path, char *err, size_t len)
{
	struct stat st;
	struct statfs sfs;
	uint64_t bytes;

	memset(t, 0, sizeof(*t));
	t->path = path;
	t->io_poll = -1;
	t->fd = open_direct(path);
	if (t->fd < 0) {
		if (errno == EINVAL)
			return fail(err, len,
				    "%s: O_DIRECT is not supported here (the bench needs direct IO)",
				    path);
		return fail(err, len, "%s: %s", path, strerror(errno));
	}
	if (fstat(t->fd, &st))
		goto out_errno;
	if (S_ISBLK(st.st_mode)) {
		t->is_block = true;
		if (ioctl(t->fd, BLKGETSIZE64, &bytes))
			goto out_errno;
		t->size = bytes;
		t->has_dev = !find_queue_dir(st.st_rdev, t);
	} else if (S_ISREG(st.st_mode)) {
		t->size = st.st_size;
		if (!fstatfs(t->fd, &sfs))
			t->fs_magic = (unsigned long)sfs.f_type;
		if (major(st.st_dev))
			t->has_dev = !find_queue_dir(st.st_dev, t);
	} else {
		close(t->fd);
		t->fd = -1;
		return fail(err, len, "%s: not a block device or a regular file",
			    path);
	}
	if (t->has_dev)
		read_facts(t);
	return 0;
out_errno:
	fail(err, len, "%s: %s", path, strerror(errno));
	close(t->fd);
	t->fd = -1;
	return -1;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

int target_check_bs(const struct target *t, unsigned int bs, char *err,
		    size_t len)
{
	if (t->lbs && bs % t->lbs)
		return fail(err, len,
			    "%s: block size %u is not a multiple of the logical block size %u of %s",
			    t->path, bs, t->lbs, t->name);
	if (t->size < bs)
		return fail(err, len, "%s: size %llu bytes holds no %u-byte block",
			    t->path, (unsigned long long)t->size, bs);
	return 0;
}

const char *target_poll_fix(const struct target *t)
{
	if (!strncmp(t->name, "nvme", 4))
		return "give the nvme driver poll queues (boot with nvme.poll_queues=N, "
		       "or set /sys/module/nvme/parameters/poll_queues and reset the "
		       "controller), or run with -p0";
	if (!strncmp(t->name, "nullb", 5))
		return "load null_blk with poll queues (modprobe null_blk queue_mode=2 "
		       "poll_queues=N), or run with -p0";
	if (!strncmp(t->name, "loop", 4))
		return "loop devices have no poll queues: use an nvme device "
		       "(nvme.poll_queues=N) or null_blk (poll_queues=N), or run with -p0";
	return "use a device with poll queues (nvme.poll_queues=N, null_blk "
	       "poll_queues=N), or run with -p0";
}

int target_check_poll(const struct target *t, char *err, size_t len)
{
	const char *what = t->is_block ? "device" : "backing device";

	if (t->has_dev) {
		if (t->io_poll == 1)
			return 0;
		if (t->io_poll == 0)
			return fail(err, len,
				    "%s: %s %s has no poll queues (%s/queue/io_poll = 0); "
				    "polled IO would complete through interrupts. Fix: %s",
				    t->path, what, t->name, t->sysdir,
				    target_poll_fix(t));
		return fail(err, len,
			    "%s: cannot read %s/queue/io_poll of %s %s, so polling "
			    "cannot be verified. Fix: mount sysfs, or run with -p0",
			    t->path, t->sysdir, what, t->name);
	}
	/* Files without ->iopoll: io_uring fails every IO with EOPNOTSUPP. */
	if (!t->is_block && (t->fs_magic == TMPFS_MAGIC_ ||
			     t->fs_magic == RAMFS_MAGIC_ ||
			     t->fs_magic == OVERLAY_MAGIC_))
		return 0;
	return fail(err, len,
		    "%s: no block device found in sysfs for this %s, so polling "
		    "cannot be verified. Fix: run on a block device with poll "
		    "queues, or with -p0",
		    t->path, t->is_block ? "device" : "file");
}

int target_queue_short(const struct target *t, unsigned int depth, char *msg,
		       size_t len)
{
	bool nullb = !strncmp(t->name, "nullb", 5);

	if (!t->nr_requests || depth <= t->nr_requests)
		return 0;
	snprintf(msg, len,
		 "%s: the device queue holds %u requests (%s/queue/nr_requests) "
		 "but -d asks for %u in flight, so QD%u is not reached. Fix: %s",
		 t->path, t->nr_requests, t->sysdir, depth, depth,
		 nullb ? "null_blk hw_queue_depth=N" :
			 "a deeper device queue (nr_requests)");
	return 1;
}
