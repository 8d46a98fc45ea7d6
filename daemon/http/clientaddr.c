// SPDX-License-Identifier: MIT
/*
 * The client address behind trusted reverse proxies; see clientaddr.h.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <string.h>

#include "daemon/http/clientaddr.h"

/* An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is the IPv4 address. */
static size_t unmap(const uint8_t *a16, uint8_t out[16])
{
	static const uint8_t prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
					    0xff, 0xff };

	if (!memcmp(a16, prefix, 12)) {
		memcpy(out, a16 + 12, 4);
		return 4;
	}
	memcpy(out, a16, 16);
	return 16;
}

/* Parse one address of @n bytes at @s: its length (4 or 16) or 0. */
static size_t parse(const char *s, size_t n, uint8_t out[16])
{
	char buf[64];
	uint8_t a6[16];

	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	/* "[v6]" as some proxies write it */
	if (n >= 2 && s[0] == '[' && s[n - 1] == ']')
		s++, n -= 2;
	if (!n || n >= sizeof(buf))
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (inet_pton(AF_INET, buf, out) == 1)
		return 4;
	if (inet_pton(AF_INET6, buf, a6) == 1)
		return unmap(a6, out);
	return 0;
}

int clientaddr_add_proxies(struct clientaddr_proxies *p, const char *spec)
{
	while (*spec) {
		size_t n = strcspn(spec, ","), len;

		if (p->n == CLIENTADDR_MAX_PROXIES)
			return -1;
		len = parse(spec, n, p->a[p->n].addr);
		if (!len)
			return -1;
		p->a[p->n++].len = (uint8_t)len;
		spec += n;
		if (*spec == ',')
			spec++;
	}
	return 0;
}

static bool trusted(const struct clientaddr_proxies *p, const uint8_t *a,
		    size_t len)
{
	for (int i = 0; p && i < p->n; i++)
		if (p->a[i].len == len && !memcmp(p->a[i].addr, a, len))
			return true;
	return false;
}

/* The rate-limit key of a full address: IPv6 by its /64. */
static size_t key_of(const uint8_t *a, size_t len, uint8_t out[16])
{
	memcpy(out, a, len == 16 ? 8 : len);
	return len == 16 ? 8 : len;
}

size_t clientaddr_key(const struct clientaddr_proxies *p, const void *peer,
		      const char *xff, uint8_t out[16])
{
	const struct sockaddr *sa = peer;
	uint8_t a[16];
	size_t len, end;

	if (!sa)
		return 0;
	if (sa->sa_family == AF_INET) {
		memcpy(a, &((const struct sockaddr_in *)peer)->sin_addr, 4);
		len = 4;
	} else if (sa->sa_family == AF_INET6) {
		len = unmap(((const struct sockaddr_in6 *)peer)->sin6_addr.s6_addr,
			    a);
	} else {
		return 0;
	}
	if (!xff || !trusted(p, a, len))
		return key_of(a, len, out);
	/* Right to left: the first hop that is not one of our proxies. */
	end = strlen(xff);
	while (end > 0) {
		size_t start = end, n;
		uint8_t h[16];

		while (start > 0 && xff[start - 1] != ',')
			start--;
		n = parse(xff + start, end - start, h);
		if (!n)
			break;		/* garbage: keep the proxy's address */
		memcpy(a, h, n);
		len = n;
		if (!trusted(p, h, n))
			break;
		end = start ? start - 1 : 0;
	}
	return key_of(a, len, out);
}
