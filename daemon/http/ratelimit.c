// SPDX-License-Identifier: MIT
/*
 * Token buckets for failed authentication, per client address.
 */
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "daemon/http/ratelimit.h"

void ratelimit_init(struct ratelimit *rl, double burst, double per_second)
{
	memset(rl, 0, sizeof(*rl));
	pthread_mutex_init(&rl->lock, NULL);
	rl->burst = burst;
	rl->rate = per_second;
}

void ratelimit_destroy(struct ratelimit *rl)
{
	pthread_mutex_destroy(&rl->lock);
}

double ratelimit_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

size_t ratelimit_key(const void *sa, uint8_t out[16])
{
	const struct sockaddr *s = sa;

	if (!s)
		return 0;
	if (s->sa_family == AF_INET) {
		memcpy(out, &((const struct sockaddr_in *)sa)->sin_addr, 4);
		return 4;
	}
	if (s->sa_family == AF_INET6) {
		/* The /64: one host usually owns the whole prefix. */
		memcpy(out, &((const struct sockaddr_in6 *)sa)->sin6_addr, 8);
		return 8;
	}
	return 0;
}

static uint32_t hash(const uint8_t *a, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ a[i]) * 16777619u;
	return h;
}

static void refill(struct ratelimit *rl, struct ratelimit_slot *s, double now)
{
	if (now > s->last) {
		s->tokens += (now - s->last) * rl->rate;
		if (s->tokens > rl->burst)
			s->tokens = rl->burst;
	}
	s->last = now;
}

/* The slot of @addr; with @create a fresh (full) one if absent. Locked. */
static struct ratelimit_slot *find(struct ratelimit *rl, const uint8_t *addr,
				   size_t len, double now, bool create)
{
	uint32_t h = hash(addr, len);
	struct ratelimit_slot *s, *victim = NULL;
	int i;

	for (i = 0; i < RATELIMIT_PROBE; i++) {
		s = &rl->slot[(h + i) % RATELIMIT_SLOTS];
		if (s->len == len && !memcmp(s->addr, addr, len)) {
			refill(rl, s, now);
			return s;
		}
		if (!victim || !s->len || (victim->len && s->last < victim->last))
			victim = s;
	}
	if (!create)
		return NULL;
	memset(victim, 0, sizeof(*victim));
	memcpy(victim->addr, addr, len);
	victim->len = (uint8_t)len;
	victim->tokens = rl->burst;
	victim->last = now;
	return victim;
}

/* Whole seconds until @s holds a token (at least 1). */
static int wait_seconds(const struct ratelimit *rl, const struct ratelimit_slot *s)
{
	double w;
	int n;

	if (rl->rate <= 0)
		return 3600;
	w = (1.0 - s->tokens) / rl->rate;
	n = (int)w;
	if (n < w)
		n++;
	return n < 1 ? 1 : n;
}

bool ratelimit_allowed(struct ratelimit *rl, const void *addr, size_t len,
		       double now, int *retry_after)
{
	struct ratelimit_slot *s;
	bool ok = true;

	if (!len || len > 16)
		return true;
	pthread_mutex_lock(&rl->lock);
	s = find(rl, addr, len, now, false);
	if (s && s->tokens < 1.0) {
		ok = false;
		if (retry_after)
			*retry_after = wait_seconds(rl, s);
	}
	pthread_mutex_unlock(&rl->lock);
	return ok;
}

void ratelimit_fail(struct ratelimit *rl, const void *addr, size_t len, double now)
{
	struct ratelimit_slot *s;

	if (!len || len > 16)
		return;
	pthread_mutex_lock(&rl->lock);
	s = find(rl, addr, len, now, true);
	s->tokens -= 1.0;
	if (s->tokens < 0)
		s->tokens = 0;
	pthread_mutex_unlock(&rl->lock);
}
