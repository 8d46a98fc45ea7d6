/* SPDX-License-Identifier: MIT */
/*
 * insn_marker: the start and end of the timed IO window as instructions a
 * QEMU TCG plugin can recognise (runners/insn-plugin/insn_count.c).
 *
 * QEMU 7.2's plugin API shows instruction bytes at translation time but
 * no registers, so the marks are NOPs with a distinctive encoding:
 * `nopl disp32(%rax)` (0f 1f 80 + 32-bit displacement) with a magic
 * displacement. Compilers only emit this NOP with displacement 0 for
 * padding, and it does nothing on a real CPU, so the marks cost one
 * instruction each wherever the bench runs. Spelled as bytes so the
 * assembler cannot pick a shorter encoding.
 */
#ifndef PERFLAB_INSN_MARKER_H
#define PERFLAB_INSN_MARKER_H

/* "1PLI" / "2PLI" little-endian: start and end of the --ios window. */
#define INSN_MARKER_START	0x494c5031u
#define INSN_MARKER_END		0x494c5032u
#define INSN_MARKER_LEN		7

#if defined(__x86_64__)
#define INSN_MARKER_EMIT(b0, b1, b2, b3)				\
	__asm__ __volatile__(".byte 0x0f, 0x1f, 0x80, " #b0 ", " #b1	\
			     ", " #b2 ", " #b3 ::: "memory")
#else
#define INSN_MARKER_EMIT(b0, b1, b2, b3) do { } while (0)
#endif

/* The bytes must match INSN_MARKER_START/END above. */
static inline void insn_marker_start(void)
{
	INSN_MARKER_EMIT(0x31, 0x50, 0x4c, 0x49);
}

static inline void insn_marker_end(void)
{
	INSN_MARKER_EMIT(0x32, 0x50, 0x4c, 0x49);
}

/*
 * What the instruction bytes d[0..len) are: 1 the start mark, 2 the end
 * mark, 0 anything else. Used by the plugin at translation time.
 */
static inline int insn_marker_kind(const unsigned char *d, unsigned long len)
{
	unsigned int disp;

	if (len != INSN_MARKER_LEN || d[0] != 0x0f || d[1] != 0x1f ||
	    d[2] != 0x80)
		return 0;
	disp = d[3] | d[4] << 8 | d[5] << 16 | (unsigned int)d[6] << 24;
	if (disp == INSN_MARKER_START)
		return 1;
	return disp == INSN_MARKER_END ? 2 : 0;
}

#endif
