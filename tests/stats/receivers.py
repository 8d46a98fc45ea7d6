#!/usr/bin/env python3
# Local receivers for alert delivery tests (not a test itself):
#   receivers.py DIR
# An HTTP server that records every POST (headers + body) as DIR/hook.N and
# answers 500 to the first request and 200 afterwards; a minimal SMTP sink
# that offers AUTH PLAIN and stores every message as DIR/mail.N (with an
# "AUTH user=U pass=P" line when the client logged in). Ports go to DIR/http.port and
# DIR/smtp.port. Runs until killed.
import base64
import http.server
import os
import socketserver
import sys
import threading

out = sys.argv[1]
count = {"hook": 0, "mail": 0}
lock = threading.Lock()


def save(kind, text):
    with lock:
        count[kind] += 1
        n = count[kind]
    tmp = os.path.join(out, "%s.%d.tmp" % (kind, n))
    with open(tmp, "w") as f:
        f.write(text)
    os.rename(tmp, os.path.join(out, "%s.%d" % (kind, n)))
    return n


class Hook(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        head = "".join("%s: %s\n" % (k, v) for k, v in self.headers.items())
        n = save("hook", head + "\n" + body.decode())
        self.send_response(500 if n == 1 else 200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *a):
        pass


class Smtp(socketserver.StreamRequestHandler):
    def reply(self, line):
        self.wfile.write((line + "\r\n").encode())

    def handle(self):
        self.reply("220 sink ESMTP")
        data, envelope = None, []
        while True:
            line = self.rfile.readline()
            if not line:
                return
            line = line.decode(errors="replace").rstrip("\r\n")
            if data is not None:
                if line == ".":
                    save("mail", "\n".join(envelope) + "\n\n" + "\n".join(data))
                    data, envelope = None, []
                    self.reply("250 queued")
                else:
                    data.append(line[1:] if line.startswith("..") else line)
                continue
            cmd = line[:4].upper()
            if cmd == "EHLO":
                self.reply("250-sink")
                self.reply("250 AUTH PLAIN")
            elif cmd == "HELO":
                self.reply("250 sink")
            elif cmd == "AUTH":
                parts = line.split()
                if len(parts) < 3:
                    self.reply("334 ")
                    parts.append(self.rfile.readline().decode().strip())
                try:
                    _, user, pw = base64.b64decode(parts[2]).decode().split("\0")
                except ValueError:
                    self.reply("501 bad AUTH PLAIN")
                    continue
                envelope.append("AUTH user=%s pass=%s" % (user, pw))
                self.reply("235 ok")
            elif cmd in ("MAIL", "RCPT"):
                envelope.append(line)
                self.reply("250 ok")
            elif cmd == "DATA":
                data = []
                self.reply("354 go ahead")
            elif cmd == "QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("250 ok")


class TS(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True


h = TS(("127.0.0.1", 0), Hook)
s = TS(("127.0.0.1", 0), Smtp)
for name, srv in (("http", h), ("smtp", s)):
    with open(os.path.join(out, name + ".port.tmp"), "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(os.path.join(out, name + ".port.tmp"), os.path.join(out, name + ".port"))
threading.Thread(target=s.serve_forever, daemon=True).start()
h.serve_forever()
