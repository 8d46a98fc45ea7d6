// SPDX-License-Identifier: MIT
/*
 * perflab-bench: peak IOPS io_uring benchmark (t/io_uring style) with an
 * optional system-wide libperf profile of the measured window.
 *
 * Exit codes: 0 success, 1 run failure (target, polling, IO, profiler),
 * 2 bad command line.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "opts.h"
#include "profile.h"
#include "report.h"
#include "target.h"
#include "worker.h"

#define NSEC		1000000000ULL
#define SLICE_NS	(NSEC / 10)	/* -P: profile buffer drain period */

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

struct run {
	struct bench_opts o;
	struct target t;
	struct worker_shared sh;
	struct worker *w;
	struct profile *prof;
	struct bench_result r;
	uint64_t *prev_done, *prev_sub, *prev_calls, *inflight;
	unsigned int cap_samples;
};

static int die(int code, const char *msg)
{
	fprintf(stderr, "perflab-bench: %s\n", msg);
	return code;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC + ts.tv_nsec;
}

/* The first -n CPUs this process may run on, one per thread. */
static int pick_cpus(struct run *run, char *err, size_t len)
{
	cpu_set_t set;
	unsigned int i, n = 0;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		for (i = 0; i < run->o.threads; i++)
			run->w[i].cpu = -1;
		return 0;
	}
	for (cpu = 0; cpu < CPU_SETSIZE && n < run->o.threads; cpu++)
		if (CPU_ISSET(cpu, &set))
			run->w[n++].cpu = cpu;
	if (n < run->o.threads) {
		snprintf(err, len, "-n %u threads but only %u CPUs are available",
			 run->o.threads, n);
		return -1;
	}
	return 0;
}

static int alloc_run(struct run *run)
{
	unsigned int n = run->o.threads;

	run->w = aligned_alloc(64, ((n * sizeof(*run->w) + 63) / 64) * 64);
	run->prev_done = calloc(n, sizeof(uint64_t));
	run->prev_sub = calloc(n, sizeof(uint64_t));
	run->prev_calls = calloc(n, sizeof(uint64_t));
	run->inflight = calloc(n, sizeof(uint64_t));
	run->cap_samples = run->o.runtime ? run->o.runtime : 64;
	run->r.samples = calloc(run->cap_samples, sizeof(struct sample));
	if (!run->w || !run->prev_done || !run->prev_sub || !run->prev_calls ||
	    !run->inflight || !run->r.samples)
		return -1;
	memset(run->w, 0, n * sizeof(*run->w));
	return 0;
}

static void free_run(struct run *run)
{
	free(run->w);
	free(run->prev_done);
	free(run->prev_sub);
	free(run->prev_calls);
	free(run->inflight);
	free(run->r.samples);
	profile_close(run->prof);
	target_close(&run->t);
}

/* Starts every worker; returns after all rings are set up. */
static int start_workers(struct run *run)
{
	unsigned int i, n = run->o.threads;
	struct timespec ts = { 0, 200000 };

	run->sh.o = &run->o;
	run->sh.t = &run->t;
	run->sh.phase = run->o.warmup ? PHASE_WARMUP : PHASE_MEASURE;
	for (i = 0; i < n; i++) {
		run->w[i].sh = &run->sh;
		run->w[i].index = i;
		if (worker_start(&run->w[i])) {
			/* The threads already started exit at once. */
			__atomic_store_n(&run->sh.phase, PHASE_STOP, __ATOMIC_RELAXED);
			__atomic_store_n(&run->sh.go, 1, __ATOMIC_RELEASE);
			return -1;
		}
	}
	while (__atomic_load_n(&run->sh.ready, __ATOMIC_ACQUIRE) < n)
		nanosleep(&ts, NULL);
	__atomic_store_n(&run->sh.go, 1, __ATOMIC_RELEASE);
	return 0;
}

static const struct worker *failed_worker(const struct run *run)
{
	unsigned int i;

	for (i = 0; i < run->o.threads; i++)
		if (__atomic_load_n(&run->w[i].err, __ATOMIC_RELAXED))
			return &run->w[i];
	return NULL;
}

static bool all_finished(const struct run *run)
{
	unsigned int i;

	for (i = 0; i < run->o.threads; i++)
		if (!__atomic_load_n(&run->w[i].finished, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/* Takes the counters at a one-second tick and prints the line. */
static int take_sample(struct run *run)
{
	struct sample s = { 0 };
	unsigned int i;

	if (run->r.nsamples == run->cap_samples) {
		struct sample *v = realloc(run->r.samples,
					   2 * run->cap_samples * sizeof(*v));

		if (!v)
			return -1;
		run->r.samples = v;
		run->cap_samples *= 2;
	}
	for (i = 0; i < run->o.threads; i++) {
		const struct worker_counters *c = &run->w[i].c;
		uint64_t done = worker_read(&c->done);
		uint64_t sub = worker_read(&c->submitted);
		uint64_t calls = worker_read(&c->calls);

		run->inflight[i] = worker_read(&c->inflight);
		s.iops += done - run->prev_done[i];
		s.reaped += done - run->prev_done[i];
		s.submitted += sub - run->prev_sub[i];
		s.calls += calls - run->prev_calls[i];
		s.inflight += run->inflight[i];
		run->prev_done[i] = done;
		run->prev_sub[i] = sub;
		run->prev_calls[i] = calls;
	}
	run->r.samples[run->r.nsamples++] = s;
	report_print_second(stdout, &s, run->inflight, run->o.threads);
	return 0;
}

static void set_phase(struct run *run, int phase)
{
	__atomic_store_n(&run->sh.phase, phase, __ATOMIC_RELAXED);
}

/*
 * Drives the run: a tick every second from the start, warm-up end at tick
 * -w, end at tick -r or when every thread has timed its --ios IOs.
 */
static void main_loop(struct run *run)
{
	const struct bench_opts *o = &run->o;
	uint64_t t0 = mono_ns(), tick = t0 + NSEC;
	unsigned int sec = 0;

	if (run->prof && !o->warmup)
		profile_enable(run->prof);
	for (;;) {
		unsigned int seen = __atomic_load_n(&run->sh.nfinished,
						    __ATOMIC_ACQUIRE);
		uint64_t wake = tick;

		/*
		 * Only the profiler needs waking within the second: every
		 * wake-up of this thread is kernel work (timer, two context
		 * switches, about 4300 instructions) inside the workers'
		 * window, and whether a 100 ms wake-up fell inside a --ios
		 * window or just after it varied ns/IO by 0.002 % across
		 * qemu-icount boots. Workers that finish or fail wake it.
		 */
		if (run->prof && mono_ns() + SLICE_NS < tick)
			wake = mono_ns() + SLICE_NS;
		if (seen < o->threads)
			worker_wait(&run->sh, seen, wake);
		if (run->prof)
			profile_drain(run->prof);
		if (interrupted || failed_worker(run) ||
		    (o->ios && all_finished(run)))
			break;
		if (mono_ns() < tick)
			continue;
		tick += NSEC;
		sec++;
		if (take_sample(run))
			break;
		if (sec == o->warmup) {
			set_phase(run, PHASE_MEASURE);
			if (run->prof)
				profile_enable(run->prof);
		}
		if (o->runtime && sec >= o->runtime)
			break;
	}
	set_phase(run, PHASE_STOP);
	if (run->prof) {
		profile_disable(run->prof);
		profile_drain(run->prof);
	}
}

static void join_workers(struct run *run)
{
	unsigned int i;

	set_phase(run, PHASE_STOP);
	for (i = 0; i < run->o.threads; i++)
		worker_join(&run->w[i]);
}

/* Window figures: CPU per IO always, ns/IO when --ios was used. */
static int summarise(struct run *run, char *err, size_t len)
{
	struct summary *s = &run->r.sum;
	uint64_t ios = 0, user = 0, sys = 0, start = UINT64_MAX, end = 0;
	unsigned int i;

	report_summarise(&run->r);
	for (i = 0; i < run->o.threads; i++) {
		const struct worker *w = &run->w[i];

		s->total_ios += w->c.done;
		s->eagain += w->c.eagain;
		if (!w->win.ended)
			continue;
		ios += w->win.end_done - w->win.start_done;
		user += w->win.user_ns;
		sys += w->win.sys_ns;
		start = w->win.start_ns < start ? w->win.start_ns : start;
		end = w->win.end_ns > end ? w->win.end_ns : end;
		if (run->o.ios && w->win.end_done - w->win.start_done < run->o.ios) {
			snprintf(err, len,
				 "thread %u completed only %llu of the %llu IOs "
				 "asked by --ios within -r %u s",
				 i, (unsigned long long)(w->win.end_done -
							 w->win.start_done),
				 (unsigned long long)run->o.ios, run->o.runtime);
			return -1;
		}
	}
	s->window_ios = ios;
	if (ios) {
		s->user_ns_per_io = (double)user / ios;
		s->sys_ns_per_io = (double)sys / ios;
	}
	if (run->o.ios && ios) {
		s->ios_measured = ios;
		s->ns_per_io = (double)(end - start) / ios;
	}
	return 0;
}

static int setup(struct run *run, int argc, char **argv)
{
	char err[1024];
	int ret = opts_parse(&run->o, argc, argv, err, sizeof(err));

	if (ret == OPTS_HELP) {
		opts_usage(stdout);
		exit(0);
	}
	if (ret) {
		fprintf(stderr, "perflab-bench: %s\nTry 'perflab-bench -h'.\n", err);
		return 2;
	}
	if (alloc_run(run))
		return die(1, "out of memory");
	if (pick_cpus(run, err, sizeof(err)))
		return die(2, err);
	if (target_open(&run->t, run->o.target, err, sizeof(err)))
		return die(1, err);
	if (target_check_bs(&run->t, run->o.bs, err, sizeof(err)))
		return die(2, err);
	if (run->o.polled && target_check_poll(&run->t, err, sizeof(err)))
		return die(1, err);
	if (target_queue_short(&run->t, run->o.depth, err, sizeof(err)))
		fprintf(stderr, "perflab-bench: warning: %s\n", err);
	if (run->o.profile) {
		run->prof = profile_open(run->o.profile_freq, err, sizeof(err));
		if (!run->prof)
			return die(1, err);
	}
	return 0;
}

static int finish(struct run *run)
{
	const struct worker *bad = failed_worker(run);
	char err[1024];
	struct utsname u;

	if (bad)
		return die(1, bad->errmsg);
	if (interrupted)
		fprintf(stderr, "perflab-bench: interrupted, summarising %u s\n",
			run->r.nsamples);
	run->r.o = &run->o;
	run->r.t = &run->t;
	if (summarise(run, err, sizeof(err)))
		return die(1, err);
	run->r.flags = run->w[0].flags;
	run->r.prof = run->prof;
	if (!uname(&u))
		snprintf(run->r.kernel, sizeof(run->r.kernel), "%s", u.release);
	if (run->prof && profile_resolve(run->prof))
		return die(1, "profile: out of memory while symbolising");
	report_print_summary(stdout, &run->r);
	if (run->prof)
		profile_print_top(run->prof, stdout, 15);
	if (run->o.json_path &&
	    report_write_json(&run->r, run->o.json_path, err, sizeof(err)))
		return die(1, err);
	return 0;
}

int main(int argc, char **argv)
{
	struct run run = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };
	int ret;

	opts_defaults(&run.o);
	run.t.fd = -1;
	ret = setup(&run, argc, argv);
	if (ret)
		goto out;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (start_workers(&run)) {
		join_workers(&run);
		ret = die(1, failed_worker(&run) ? failed_worker(&run)->errmsg :
			  "cannot start threads");
		goto out;
	}
	if (!failed_worker(&run)) {
		report_print_header(stdout, &run.o, &run.t, run.w[0].flags);
		main_loop(&run);
	}
	join_workers(&run);
	ret = finish(&run);
out:
	free_run(&run);
	return ret;
}
