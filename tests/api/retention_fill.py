#!/usr/bin/env python3
"""Helper of tests/api/retention.sh: NEXP experiments of two variants,
RUNS runs each, uploaded through the runner protocol with per-second
samples, a sampled profile of NSYM symbols (symbol i has fewer samples
the larger i, with a per-run wobble so the top set is not trivially the
first names) and folded stacks. Waits until every experiment is
analysed; prints their ids, one a line.

usage: retention_fill.py BASE ADMIN_KEY SUBMIT_KEY NEXP
"""
import http.client
import json
import sys
import time
import urllib.parse

base, admin, submit, nexp = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
RUNS, SECONDS, NSYM = 3, 6, 80
u = urllib.parse.urlparse(base)
c = http.client.HTTPConnection(u.hostname, u.port, timeout=60)


def call(key, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    c.request(method, path, body=data, headers={"Authorization": "Bearer " + key,
                                                "Content-Type": "application/json"})
    r = c.getresponse()
    raw = r.read()
    return r.status, (json.loads(raw) if raw else None)


st, _ = call(admin, "POST", "/api/v1/hosts/register",
             {"name": "ret-host", "backend": "qemu-icount", "labels": ["ret"]})
assert st == 200, st
ids = []
for i in range(nexp):
    st, b = call(submit, "POST", "/api/v1/experiments",
                 {"title": "retention %d" % i, "label": "ret", "runs": RUNS, "max_runs": RUNS,
                  "bench": {"runtime": SECONDS, "warmup": 1},
                  "variants": [{"name": "A"}, {"name": "B"}]})
    assert st == 201, (st, b)
    ids.append(b["id"])
n = 0
while True:
    st, job = call(admin, "POST", "/api/v1/jobs/claim", {"host": "ret-host", "wait": 0})
    if st == 204:
        break
    assert st == 200, (st, job)
    n += 1
    j = job["job_id"]
    syms = [{"dso": "[kernel.kallsyms]", "sym": "fn_%02d" % s,
             "samples": 2000 - 20 * s + (j * 7 + s * 13) % 37} for s in range(NSYM)]
    total = sum(x["samples"] for x in syms)
    body = {"lease": job["lease"], "bench": {
        "version": 1,
        "samples": [{"t": t, "iops": 100000 + 10 * j + t} for t in range(1, SECONDS + 1)],
        "summary": {"warmup": 1, "seconds": SECONDS - 1, "mean": 100000.0 + 10 * j},
        "profile": {"event": "cpu-clock", "total": total, "lost": 0, "symbols": syms,
                    "stacks": [{"stack": "entry;fn_%02d" % s, "samples": 10} for s in range(5)]}}}
    st, b = call(admin, "POST", "/api/v1/jobs/%d/result" % j, body)
    assert st == 201, (st, b)
for _ in range(600):
    pending = 0
    for e in ids:
        st, b = call(submit, "GET", "/api/v1/experiments/%d" % e)
        if b["state"] != "done" or b["analysis_pending"]:
            pending += 1
    if not pending:
        break
    time.sleep(0.1)
assert not pending, "%d experiments not analysed" % pending
for e in ids:
    print(e)
