/* SPDX-License-Identifier: MIT */
/*
 * Who the client is, for the failed-authentication rate limit: the TCP
 * peer, or, when the peer is a reverse proxy the operator trusts
 * (perflabd --trusted-proxy), the address the proxy put in
 * X-Forwarded-For. Behind a proxy every request comes from the proxy's
 * address: keyed by the peer, ten bad keys from anyone would lock out
 * every user. X-Forwarded-For from any other peer is ignored, or a
 * client could pick a fresh address for every guess.
 */
#ifndef PERFLAB_CLIENTADDR_H
#define PERFLAB_CLIENTADDR_H

#include <stddef.h>
#include <stdint.h>

#define CLIENTADDR_MAX_PROXIES 16

struct clientaddr_proxies {
	int n;
	struct {
		uint8_t addr[16];
		uint8_t len;	/* 4 (IPv4) or 16 (IPv6) */
	} a[CLIENTADDR_MAX_PROXIES];
};

/*
 * Add the IPv4/IPv6 addresses of @spec (one, or a comma-separated list).
 * 0, or -1 if one is not an address or the table is full.
 */
int clientaddr_add_proxies(struct clientaddr_proxies *p, const char *spec);

/*
 * The rate-limit key (see ratelimit.h: 4 bytes of IPv4, the /64 of IPv6)
 * of the client whose TCP peer is @peer (a struct sockaddr, may be NULL)
 * and whose X-Forwarded-For header is @xff (may be NULL): the peer, unless
 * the peer is a trusted proxy; then the right-most X-Forwarded-For entry
 * that is not a trusted proxy (entries to its left were written by the
 * client and prove nothing). 0 if unknown.
 */
size_t clientaddr_key(const struct clientaddr_proxies *p, const void *peer,
		      const char *xff, uint8_t out[16]);

#endif
