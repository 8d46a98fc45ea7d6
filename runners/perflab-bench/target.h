/* SPDX-License-Identifier: MIT */
/*
 * The benchmark target: a block device or a regular file opened O_DIRECT,
 * and the facts sysfs gives about the block device behind it.
 */
#ifndef PERFLAB_BENCH_TARGET_H
#define PERFLAB_BENCH_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct target {
	const char *path;
	int fd;
	bool is_block;		/* path is a block device (else a file) */
	bool has_dev;		/* a block device (path or backing) was found */
	uint64_t size;		/* bytes readable at the path */
	char name[64];		/* block device holding the queue: "nvme0n1" */
	char sysdir[128];	/* /sys/dev/block/M:m of that device's queue */
	char model[128];
	char firmware[64];
	char scheduler[32];
	unsigned int lbs;	/* logical block size, 0 if unknown */
	int io_poll;		/* queue/io_poll: 1, 0, -1 unknown */
	unsigned int nr_requests; /* queue/nr_requests, 0 if unknown */
	unsigned long fs_magic;	/* statfs f_type for files */
};

/* Opens @path O_DIRECT read-only and gathers facts. -1 with err on failure. */
int target_open(struct target *t, const char *path, char *err, size_t len);
void target_close(struct target *t);

/*
 * 1 with a message in @msg when the device queue holds fewer requests
 * (queue/nr_requests) than @depth: the requested queue depth cannot be
 * reached, the surplus waits for tags (or is punted by io_uring).
 */
int target_queue_short(const struct target *t, unsigned int depth, char *msg,
		       size_t len);

/* Block size fits the device: multiple of lbs, not above size. */
int target_check_bs(const struct target *t, unsigned int bs, char *err,
		    size_t len);

/*
 * Decides whether polled IO can be real on @t. Returns 0 when the device
 * has poll queues, or when the file system has no ->iopoll at all (the
 * kernel then fails each IO with EOPNOTSUPP, reported by the run); -1 with
 * a message naming the device and the fix otherwise.
 */
int target_check_poll(const struct target *t, char *err, size_t len);

/* How to get poll queues for this device, for error messages. */
const char *target_poll_fix(const struct target *t);

#endif
