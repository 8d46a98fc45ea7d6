#!/usr/bin/env python3
"""Latency of the reads a page makes against a running perflabd
(bench/scale.sh): each path N times over one keep-alive connection,
after 3 warm-up requests; prints p50, p99 and the answer's size.
"{i:A:B}" in a PATH is A + i mod (B - A) for the i-th request: distinct
paths, so that the daemon's response cache (256 answers, keyed by path
and database generation) answers none of them twice.

usage: scale-measure.py BASE_URL KEY N NAME=PATH...
"""
import http.client
import re
import sys
import time
import urllib.parse

base, key, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
u = urllib.parse.urlparse(base)
c = http.client.HTTPConnection(u.hostname, u.port, timeout=120)


def get(path):
    c.request("GET", path, headers={"Authorization": "Bearer " + key})
    r = c.getresponse()
    body = r.read()
    if r.status != 200:
        sys.exit("scale-measure: %s: HTTP %d %s" % (path, r.status, body[:200]))
    return body


def q(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def nth(path, i):
    return re.sub(r"\{i:(\d+):(\d+)\}",
                  lambda m: str(int(m[1]) + i % (int(m[2]) - int(m[1]))), path)


for spec in sys.argv[4:]:
    name, path = spec.split("=", 1)
    for i in range(3):
        size = len(get(nth(path, n + i)))
    lat = []
    for i in range(n):
        p = nth(path, i)
        t0 = time.perf_counter()
        get(p)
        lat.append((time.perf_counter() - t0) * 1000)
    print("%-28s p50 %8.2f ms  p99 %8.2f ms  %9d bytes  %s" %
          (name, q(lat, 0.5), q(lat, 0.99), size, path))
