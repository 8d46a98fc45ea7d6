// SPDX-License-Identifier: MIT
/*
 * Description: the failed-auth token bucket allows a burst, then refuses
 * with a Retry-After until tokens refill at the configured rate; clients
 * are independent (IPv4 address, IPv6 /64); the fixed table evicts the
 * quietest slot instead of growing, and a busy attacker keeps its slot.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "daemon/http/ratelimit.h"
#include "unit/check.h"

static void burst_and_refill(void)
{
	struct ratelimit rl;
	uint8_t a[4] = { 10, 0, 0, 1 }, b[4] = { 10, 0, 0, 2 };
	int i, ra = 0;

	ratelimit_init(&rl, 3, 0.5);
	for (i = 0; i < 3; i++) {
		CHECK(ratelimit_allowed(&rl, a, 4, 100.0, NULL), "try %d allowed", i);
		ratelimit_fail(&rl, a, 4, 100.0);
	}
	CHECK(!ratelimit_allowed(&rl, a, 4, 100.0, &ra), "4th try refused");
	CHECK(ra == 2, "retry after 2 s at 0.5/s, got %d", ra);
	CHECK(ratelimit_allowed(&rl, b, 4, 100.0, NULL), "another client unaffected");
	CHECK(!ratelimit_allowed(&rl, a, 4, 101.0, NULL), "half a token is not enough");
	CHECK(ratelimit_allowed(&rl, a, 4, 102.1, NULL), "one token after 2 s");
	ratelimit_fail(&rl, a, 4, 102.1);
	CHECK(!ratelimit_allowed(&rl, a, 4, 102.2, NULL), "spent again");
	CHECK(ratelimit_allowed(&rl, a, 4, 1000.0, NULL), "full after a long pause");
	for (i = 0; i < 3; i++)
		ratelimit_fail(&rl, a, 4, 1000.0);
	CHECK(!ratelimit_allowed(&rl, a, 4, 1000.0, NULL), "refill caps at the burst");
	ratelimit_destroy(&rl);
}

static void keys(void)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in s4 = { .sin_family = AF_INET };
	uint8_t k[16];

	inet_pton(AF_INET, "127.0.0.1", &s4.sin_addr);
	CHECK(ratelimit_key(&s4, k) == 4 && k[0] == 127 && k[3] == 1, "IPv4 key");
	inet_pton(AF_INET6, "2001:db8:1:2::5", &s6.sin6_addr);
	CHECK(ratelimit_key(&s6, k) == 8, "IPv6 /64 key");
	CHECK(ratelimit_key(NULL, k) == 0, "no address");
}

static void bounded_table(void)
{
	static struct ratelimit rl;
	uint8_t atk[4] = { 192, 0, 2, 1 }, a[4];
	unsigned i;

	ratelimit_init(&rl, 2, 0.001);
	ratelimit_fail(&rl, atk, 4, 1.0);
	ratelimit_fail(&rl, atk, 4, 1.0);
	/* Many one-off clients, while the attacker keeps failing. */
	for (i = 0; i < 100000; i++) {
		memcpy(a, &i, 4);
		a[0] = 10;
		ratelimit_fail(&rl, a, 4, 2.0 + i * 1e-6);
		if (i % 64 == 0)
			ratelimit_fail(&rl, atk, 4, 2.0 + i * 1e-6);
	}
	CHECK(!ratelimit_allowed(&rl, atk, 4, 3.0, NULL), "attacker still limited");
	ratelimit_destroy(&rl);
}

int main(void)
{
	burst_and_refill();
	keys();
	bounded_table();
	if (fails)
		return 1;
	printf("ok\n");
	return 0;
}
