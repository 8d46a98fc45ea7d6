#!/usr/bin/env python3
"""The fake runner of the API, CLI and fault tests: speaks perflabd's
runner protocol (docs/contracts.md section 2) like perflab-runner does,
but answers each job from its parameters instead of building and booting
a kernel. One program for every test that needs a lab without hardware.

usage: fake_runner.py URL RUNNER_KEY HOST LABEL [options]

  --spec FILE      answers by the job's base commit, re-read for each job:
                   {"values": {"<sha>": iops}, "default": 100000,
                    "broken": [sha], "failing": {"<sha>": "boot"},
                    "alternate": {"<sha>": [iops, ...]}, "patched": factor}
                   (broken: the build fails; failing: the job fails with
                   that reason; alternate: the commit's runs take the
                   values in turn; patched: a variant with patches runs
                   at factor times the IOPS); the result's build.commit
                   is the commit
  --slowdown PCT   variants that are not the control run PCT % slower;
                   "fail": their jobs fail (patch_apply)
  --iops N         IOPS of a job no other rule decides (100000)
  --profile        results carry a sampled profile (per variant)
  --phases         heartbeat the build, boot and run phases first
  --stall PHASE    with --phases: at PHASE of the first job, write
                   DIR/stalled-PHASE ("ID LEASE") and hang (to be killed)
  --dir DIR        log each upload to DIR/sim-uploads ("ID STATUS"), a
                   refused one's body to DIR/sim-errors; exit when a claim
                   finds no job and DIR/drained exists
  --strict         exit (1) on an HTTP error instead of going on
  --no-register    the test registered HOST itself
  --seed N         the noise's seed (7)

Runs until killed (or drained); one line per job on stdout."""
import argparse
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixtures  # noqa: E402

ap = argparse.ArgumentParser(usage=__doc__)
ap.add_argument("url")
ap.add_argument("key")
ap.add_argument("host")
ap.add_argument("label")
ap.add_argument("--spec")
ap.add_argument("--slowdown", default="0")
ap.add_argument("--iops", type=float, default=100000)
ap.add_argument("--profile", action="store_true")
ap.add_argument("--phases", action="store_true")
ap.add_argument("--stall", default="none")
ap.add_argument("--dir")
ap.add_argument("--strict", action="store_true")
ap.add_argument("--no-register", action="store_true")
ap.add_argument("--seed", type=int, default=7)
a = ap.parse_args()
fail_variants = a.slowdown == "fail"
slowdown = 0.0 if fail_variants else float(a.slowdown)


def call(path, body):
    req = urllib.request.Request(a.url + path, data=json.dumps(body).encode(),
                                 method="POST")
    req.add_header("Authorization", "Bearer " + a.key)
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            data = r.read()
            return r.status, json.loads(data) if data else None
    except urllib.error.HTTPError as e:
        msg = "%s: HTTP %d: %s" % (path, e.code, e.read().decode())
        if a.strict:
            sys.exit(msg)
        print(msg, flush=True)
        return e.code, msg


def fail(job, reason, log, what):
    call("/api/v1/jobs/%d/fail" % job["job_id"],
         {"lease": job["lease"], "reason": reason, "log": log})
    print("job %d %s %s failed" % (job["job_id"], what, reason), flush=True)


def phases(job, first):
    for p in ("build", "boot", "run"):
        call("/api/v1/jobs/%d/heartbeat" % job["job_id"],
             {"lease": job["lease"], "phase": p})
        if first and p == a.stall:
            with open(os.path.join(a.dir, "stalled-" + p), "w") as f:
                f.write("%d %s\n" % (job["job_id"], job["lease"]))
            time.sleep(1000)
        time.sleep(0.1)


def answer(job, spec, turns):
    """None (the job failed) or the IOPS of its result."""
    commit = job["base"].get("commit", "")
    control = job["variant"].get("is_control", True)
    if commit in spec.get("broken", []):
        fail(job, "build", "make: *** [Makefile:1] Error 2\n", commit[:12])
        return None
    why = spec.get("failing", {}).get(commit)
    if why:
        fail(job, why, "simulated %s failure\n" % why, commit[:12])
        return None
    if fail_variants and not control:
        fail(job, "patch_apply", fixtures.PATCH_REJECT_LOG,
             job["variant"]["name"])
        return None
    iops = spec.get("values", {}).get(commit, spec.get("default", a.iops))
    alt = spec.get("alternate", {}).get(commit)
    if alt:
        iops = alt[turns.get(commit, 0) % len(alt)]
        turns[commit] = turns.get(commit, 0) + 1
    if job["variant"].get("patches") and "patched" in spec:
        iops = int(iops * spec["patched"])
    return iops if control else iops * (1 - slowdown / 100)


def upload(job, iops, rng):
    commit = job["base"].get("commit", "")
    body = fixtures.result_body(
        job["lease"], iops, rng,
        profile=fixtures.variant_profile(job["variant"].get("is_control",
                                                            True), rng)
        if a.profile else None, commit=commit)
    status, err = call("/api/v1/jobs/%d/result" % job["job_id"], body)
    if a.dir:
        with open(os.path.join(a.dir, "sim-uploads"), "a") as f:
            f.write("%d %d\n" % (job["job_id"], status))
        if status != 201:
            with open(os.path.join(a.dir, "sim-errors"), "a") as f:
                f.write("%s\n" % err)
    print("job %d %s %d" % (job["job_id"], commit[:12], iops), flush=True)


def main():
    rng = random.Random(a.seed)
    turns = {}
    first = True
    if not a.no_register:
        call("/api/v1/hosts/register",
             {"name": a.host, "labels": [a.label], "backend": "local",
              "facts": fixtures.HOST_FACTS})
    while True:
        status, job = call("/api/v1/jobs/claim", {"host": a.host, "wait": 1})
        if status == 204 and a.dir and \
                os.path.exists(os.path.join(a.dir, "drained")):
            return 0
        if status != 200 or not job:
            if status not in (200, 204):
                time.sleep(0.2)
            continue
        spec = {}
        if a.spec:
            with open(a.spec) as f:
                spec = json.load(f)
        if a.phases:
            phases(job, first)
        first = False
        iops = answer(job, spec, turns)
        if iops is not None:
            upload(job, iops, rng)


sys.exit(main())
