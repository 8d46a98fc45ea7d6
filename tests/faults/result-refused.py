#!/usr/bin/env python3
# A stand-in daemon for tests/faults/result-refused.sh: hands out one
# local-backend job, answers its result upload with 422 (as perflabd does
# for a result it will never take) and records every request.
import json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG = sys.argv[2]
JOB = {"job_id": 7, "attempt": 1, "experiment_id": 1, "run_index": 0, "seq": 0,
       "backend": "local", "label": "lab", "config": "qemu",
       "base": {"name": "linux-6.1", "tree": "x", "ref": ""},
       "variant": {"id": 1, "name": "A", "is_control": True, "cmdline": "",
                   "setup": "", "patches": []},
       "bench": {"polled": False, "runtime": 2, "warmup": 1, "depth": 16,
                 "submit_batch": 4, "complete_batch": 4, "profile": False,
                 "bs": 512, "fixedbufs": True, "regfiles": True, "random": True,
                 "threads": 1, "seed": 1, "ios": 0, "target": ""},
       "lease": "L1", "lease_seconds": 60, "lease_expires": 0}
claimed = False


class H(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def reply(self, code, obj=None):
        body = json.dumps(obj).encode() if obj is not None else b""
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        global claimed
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n).decode(errors="replace")
        with open(LOG, "a") as f:
            f.write(json.dumps({"path": self.path, "body": body}) + "\n")
        if self.path == "/api/v1/hosts/register":
            return self.reply(200, {"host_id": 1, "name": "h1"})
        if self.path == "/api/v1/jobs/claim":
            if claimed:
                return self.reply(204)
            claimed = True
            return self.reply(200, JOB)
        if self.path.endswith("/result"):
            return self.reply(422, {"error": "bench.samples: 3 samples for a 2 s run"})
        return self.reply(200, {})


srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
with open(sys.argv[1], "w") as f:
    f.write(str(srv.server_address[1]))
srv.serve_forever()
