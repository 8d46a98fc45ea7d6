/*
 * Description: perflab-bench's window marks compile to exactly the 7-byte
 * `nopl disp32(%rax)` instructions the perflab-insn plugin recognises
 * (start, then end, once each in a function that calls both), and the
 * recogniser rejects ordinary NOPs, other displacements and other
 * lengths, so compiler padding can never open or close a window.
 */
#include <string.h>

#include "runners/perflab-bench/insn_marker.h"
#include "unit/check.h"

__attribute__((noinline)) static void marked(void)
{
	insn_marker_start();
	insn_marker_end();
}

int main(void)
{
	static const unsigned char pad[] = { 0x0f, 0x1f, 0x80, 0, 0, 0, 0 };
	static const unsigned char start[] = { 0x0f, 0x1f, 0x80, 0x31, 0x50,
					       0x4c, 0x49 };
	unsigned char other[7];
	const unsigned char *p = (const unsigned char *)marked;
	int seen[3] = { 0 }, order = 0;

	CHECK(insn_marker_kind(start, 7) == 1, "start bytes");
	CHECK(insn_marker_kind(pad, 7) == 0, "nopl 0x0(%%rax) is padding");
	CHECK(insn_marker_kind(start, 6) == 0, "wrong length");
	memcpy(other, start, 7);
	other[6] = 0x48;
	CHECK(insn_marker_kind(other, 7) == 0, "other displacement");
	other[6] = 0x49;
	other[3] = 0x32;
	CHECK(insn_marker_kind(other, 7) == 2, "end bytes");
	other[1] = 0x1e;
	CHECK(insn_marker_kind(other, 7) == 0, "other opcode");

#if defined(__x86_64__)
	/* Scan the compiled function: two NOPs and a ret, well within 64. */
	for (int i = 0; i < 64; i++) {
		int k = insn_marker_kind(p + i, 7);

		if (k) {
			seen[k]++;
			if (k == 2 && seen[1])
				order = 1;
		}
		if (p[i] == 0xc3 && seen[2])	/* ret after the marks */
			break;
	}
	CHECK(seen[1] == 1 && seen[2] == 1, "marks in marked(): %d start, %d "
	      "end", seen[1], seen[2]);
	CHECK(order, "start must come before end");
#else
	printf("skip: not x86-64\n");
	return 77;
#endif
	DONE();
}
