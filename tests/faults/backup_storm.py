#!/usr/bin/env python3
"""Driver of tests/faults/backup-storm.sh: NHOSTS simulated hosts claim,
heartbeat and upload results (per-second samples and a profile) while
`perflabd backup` copies the live database. The client's own record of
the uploads perflabd acknowledged (201) is the reference: every run
acknowledged before the backup began must be in the restored copy, none
acknowledged after the backup ended may be (the copy is one snapshot),
and every run of the copy is whole (its samples and profile).

usage: backup_storm.py BASE ADMIN_KEY SUBMIT_KEY PERFLABD LIVE_DB TMPDIR
Prints the failures and exits 1, or exits 0.
"""
import os
import sqlite3
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
import storm  # noqa: E402

base, admin, submit, perflabd, live, tmp = sys.argv[1:7]
NHOSTS, NEXP, RUNS, SECONDS = 8, 40, 5, 6
failures = []
lab = storm.Lab(base)
conn, call = lab.conn, storm.call
storm.setup(conn(), admin, submit, "bk", NHOSTS, NEXP, RUNS,
            {"runtime": SECONDS, "warmup": 1}, "backup storm")

lock = threading.Lock()
acked = []          # lease tokens in the order perflabd acknowledged them
stop = threading.Event()


def result_body(lease, job):
    return {"lease": lease, "bench": {
        "version": 1,
        "samples": [{"t": t, "iops": 100000 + job + t} for t in range(1, SECONDS + 1)],
        "summary": {"warmup": 1, "seconds": SECONDS - 1, "mean": 100000.0 + job},
        "profile": {"event": "cpu-clock", "total": 1000, "lost": 0, "symbols": [
            {"dso": "[kernel.kallsyms]", "sym": "sym_%d" % (job % 50), "samples": 600},
            {"dso": "[kernel.kallsyms]", "sym": "io_submit_sqes", "samples": 400}]}}}


def host(i):
    c = conn()
    name = "bk-%03d" % i
    while not stop.is_set():
        st, job = call(c, admin, "POST", "/api/v1/jobs/claim", {"host": name, "wait": 0})
        if st == 204:
            return
        if st != 200:
            failures.append("claim: HTTP %d %s" % (st, job))
            return
        path = "/api/v1/jobs/%d/" % job["job_id"]
        call(c, admin, "POST", path + "heartbeat", {"lease": job["lease"], "phase": "run"})
        st, body = call(c, admin, "POST", path + "result", result_body(job["lease"], job["job_id"]))
        if st != 201:
            failures.append("result: HTTP %d %s" % (st, body))
            return
        with lock:
            acked.append(job["lease"])


threads = [threading.Thread(target=host, args=(i,)) for i in range(NHOSTS)]
for t in threads:
    t.start()
while True:
    with lock:
        n = len(acked)
    if n >= 60 or not any(t.is_alive() for t in threads):
        break
    time.sleep(0.01)
with lock:
    before = set(acked)
backup = os.path.join(tmp, "backup.db")
# Throttled so that the copy spans many uploads (small database).
r = subprocess.run([perflabd, "backup", backup, "--db", live,
                    "--pages-per-second", "400"], capture_output=True, text=True)
with lock:
    after = set(acked)
if r.returncode != 0:
    failures.append("backup: rc %d: %s" % (r.returncode, r.stderr.strip()))
for t in threads:
    t.join()
with lock:
    final = set(acked)
during = len(after) - len(before)
print("runs acknowledged: %d before the backup, %d during it, %d after it"
      % (len(before), during, len(final) - len(after)))
if during == 0:
    failures.append("no upload was acknowledged while the backup ran:"
                    " the test did not test a backup under load")

restored = os.path.join(tmp, "restored.db")
if not failures:
    r = subprocess.run([perflabd, "restore", backup, "--db", restored],
                       capture_output=True, text=True)
    if r.returncode != 0:
        failures.append("restore: rc %d: %s" % (r.returncode, r.stderr.strip()))
if not failures:
    r = subprocess.run([perflabd, "check", "--db", restored], capture_output=True, text=True)
    if r.returncode != 0:
        failures.append("check of the restored copy: rc %d: %s%s"
                        % (r.returncode, r.stdout, r.stderr))
if not failures:
    db = sqlite3.connect(restored)
    have = {row[0] for row in db.execute("SELECT lease_token FROM runs")}
    missing = before - have
    if missing:
        failures.append("%d runs acknowledged before the backup began are not in it"
                        % len(missing))
    late = have & (final - after)
    if late:
        failures.append("%d runs acknowledged after the backup ended are in it:"
                        " not one snapshot" % len(late))
    unknown = have - final
    if unknown:
        failures.append("%d runs in the copy were never acknowledged" % len(unknown))
    torn = db.execute("SELECT count(*) FROM runs r WHERE (SELECT count(*) FROM samples"
                      " WHERE run_id = r.id) != ? OR NOT EXISTS (SELECT 1 FROM"
                      " profile_symbols WHERE run_id = r.id)", (SECONDS,)).fetchone()[0]
    if torn:
        failures.append("%d runs of the copy lack their samples or profile" % torn)
    done_no_run = db.execute("SELECT count(*) FROM jobs j WHERE state = 'done' AND NOT"
                             " EXISTS (SELECT 1 FROM runs WHERE job_id = j.id)").fetchone()[0]
    if done_no_run:
        failures.append("%d jobs done without their run in the copy" % done_no_run)
    print("copy holds %d runs (%d acknowledged before it began, %d by its end)"
          % (len(have), len(before), len(after)))
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
