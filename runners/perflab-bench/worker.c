// SPDX-License-Identifier: MIT
/*
 * Benchmark thread: ring setup with liburing, hot loop below it (SQEs are
 * filled once and only their offsets written per IO, one raw
 * io_uring_enter per batch that submits and reaps, CQEs read straight from
 * the CQ ring), like t/io_uring but cheaper per IO.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <liburing.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "insn_marker.h"
#include "prng.h"
#include "worker.h"

#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER	(1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN	(1U << 13)
#endif
#ifndef IORING_ENTER_REGISTERED_RING
#define IORING_ENTER_REGISTERED_RING	(1U << 4)
#endif

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

struct ring_state {
	struct io_uring ring;
	struct offgen gen;
	void *bufs;		/* one buffer per SQ slot */
	/* hot-loop copies of the ring pointers */
	struct io_uring_sqe *sqes;
	unsigned int *sq_ktail;
	unsigned int sq_mask;
	struct io_uring_cqe *cqes;
	unsigned int *cq_khead, *cq_ktail;
	unsigned int cq_mask;
	unsigned int busy;	/* in flight or queued when the loop ended */
	int enter_fd;
	unsigned int enter_flags;	/* GETEVENTS [| REGISTERED_RING] */
	int file;		/* fd or registered index in SQEs */
	unsigned char sqe_flags;
};

static const struct {
	unsigned int wf;
	unsigned int setup;
	const char *name;
} optional_flags[] = {
	{ WF_SINGLE_ISSUER, IORING_SETUP_SINGLE_ISSUER, "SINGLE_ISSUER" },
	{ WF_COOP_TASKRUN, IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN" },
	{ WF_DEFER_TASKRUN, IORING_SETUP_DEFER_TASKRUN, "DEFER_TASKRUN" },
};

unsigned int worker_flag_names(unsigned int flags, const char **names,
			       unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < 3 && n < max; i++)
		if (flags & optional_flags[i].wf)
			names[n++] = optional_flags[i].name;
	if ((flags & WF_IOPOLL) && n < max)
		names[n++] = "IOPOLL";
	if ((flags & WF_REGISTERED_RING) && n < max)
		names[n++] = "REGISTERED_RING";
	return n;
}

static int wfail(struct worker *w, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->errmsg, sizeof(w->errmsg), fmt, ap);
	va_end(ap);
	w->err = err ? err : EIO;
	return -1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void thread_cpu(uint64_t *user, uint64_t *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*user = ru.ru_utime.tv_sec * 1000000000ULL + ru.ru_utime.tv_usec * 1000ULL;
	*sys = ru.ru_stime.tv_sec * 1000000000ULL + ru.ru_stime.tv_usec * 1000ULL;
}

/*
 * Creates the ring: required flags first, then each optional flag kept only
 * if the running kernel accepts it on top of the ones already kept.
 */
static int ring_create(struct worker *w, struct ring_state *rs)
{
	const struct bench_opts *o = w->sh->o;
	struct io_uring_params p;
	unsigned int base = o->polled ? IORING_SETUP_IOPOLL : 0, keep = 0;
	unsigned int i;
	int ret;

	for (i = 0; i < 3; i++) {
		unsigned int try = keep | optional_flags[i].setup;

		if (optional_flags[i].wf == WF_DEFER_TASKRUN &&
		    !(w->flags & WF_SINGLE_ISSUER))
			continue;
		memset(&p, 0, sizeof(p));
		p.flags = base | try;
		ret = io_uring_queue_init_params(o->depth, &rs->ring, &p);
		if (ret)
			continue;
		io_uring_queue_exit(&rs->ring);
		keep = try;
		w->flags |= optional_flags[i].wf;
	}
	memset(&p, 0, sizeof(p));
	p.flags = base | keep;
	ret = io_uring_queue_init_params(o->depth, &rs->ring, &p);
	if (ret) {
		memset(&rs->ring, 0, sizeof(rs->ring));
		return wfail(w, -ret, "io_uring setup (depth %u, flags 0x%x): %s",
			     o->depth, p.flags, strerror(-ret));
	}
	if (o->polled)
		w->flags |= WF_IOPOLL;
	/* SQ slot i always points at SQE i. */
	for (i = 0; i < rs->ring.sq.ring_entries; i++)
		rs->ring.sq.array[i] = i;
	return 0;
}

/* Buffers: one per SQ slot, registered in slot order when -B1. */
static int ring_buffers(struct worker *w, struct ring_state *rs)
{
	const struct bench_opts *o = w->sh->o;
	unsigned int i, n = rs->ring.sq.ring_entries;
	struct iovec *iov;
	int ret;

	if (posix_memalign(&rs->bufs, 4096, (size_t)n * o->bs))
		return wfail(w, ENOMEM, "out of memory for %u buffers", n);
	if (!o->fixedbufs)
		return 0;
	iov = calloc(n, sizeof(*iov));
	if (!iov)
		return wfail(w, ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		iov[i].iov_base = (char *)rs->bufs + (size_t)i * o->bs;
		iov[i].iov_len = o->bs;
	}
	ret = io_uring_register_buffers(&rs->ring, iov, n);
	free(iov);
	if (ret)
		return wfail(w, -ret, "registering %u buffers: %s", n,
			     strerror(-ret));
	return 0;
}

static int ring_register(struct worker *w, struct ring_state *rs)
{
	const struct bench_opts *o = w->sh->o;
	int ret, fd = w->sh->t->fd;

	rs->file = fd;
	if (o->regfiles) {
		ret = io_uring_register_files(&rs->ring, &fd, 1);
		if (ret)
			return wfail(w, -ret, "registering the file: %s",
				     strerror(-ret));
		rs->file = 0;
		rs->sqe_flags = IOSQE_FIXED_FILE;
	}
	if (ring_buffers(w, rs))
		return -1;
	rs->enter_fd = rs->ring.ring_fd;
	rs->enter_flags = IORING_ENTER_GETEVENTS;
	if (io_uring_register_ring_fd(&rs->ring) == 1) {
		rs->enter_fd = rs->ring.enter_ring_fd;
		rs->enter_flags |= IORING_ENTER_REGISTERED_RING;
		w->flags |= WF_REGISTERED_RING;
	}
	return 0;
}

/*
 * Fills every SQE once: slot i always reads into buffer i, so only the
 * offset changes from one IO to the next and the hot loop writes nothing
 * else (the kernel only reads SQEs). Two IOs in flight on one slot's
 * buffer (possible when completions overtake each other) are harmless:
 * the data is never looked at.
 */
static void ring_prefill(struct worker *w, struct ring_state *rs)
{
	const struct bench_opts *o = w->sh->o;
	struct io_uring_sq *sq = &rs->ring.sq;
	unsigned int i;

	for (i = 0; i < sq->ring_entries; i++) {
		struct io_uring_sqe *sqe = &sq->sqes[i];
		void *buf = (char *)rs->bufs + (size_t)i * o->bs;

		if (o->fixedbufs)
			io_uring_prep_read_fixed(sqe, rs->file, buf, o->bs, 0, i);
		else
			io_uring_prep_read(sqe, rs->file, buf, o->bs, 0);
		sqe->flags = rs->sqe_flags;
		sqe->user_data = i;
	}
	rs->sqes = sq->sqes;
	rs->sq_ktail = sq->ktail;
	rs->sq_mask = sq->ring_mask;
	rs->cqes = rs->ring.cq.cqes;
	rs->cq_khead = rs->ring.cq.khead;
	rs->cq_ktail = rs->ring.cq.ktail;
	rs->cq_mask = rs->ring.cq.ring_mask;
}

static int ring_init(struct worker *w, struct ring_state *rs)
{
	const struct bench_opts *o = w->sh->o;

	memset(rs, 0, sizeof(*rs));
	if (offgen_init(&rs->gen, w->sh->t->size, o->bs, o->random, o->seed,
			w->index, o->threads))
		return wfail(w, EINVAL, "target smaller than one block");
	if (ring_create(w, rs) || ring_register(w, rs))
		return -1;
	ring_prefill(w, rs);
	return 0;
}

static void ring_fini(struct ring_state *rs)
{
	if (rs->ring.ring_fd > 0)
		io_uring_queue_exit(&rs->ring);
	free(rs->bufs);
}

/*
 * Every call submits and reaps: GETEVENTS always (with IOPOLL each call
 * also polls once), waiting for @wait completions. t/io_uring sets
 * GETEVENTS only when it waits, so on null_blk it polls once per 128 IOs
 * instead of once per 32: 9.6 instructions per IO cheaper under qemu-icount,
 * but 0.03 % apart from boot to boot, where this loop repeats to 0.0001 %.
 * The exact profiles (perflab-insn) of such boots say why: with 128 IOs in
 * flight, the --ios window opens and closes at different points of the
 * four-call cycle, so it holds up to 96 more or fewer submissions than
 * completions; and the tag bitmap settles per boot into states costing
 * 0.08 .. 0.16 instructions per IO more in __sbitmap_queue_get_batch
 * (its allocation hint starts at random). Here every poll completes what
 * the call submitted: nothing is in flight at either end of the window.
 */
static inline int enter(struct ring_state *rs, unsigned int submit,
			unsigned int wait)
{
	return syscall(__NR_io_uring_enter, rs->enter_fd, submit, wait,
		       rs->enter_flags, NULL, 0);
}

/*
 * Sets the offsets of the next @n SQEs and publishes them. The generator
 * is a local copy so its state stays in registers across the SQE stores.
 */
static inline void prep(struct ring_state *rs, unsigned int n)
{
	struct io_uring_sqe *sqes = rs->sqes;
	unsigned int tail = *rs->sq_ktail, mask = rs->sq_mask;
	unsigned int end = tail + n;
	struct offgen g = rs->gen;

	if (g.random) {
		for (; tail != end; tail++)
			sqes[tail & mask].off = offgen_random(&g);
	} else {
		for (; tail != end; tail++)
			sqes[tail & mask].off = offgen_seq(&g);
	}
	rs->gen = g;
	io_uring_smp_store_release(rs->sq_ktail, tail);
}

static int cqe_error(struct worker *w, int res)
{
	const struct target *t = w->sh->t;

	if (res == -EOPNOTSUPP && w->sh->o->polled)
		return wfail(w, EOPNOTSUPP,
			     "%s: the kernel refused polled IO (EOPNOTSUPP): "
			     "%s%s cannot complete IO by polling. Fix: %s",
			     t->path, t->has_dev ? "device " : "this file system",
			     t->has_dev ? t->name : "", target_poll_fix(t));
	if (res < 0)
		return wfail(w, -res, "%s: read failed: %s", t->path,
			     strerror(-res));
	return wfail(w, EIO, "%s: short read of %d bytes (block size %u)",
		     t->path, res, w->sh->o->bs);
}

/*
 * Reaps every available CQE; returns how many, -EAGAIN ones included
 * (counted in w->c.eagain, not as done), or -1 on an IO error.
 */
static inline int reap(struct worker *w, struct ring_state *rs, int bs)
{
	const struct io_uring_cqe *cqes = rs->cqes;
	unsigned int head = *rs->cq_khead, mask = rs->cq_mask;
	unsigned int tail = io_uring_smp_load_acquire(rs->cq_ktail);
	int n = tail - head;

	for (; head != tail; head++) {
		int res = cqes[head & mask].res;

		if (likely(res == bs))
			continue;
		if (res != -EAGAIN) {
			io_uring_smp_store_release(rs->cq_khead, head + 1);
			return cqe_error(w, res);
		}
		w->c.eagain++;
	}
	io_uring_smp_store_release(rs->cq_khead, head);
	return n;
}

static void window_mark(struct worker *w, bool start, uint64_t done)
{
	uint64_t u, s;

	thread_cpu(&u, &s);
	if (start) {
		w->win.start_ns = now_ns();
		w->win.start_done = done;
		w->win.user_ns = u;
		w->win.sys_ns = s;
		w->win.started = true;
		insn_marker_start();
		return;
	}
	insn_marker_end();
	w->win.end_ns = now_ns();
	w->win.end_done = done;
	w->win.user_ns = u - w->win.user_ns;
	w->win.sys_ns = s - w->win.sys_ns;
	w->win.ended = true;
}

#define PUB(field, v) __atomic_store_n(&w->c.field, (v), __ATOMIC_RELAXED)

static int io_loop(struct worker *w, struct ring_state *rs)
{
	const struct bench_opts *o = w->sh->o;
	const unsigned int depth = o->depth, sb = o->submit_batch;
	const unsigned int cb = o->complete_batch;
	const uint64_t ios = o->ios;
	const int bs = o->bs;
	uint64_t done = 0, submitted = 0, calls = 0, eagain = 0;
	unsigned int inflight = 0, pending = 0;
	int ret, phase = PHASE_WARMUP;

	for (;;) {
		unsigned int n = 0, to_submit, to_wait, busy;
		int ph = __atomic_load_n(&w->sh->phase, __ATOMIC_RELAXED);

		if (unlikely(ph != phase)) {
			if (!w->win.started)
				window_mark(w, true, done);
			if (ph == PHASE_STOP)
				break;
			phase = ph;
		}
		if (unlikely(ios && w->win.started &&
			     done - w->win.start_done >= ios))
			break;
		busy = inflight + pending;
		if (busy < depth) {
			n = depth - busy < sb ? depth - busy : sb;
			prep(rs, n);
		}
		to_submit = pending + n;
		busy = inflight + to_submit;
		if (to_submit && busy + to_submit <= depth)
			to_wait = 0;
		else
			to_wait = busy < cb ? busy : cb;
		ret = enter(rs, to_submit, to_wait);
		calls++;
		if (unlikely(ret < 0)) {
			pending = to_submit;
			if (errno != EINTR && errno != EAGAIN && errno != EBUSY)
				goto fail;
			ret = 0;
		}
		pending = to_submit - ret;
		inflight += ret;
		submitted += ret;
		ret = reap(w, rs, bs);
		if (unlikely(ret < 0))
			goto out;
		inflight -= ret;
		done += ret;
		if (unlikely(w->c.eagain != eagain)) {
			done -= w->c.eagain - eagain;
			eagain = w->c.eagain;
		}
		PUB(done, done);
		PUB(submitted, submitted);
		PUB(calls, calls);
		PUB(inflight, inflight);
	}
	window_mark(w, false, done);
	ret = 0;
out:
	rs->busy = inflight + pending;
	return ret;
fail:
	ret = wfail(w, errno, "io_uring_enter: %s", strerror(errno));
	goto out;
}

/*
 * Submits what is still queued and waits for every IO in flight, ignoring
 * their results, so no buffer is busy at teardown.
 */
static void drain(struct ring_state *rs)
{
	unsigned int busy = rs->busy, tries = 0;

	while (busy && tries++ < 100000) {
		unsigned int queued = *rs->sq_ktail -
				      io_uring_smp_load_acquire(rs->ring.sq.khead);
		unsigned int head = *rs->cq_khead, tail;

		if (enter(rs, queued, busy) < 0 && errno != EINTR &&
		    errno != EAGAIN && errno != EBUSY)
			break;
		tail = io_uring_smp_load_acquire(rs->cq_ktail);
		busy -= tail - head;
		io_uring_smp_store_release(rs->cq_khead, tail);
	}
}

static int pin(struct worker *w)
{
	cpu_set_t set;
	int ret;

	if (w->cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	ret = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (ret)
		return wfail(w, ret, "pinning thread %u to CPU %d: %s", w->index,
			     w->cpu, strerror(ret));
	return 0;
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	struct ring_state rs;
	int ok;

	memset(&rs, 0, sizeof(rs));
	ok = !pin(w) && !ring_init(w, &rs);
	__atomic_add_fetch(&w->sh->ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&w->sh->go, __ATOMIC_ACQUIRE)) {
		struct timespec ts = { 0, 200000 };

		nanosleep(&ts, NULL);
	}
	if (ok) {
		io_loop(w, &rs);
		drain(&rs);
	}
	ring_fini(&rs);
	__atomic_store_n(&w->finished, 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&w->sh->nfinished, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &w->sh->nfinished, FUTEX_WAKE_PRIVATE, INT_MAX,
		NULL, NULL, 0);
	return NULL;
}

void worker_wait(struct worker_shared *sh, unsigned int seen,
		 uint64_t until_ns)
{
	struct timespec ts = { .tv_sec = until_ns / 1000000000ULL,
			       .tv_nsec = until_ns % 1000000000ULL };

	/* BITSET: the timeout is absolute, on CLOCK_MONOTONIC. */
	syscall(SYS_futex, &sh->nfinished, FUTEX_WAIT_BITSET_PRIVATE, seen, &ts,
		NULL, FUTEX_BITSET_MATCH_ANY);
}

int worker_start(struct worker *w)
{
	int ret = pthread_create(&w->thread, NULL, worker_fn, w);

	if (ret)
		return wfail(w, ret, "creating thread %u: %s", w->index,
			     strerror(ret));
	w->created = true;
	return 0;
}

void worker_join(struct worker *w)
{
	if (w->created)
		pthread_join(w->thread, NULL);
	w->created = false;
}
