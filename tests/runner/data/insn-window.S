/*
 * A multiboot guest for tests/runner/insn-plugin-window.sh: perflab-bench's
 * window marks (runners/perflab-bench/insn_marker.h; the same bytes decode as
 * `nopl disp32(%eax)` in 32-bit mode) around a loop of LOOPS iterations of
 * three instructions, then QEMU's isa-debug-exit. --defsym NOEND=1 leaves
 * the end mark out; --defsym PAD=1 uses the compilers' padding NOP
 * (displacement 0) instead of the marks; --defsym AGAIN=N adds a second
 * marked window of N iterations (a LAVA toggle boot's next bench run).
 */
	.set MAGIC, 0x1badb002
	.text
	.align 4
	.long MAGIC, 0, -MAGIC
	.globl _start
_start:
	mov $LOOPS, %ecx
	.if PAD
	.byte 0x0f, 0x1f, 0x80, 0, 0, 0, 0
	.else
	.byte 0x0f, 0x1f, 0x80, 0x31, 0x50, 0x4c, 0x49	/* start */
	.endif
1:	add $3, %eax
	dec %ecx
	jnz 1b
	.if !NOEND && !PAD
	.byte 0x0f, 0x1f, 0x80, 0x32, 0x50, 0x4c, 0x49	/* end */
	.endif
	.if AGAIN
	mov $AGAIN, %ecx
	.byte 0x0f, 0x1f, 0x80, 0x31, 0x50, 0x4c, 0x49	/* start */
3:	add $5, %ebx
	dec %ecx
	jnz 3b
	.byte 0x0f, 0x1f, 0x80, 0x32, 0x50, 0x4c, 0x49	/* end */
	.endif
	mov $0, %al
	out %al, $0xf4
2:	hlt
	jmp 2b
