#!/usr/bin/env python3
"""Drive perflabd's runner protocol (docs/contracts.md section 2) for the
CLI tests: register a host, claim every job of the queue and upload a
perflab-bench result whose IOPS depend on the variant.

usage: sim_runner.py URL RUNNER_KEY HOST LABEL SLOWDOWN_PCT
Variants that are not the control run SLOWDOWN_PCT % slower; SLOWDOWN
"fail" reports their jobs as failed (patch does not apply). Runs until
killed (more runs may be scheduled after an inconclusive verdict)."""
import json
import random
import sys
import urllib.error
import urllib.request

url, key, host, label, slow = sys.argv[1:6]
fail = slow == "fail"
slow = 0.0 if fail else float(slow)


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
        sys.exit("%s: HTTP %d: %s" % (path, e.code, e.read().decode()))


def bench(job, rng):
    base = 234500.0
    if not job["variant"]["is_control"]:
        base *= 1 - slow / 100
    samples = []
    for t in range(1, 7):
        iops = int(base * (1 + rng.gauss(0, 0.0005)))
        samples.append({"t": t, "iops": iops, "ios_per_submit": 32.0,
                        "ios_per_reap": 31.0, "inflight": 75})
    ctrl = job["variant"]["is_control"]
    syms = [("blk_mq_get_tag", 209 if ctrl else 104),
            ("io_submit_sqes", 400), ("__do_sys_io_uring_enter", 48 if ctrl else 146),
            ("__blk_mq_alloc_request", 149 if ctrl else 234)]
    if not ctrl:
        syms.append(("__blk_mq_free_request", 71))
    profile = {"event": "cpu-clock", "total": 10000, "lost": 0,
               "symbols": [{"dso": "[kernel.kallsyms]", "sym": n,
                            "samples": c + rng.randint(0, 3)} for n, c in syms],
               "stacks": [{"stack": "entry_SYSCALL_64;do_syscall_64;io_submit_sqes",
                           "samples": 400}]}
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
                        "total_ios": int(sum(s["iops"] for s in samples))},
            "profile": profile}


rng = random.Random(7)
call("/api/v1/hosts/register",
     {"name": host, "labels": [label], "backend": "local",
      "facts": {"cpu_model": "sim", "cpus": 1, "mem_bytes": 1 << 30,
                "kernel": "6.1", "nvme_model": "", "nvme_firmware": "",
                "poll_ok": True}})
done = 0
while True:
    status, job = call("/api/v1/jobs/claim", {"host": host, "wait": 1})
    if status == 204 or not job:
        continue
    if fail and not job["variant"]["is_control"]:
        call("/api/v1/jobs/%d/fail" % job["job_id"],
             {"lease": job["lease"], "reason": "patch_apply",
              "log": "checking file block/blk-mq-tag.c\n"
                     "error: patch failed: block/blk-mq-tag.c:1\n"
                     "error: block/blk-mq-tag.c: patch does not apply\n"})
        continue
    call("/api/v1/jobs/%d/result" % job["job_id"],
         {"lease": job["lease"], "bench": bench(job, rng),
          "build": {"cache_key": "sim", "cached": True, "seconds": 0,
                    "log": ""},
          "boot_log": "", "timings": {"build_s": 0, "boot_s": 0,
                                      "run_s": 6}})
    done += 1
    print("jobs done:", done, flush=True)
