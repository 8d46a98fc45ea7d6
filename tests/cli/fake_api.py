#!/usr/bin/env python3
# A stand-in perflabd for CLI tests (not a test itself):
#   fake_api.py DIR FIXTURES
# GET /api/v1/tracks, /api/v1/tracks/1 and /api/v1/bisections/7 answer
# FIXTURES/track.json and bisection.json; other GETs 404 {"error"}; every
# POST is saved as DIR/post.N (path line, then the body) and answered 201
# {"id": 9}. The port goes to DIR/port. Runs until killed.
import http.server
import json
import os
import sys

out, fx = sys.argv[1], sys.argv[2]
posts = [0]


def load(name):
    with open(os.path.join(fx, name)) as f:
        return json.load(f)


class H(http.server.BaseHTTPRequestHandler):
    def answer(self, status, doc):
        body = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        routes = {
            "/api/v1/tracks": lambda: {"tracks": [load("track.json")]},
            "/api/v1/tracks/1": lambda: load("track.json"),
            "/api/v1/bisections/7": lambda: load("bisection.json"),
        }
        if self.path in routes:
            self.answer(200, routes[self.path]())
        else:
            self.answer(404, {"error": "no such thing: " + self.path})

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        posts[0] += 1
        with open(os.path.join(out, "post.%d" % posts[0]), "w") as f:
            f.write(self.path + "\n" + body.decode())
        self.answer(201, {"id": 9})

    def log_message(self, *a):
        pass


s = http.server.HTTPServer(("127.0.0.1", 0), H)
with open(os.path.join(out, "port.tmp"), "w") as f:
    f.write(str(s.server_address[1]))
os.rename(os.path.join(out, "port.tmp"), os.path.join(out, "port"))
s.serve_forever()
