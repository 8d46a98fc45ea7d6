#!/usr/bin/env python3
"""Claim/heartbeat/result storm against a running perflabd (used by
bench/api-wrk.sh). N simulated hosts (threads with keep-alive connections)
claim jobs, heartbeat and upload small results until the queue is empty.
Prints claims/s and request latencies, and checks that no job was handed
out twice and every job has exactly one run.

usage: api-storm.py BASE_URL ADMIN_KEY SUBMIT_KEY NHOSTS DB_PATH
"""
import os
import sqlite3
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests", "lib"))
import storm  # noqa: E402

base, admin, submit, nhosts, dbpath = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
lab = storm.Lab(base)
conn, call = lab.conn, storm.call
# 5 runs a side is the least an experiment's verdict is computed from, so
# every upload that completes a side sets off a real analysis.
runs = int(os.environ.get("STORM_RUNS", "5"))
nexp = 2 * nhosts
storm.setup(conn(), admin, submit, "storm", nhosts, nexp, runs,
            {"runtime": 2, "warmup": 1, "profile": False}, "storm")
njobs = nexp * 2 * runs

claims, lat_claim, lat_hb, lat_res, lat_last, errors = [], [], [], [], [], []
lock = threading.Lock()


def result_body(lease):
    return {"lease": lease, "bench": {"version": 1, "samples": [{"t": 1, "iops": 1000}, {"t": 2, "iops": 1001}],
                                      "summary": {"warmup": 1, "seconds": 1, "mean": 1001.0}}}


def host(i):
    c = conn()
    name = "storm-%03d" % i
    mine, lc, lh, lr, ll = [], [], [], [], []
    while True:
        t0 = time.perf_counter()
        st, job = call(c, admin, "POST", "/api/v1/jobs/claim", {"host": name, "wait": 0})
        lc.append(time.perf_counter() - t0)
        if st == 204:
            break
        if st != 200:
            with lock:
                errors.append(("claim", st, job))
            break
        mine.append(job["job_id"])
        path = "/api/v1/jobs/%d/" % job["job_id"]
        t0 = time.perf_counter()
        st, _ = call(c, admin, "POST", path + "heartbeat", {"lease": job["lease"], "phase": "run"})
        lh.append(time.perf_counter() - t0)
        if st != 200:
            with lock:
                errors.append(("heartbeat", st))
        t0 = time.perf_counter()
        st, _ = call(c, admin, "POST", path + "result", result_body(job["lease"]))
        lr.append(time.perf_counter() - t0)
        # The experiment's last upload: the one that sets off its analysis.
        if job.get("seq") == 2 * runs - 1:
            ll.append(lr[-1])
        if st != 201:
            with lock:
                errors.append(("result", st))
    with lock:
        claims.extend(mine)
        lat_claim.extend(lc)
        lat_hb.extend(lh)
        lat_res.extend(lr)
        lat_last.extend(ll)


def histogram():
    c = conn()
    c.request("GET", "/metrics")
    text = c.getresponse().read().decode()
    h = {}
    for line in text.splitlines():
        if line.startswith("perflab_http_request_duration_seconds_bucket"):
            le = line.split('le="')[1].split('"')[0]
            h[le] = int(line.split()[-1])
    return h


def server_quantile(before, after, q):
    """Upper bucket bound holding quantile q of the requests in between."""
    keys = [k for k in after if k != "+Inf"]
    keys.sort(key=float)
    total = after["+Inf"] - before.get("+Inf", 0)
    for k in keys:
        if after[k] - before.get(k, 0) >= q * total:
            return "<= %g ms" % (float(k) * 1000)
    return "> %g ms" % (float(keys[-1]) * 1000)


threads = [threading.Thread(target=host, args=(i,)) for i in range(nhosts)]
h0 = histogram()
t0 = time.perf_counter()
for t in threads:
    t.start()
for t in threads:
    t.join()
elapsed = time.perf_counter() - t0
h1 = histogram()
t_end = time.perf_counter()


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] * 1000 if xs else float("nan")


db = sqlite3.connect(dbpath)
# Analyses still to run when the last runner got its answer (a daemon
# that analyses off the request path); the time the backlog takes.
try:
    backlog = db.execute("SELECT count(*) FROM experiments WHERE analysis_pending != 0").fetchone()[0]
    while db.execute("SELECT count(*) FROM experiments WHERE analysis_pending != 0").fetchone()[0]:
        time.sleep(0.02)
    print("analyses pending at the storm's end: %d, all done %.2f s later" %
          (backlog, time.perf_counter() - t_end))
except sqlite3.OperationalError:
    pass
runs = db.execute("SELECT count(*) FROM runs r JOIN experiments e ON e.id = r.experiment_id"
                  " WHERE e.label = 'storm'").fetchone()[0]
doubled = db.execute("SELECT count(*) FROM (SELECT job_id FROM runs GROUP BY job_id"
                     " HAVING count(*) > 1)").fetchone()[0]
notdone = db.execute("SELECT count(*) FROM jobs j JOIN experiments e ON e.id = j.experiment_id"
                     " WHERE e.label = 'storm' AND j.state != 'done'").fetchone()[0]
dup = len(claims) - len(set(claims))
print("%d hosts, %d jobs: %d claims in %.2f s = %.0f claims/s (each claim + heartbeat + result);"
      " %.0f requests/s" % (nhosts, njobs, len(claims), elapsed, len(claims) / elapsed,
                            (3 * len(claims) + nhosts) / elapsed))
print("claim latency p50 %.2f ms p99 %.2f ms; heartbeat p50 %.2f ms p99 %.2f ms" %
      (pct(lat_claim, .5), pct(lat_claim, .99), pct(lat_hb, .5), pct(lat_hb, .99)))
print("result upload latency p50 %.2f ms p99 %.2f ms max %.2f ms" %
      (pct(lat_res, .5), pct(lat_res, .99), pct(lat_res, 1)))
print("last upload of an experiment (%d, each sets off an analysis): p50 %.2f ms p99 %.2f ms max %.2f ms" %
      (len(lat_last), pct(lat_last, .5), pct(lat_last, .99), pct(lat_last, 1)))
print("server-side latency of all storm requests (perflabd histogram): p50 %s, p99 %s" %
      (server_quantile(h0, h1, .5), server_quantile(h0, h1, .99)))
print("jobs handed out twice: %d; runs stored: %d of %d; jobs with two runs: %d; jobs not done: %d; errors: %d"
      % (dup, runs, njobs, doubled, notdone, len(errors)))
if errors:
    print("first errors:", errors[:5])
ok = dup == 0 and runs == njobs and doubled == 0 and notdone == 0 and not errors
print("storm check:", "OK" if ok else "FAILED")
