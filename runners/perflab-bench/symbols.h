/* SPDX-License-Identifier: MIT */
/*
 * Address to symbol resolution for profiles: kernel addresses through
 * /proc/kallsyms, user addresses through /proc/PID/maps and the ELF symbol
 * tables (.symtab, else .dynsym) of the mapped files, read with libelf.
 * Returned strings stay valid until the table is freed.
 */
#ifndef PERFLAB_BENCH_SYMBOLS_H
#define PERFLAB_BENCH_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ksyms;
struct usyms;

struct sym_hit {
	const char *dso;	/* "[kernel.kallsyms]", "[null_blk]", "libc.so.6" */
	const char *sym;	/* "[unknown]" when not found */
};

/* Loads /proc/kallsyms (or @path). NULL if unreadable. */
struct ksyms *ksyms_load(const char *path);
void ksyms_free(struct ksyms *k);
/* Number of text symbols with a non-zero address. */
size_t ksyms_count(const struct ksyms *k);
struct sym_hit ksyms_lookup(const struct ksyms *k, uint64_t ip);

struct usyms *usyms_new(void);
void usyms_free(struct usyms *u);
/* Reads /proc/PID/maps once per pid (later calls return at once). */
void usyms_note_pid(struct usyms *u, int pid);
struct sym_hit usyms_lookup(struct usyms *u, int pid, uint64_t ip);

#endif
