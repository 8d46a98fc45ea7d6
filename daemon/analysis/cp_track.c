// SPDX-License-Identifier: MIT
/*
 * Stored change points against a new detection; see cp_track.h.
 */
#include <stdint.h>

#include "daemon/analysis/cp_track.h"

/* The nearest current change point to @idx within @min not yet taken. */
static long nearest_free(const struct cp *cur, size_t ncur,
			 const unsigned char *taken, size_t idx, size_t min)
{
	size_t dist = SIZE_MAX;
	long best = -1;

	for (size_t c = 0; c < ncur; c++) {
		size_t d = cur[c].index > idx ? cur[c].index - idx :
						idx - cur[c].index;

		if (!taken[c] && d < min && d < dist) {
			dist = d;
			best = (long)c;
		}
	}
	return best;
}

static void take(struct cp_row *r, const struct cp *cur, long c,
		 const struct cp *prev, size_t nprev, size_t min)
{
	enum cp_state was = r->state;
	bool again = cp_find(prev, nprev, cur[c].index, min) >= 0;

	r->match = c;
	r->index = cur[c].index;
	r->state = was == CP_CONFIRMED || again ? CP_CONFIRMED : CP_CANDIDATE;
	r->promoted = was != CP_CONFIRMED && r->state == CP_CONFIRMED;
}

int cp_track_reconcile(struct cp_row *rows, size_t nrows, const struct cp *cur,
		       size_t ncur, const struct cp *prev, size_t nprev,
		       size_t min, unsigned char *fresh)
{
	int promoted = 0;

	for (size_t c = 0; c < ncur; c++)
		fresh[c] = 0;
	for (size_t i = 0; i < nrows; i++) {
		rows[i].match = -1;
		rows[i].promoted = false;
	}
	/* Live rows first: a retracted one never takes a live one's place. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < nrows; i++) {
			struct cp_row *r = &rows[i];
			long c;

			if ((r->state == CP_RETRACTED) != (pass == 1))
				continue;
			c = nearest_free(cur, ncur, fresh, r->index, min);
			if (c < 0) {
				r->state = CP_RETRACTED;
				continue;
			}
			fresh[c] = 0xff;	/* taken, for now */
			take(r, cur, c, prev, nprev, min);
			promoted += r->promoted;
		}
	for (size_t c = 0; c < ncur; c++) {
		if (fresh[c]) {
			fresh[c] = 0;
			continue;
		}
		if (cp_find(prev, nprev, cur[c].index, min) >= 0) {
			fresh[c] = CP_CONFIRMED + 1;
			promoted++;
		} else {
			fresh[c] = CP_CANDIDATE + 1;
		}
	}
	return promoted;
}
