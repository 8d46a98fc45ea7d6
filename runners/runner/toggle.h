/* SPDX-License-Identifier: MIT */
/*
 * toggle: the runner's half of a toggle experiment. One boot
 * of one kernel runs several jobs (job->runs, in the daemon's A B B A
 * order); before each run the variant's runtime settings are written and
 * read back. On qemu the guest's init does that from a plan in the
 * initramfs (/toggle) and frames each run on the console (serial.h);
 * each run is uploaded as soon as its frame is complete, so a runner that
 * dies mid-boot loses only the runs not yet uploaded. On local (and kexec
 * after its reboot) the runner writes the settings itself.
 */
#ifndef PERFLAB_TOGGLE_H
#define PERFLAB_TOGGLE_H

#include <jansson.h>
#include <stddef.h>

#include "runners/runner/exec.h"
#include "runners/runner/job.h"

/* The guest's /toggle plan for @j (heap): "run JOB", "set PATH VALUE"..., "bench". */
char *toggle_plan(const struct job *j);

/* Follows a growing console capture and hands each finished run on. */
struct toggle_console {
	const struct exec_ctx *c;
	const struct job *j;
	const struct outcome *boot; /* build and boot facts for every run */
	size_t off; /* capture bytes already consumed */
	int next; /* index of the next run to finish */
};

/* qemu_spec.on_console for a toggle boot (arg: struct toggle_console). */
void toggle_on_console(void *arg, const char *buf, size_t len);

/*
 * After the boot: why run @i did not finish, into @o: "setting" with the
 * guest's words if the kernel refused one of its settings, else "bench"
 * (its frame is there but incomplete or bad) or "boot" (never started).
 */
void toggle_unfinished(const struct job *j, int i, const char *buf, size_t len,
		       struct outcome *o);

/*
 * Write @settings (object path -> value) and read each back: 0, or -1
 * with the reason (the kernel refused the write, or keeps another value).
 */
int toggle_apply(const json_t *settings, char *err, size_t errlen);

/*
 * Local and kexec (after its reboot): write each run's settings, read them
 * back, run the bench, hand the run to c->run_done. 0 when every run
 * ended, else -1 with the reason in @o and o->runs_done the first run
 * that did not.
 */
int toggle_local(const struct exec_ctx *c, const struct job *j,
		 struct outcome *o);

/*
 * The host's own values of the settings @j's runs write, saved to @file
 * (JSON path -> value, written atomically) before the first write:
 * 0, or -1 with the reason. toggle_local() saves and, after the runs,
 * restores them; the runner restores a file left by a crash at start.
 */
int toggle_save(const char *file, const struct job *j, char *err,
		size_t errlen);

/* Write back what @file saved and remove it: 0 (also: no file), or -1
 * when a value could not be written (logged; the file is gone anyway). */
int toggle_restore(const char *file);

/* Where the runner keeps the saved settings: WORKDIR/toggle-saved.json. */
void toggle_saved_path(const struct runner_cfg *cfg, char *out, size_t len);

/* This kernel's boot id (/proc/sys/kernel/random/boot_id), "" unknown. */
void toggle_boot_id(char *out, size_t len);

#endif
