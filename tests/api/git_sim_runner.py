#!/usr/bin/env python3
"""A simulated runner for the git track and bisection API tests: claims
every job and answers by the job's base commit (docs/contracts.md section
2): a commit in BROKEN fails its build (reason "build"), a commit in
FAILING fails with the reason given there (every attempt); the others upload
a perflab-bench result whose IOPS are VALUE of that commit (default
100000) with 0.05 % noise, and build.commit = the commit.

usage: git_sim_runner.py URL RUNNER_KEY HOST LABEL SPEC.json
SPEC: {"values": {"<sha>": iops, ...}, "default": 100000, "broken": [sha],
       "failing": {"<sha>": "boot"}, "alternate": {"<sha>": [iops, ...]},
       "patched": factor}
("failing": that commit's jobs fail with the reason; "alternate": that
commit's runs take the listed values in turn; "patched": the IOPS of a
variant with patches are multiplied by it.)
Runs until killed; prints one line per job to stdout."""
import json
import random
import sys
import urllib.error
import urllib.request

url, key, host, label, spec_path = sys.argv[1:6]


def call(path, body):
    req = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                 method="POST")
    req.add_header("Authorization", "Bearer " + key)
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            data = r.read()
            return r.status, json.loads(data) if data else None
    except urllib.error.HTTPError as e:
        print("%s: HTTP %d: %s" % (path, e.code, e.read().decode()), flush=True)
        return e.code, None


def bench(iops, rng):
    samples = []
    for t in range(1, 7):
        v = int(iops * (1 + rng.gauss(0, 0.0005)))
        samples.append({"t": t, "iops": v, "ios_per_submit": 32.0,
                        "ios_per_reap": 31.0, "inflight": 75})
    kept = [s["iops"] for s in samples[1:]]
    mean = sum(kept) / len(kept)
    return {"version": 1, "tool": "perflab-bench",
            "params": {"target": "/dev/nullb0", "depth": 128,
                       "submit_batch": 32, "complete_batch": 32, "bs": 512,
                       "polled": True, "fixedbufs": True, "regfiles": True,
                       "random": True, "threads": 1, "runtime": 6,
                       "warmup": 1, "seed": 1, "ios": 0},
            "ring_flags": [], "kernel": "6.1.0-perflab",
            "device": {"name": "nullb0", "model": "", "firmware": "",
                       "logical_block_size": 512, "io_poll": 1,
                       "scheduler": "none", "size_bytes": 1 << 30},
            "samples": samples,
            "summary": {"warmup": 1, "seconds": 5, "mean": mean,
                        "median": sorted(kept)[2], "stddev": 1.0,
                        "total_ios": int(sum(s["iops"] for s in samples))}}


rng = random.Random(11)
turns = {}
call("/api/v1/hosts/register",
     {"name": host, "labels": [label], "backend": "local",
      "facts": {"cpu_model": "sim", "cpus": 1, "mem_bytes": 1 << 30,
                "kernel": "6.1", "nvme_model": "", "nvme_firmware": "",
                "poll_ok": True}})
while True:
    status, job = call("/api/v1/jobs/claim", {"host": host, "wait": 1})
    if status != 200 or not job:
        continue
    with open(spec_path) as f:
        spec = json.load(f)
    commit = job["base"].get("commit", "")
    if commit in spec.get("broken", []):
        call("/api/v1/jobs/%d/fail" % job["job_id"],
             {"lease": job["lease"], "reason": "build",
              "log": "make: *** [Makefile:1] Error 2\n"})
        print("job %d %s build failed" % (job["job_id"], commit[:12]), flush=True)
        continue
    why = spec.get("failing", {}).get(commit)
    if why:
        call("/api/v1/jobs/%d/fail" % job["job_id"],
             {"lease": job["lease"], "reason": why,
              "log": "simulated %s failure\n" % why})
        print("job %d %s %s failed" % (job["job_id"], commit[:12], why), flush=True)
        continue
    iops = spec.get("values", {}).get(commit, spec.get("default", 100000))
    alt = spec.get("alternate", {}).get(commit)
    if alt:
        iops = alt[turns.get(commit, 0) % len(alt)]
        turns[commit] = turns.get(commit, 0) + 1
    if job.get("variant", {}).get("patches") and "patched" in spec:
        iops = int(iops * spec["patched"])
    call("/api/v1/jobs/%d/result" % job["job_id"],
         {"lease": job["lease"], "bench": bench(iops, rng),
          "build": {"cache_key": "sim-" + commit[:12], "cached": True,
                    "seconds": 0, "log": "", "commit": commit},
          "boot_log": "", "timings": {"build_s": 0, "boot_s": 0, "run_s": 6}})
    print("job %d %s %d" % (job["job_id"], commit[:12], iops), flush=True)
