/* SPDX-License-Identifier: MIT */
/*
 * Rate limit on failed authentication: a token bucket per client address
 * (IPv4 address, or the /64 of an IPv6 address). Every request with an
 * invalid key takes a token; a client with no token left gets 429 for
 * every authenticated request, valid key or not, until the bucket refills.
 * The table is fixed-size: a new client evicts the slot that has been
 * quiet longest, so memory stays bounded under address churn.
 */
#ifndef PERFLAB_RATELIMIT_H
#define PERFLAB_RATELIMIT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RATELIMIT_SLOTS 1024
#define RATELIMIT_PROBE 8
/* Defaults: 10 failures in a burst, then one more every 6 s (10/minute). */
#define RATELIMIT_BURST 10.0
#define RATELIMIT_PER_SECOND (1.0 / 6.0)

struct ratelimit_slot {
	uint8_t addr[16];
	uint8_t len;		/* 0: free */
	double tokens;
	double last;		/* seconds, monotonic */
};

struct ratelimit {
	pthread_mutex_t lock;
	double burst, rate;
	struct ratelimit_slot slot[RATELIMIT_SLOTS];
};

void ratelimit_init(struct ratelimit *rl, double burst, double per_second);
void ratelimit_destroy(struct ratelimit *rl);

/*
 * May the client at @addr (@len bytes, <= 16) try a key at time @now?
 * false when its bucket is empty; then @retry_after (if not NULL) gets
 * the seconds until the next token.
 */
bool ratelimit_allowed(struct ratelimit *rl, const void *addr, size_t len,
		       double now, int *retry_after);
/* Record a failed attempt (takes one token). */
void ratelimit_fail(struct ratelimit *rl, const void *addr, size_t len, double now);

/* The bytes that identify the client of a struct sockaddr: 0 if unknown. */
size_t ratelimit_key(const void *sockaddr, uint8_t out[16]);

/* Monotonic clock in seconds. */
double ratelimit_now(void);

#endif
