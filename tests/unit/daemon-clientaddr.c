// SPDX-License-Identifier: MIT
/*
 * Description: the failed-auth rate limit's client address: the TCP peer
 * unless it is a trusted proxy; then the right-most X-Forwarded-For entry
 * that is not a trusted proxy (forged entries to its left do not count);
 * IPv4-mapped IPv6 peers are their IPv4 address, IPv6 clients count by
 * /64; garbage in the header leaves the proxy's own address.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "daemon/http/clientaddr.h"
#include "unit/check.h"

static struct sockaddr_in v4(const char *a)
{
	struct sockaddr_in s = { .sin_family = AF_INET };

	inet_pton(AF_INET, a, &s.sin_addr);
	return s;
}

/* The key for @peer and @xff as text ("10.0.0.1", or 8 hex bytes). */
static const char *key(const struct clientaddr_proxies *p, const void *peer,
		       const char *xff)
{
	static char out[64];
	uint8_t k[16];
	size_t n = clientaddr_key(p, peer, xff, k);

	if (n == 4)
		inet_ntop(AF_INET, k, out, sizeof(out));
	else
		for (size_t i = 0; i < n; i++)
			sprintf(out + 2 * i, "%02x", k[i]);
	if (n == 0)
		strcpy(out, "-");
	return out;
}

int main(void)
{
	struct clientaddr_proxies p = { 0 };
	struct sockaddr_in proxy = v4("127.0.0.1"), other = v4("192.0.2.9");
	struct sockaddr_in6 mapped = { .sin6_family = AF_INET6 };

	CHECK(clientaddr_add_proxies(&p, "127.0.0.1, ::1,[2001:db8::1]") == 0);
	CHECK(p.n == 3);
	CHECK(clientaddr_add_proxies(&p, "127.0.0.1,nope") == -1);

	CHECK(!strcmp(key(&p, &other, "10.0.0.1"), "192.0.2.9"),
	      "header from an untrusted peer ignored");
	CHECK(!strcmp(key(&p, &proxy, NULL), "127.0.0.1"));
	CHECK(!strcmp(key(&p, &proxy, "10.0.0.1"), "10.0.0.1"));
	CHECK(!strcmp(key(&p, &proxy, "6.6.6.6, 10.0.0.1"), "10.0.0.1"),
	      "forged left entry");
	CHECK(!strcmp(key(&p, &proxy, "10.0.0.1, ::1"), "10.0.0.1"),
	      "through a second trusted proxy");
	CHECK(!strcmp(key(&p, &proxy, "10.0.0.1,junk"), "127.0.0.1"),
	      "garbage: the proxy's address");
	CHECK(!strcmp(key(&p, &proxy, "2001:db8:1:2:3:4:5:6"), "20010db800010002"),
	      "IPv6 by /64: %s", key(&p, &proxy, "2001:db8:1:2:3:4:5:6"));
	inet_pton(AF_INET6, "::ffff:127.0.0.1", &mapped.sin6_addr);
	CHECK(!strcmp(key(&p, &mapped, "10.0.0.7"), "10.0.0.7"),
	      "IPv4-mapped peer is the IPv4 proxy");
	CHECK(!strcmp(key(NULL, &proxy, "10.0.0.1"), "127.0.0.1"), "no proxies");
	CHECK(!strcmp(key(&p, NULL, "10.0.0.1"), "-"));
	DONE();
}
