#!/usr/bin/env python3
"""Tarpit listeners for the fault tests (not a test itself):

    tarpit.py DIR NAME...

For each NAME a TCP listener on 127.0.0.1 (a free port, written to
DIR/NAME.port) that accepts every connection and never sends a byte: an
upstream git server, SMTP relay or webhook receiver that hangs. What
clients send is read and dropped; connections stay open until the client
closes them. DIR/NAME.conns holds the number of connections accepted so
far. Runs until killed."""
import os
import selectors
import socket
import sys

out = sys.argv[1]
sel = selectors.DefaultSelector()
conns = {}


def write(name, what, value):
    tmp = os.path.join(out, "%s.%s.tmp" % (name, what))
    with open(tmp, "w") as f:
        f.write("%s\n" % value)
    os.rename(tmp, os.path.join(out, "%s.%s" % (name, what)))


for name in sys.argv[2:]:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(128)
    s.setblocking(False)
    sel.register(s, selectors.EVENT_READ, ("listen", name))
    conns[name] = 0
    write(name, "conns", 0)
    write(name, "port", s.getsockname()[1])

while True:
    for key, _ in sel.select():
        kind, name = key.data
        if kind == "listen":
            c, _ = key.fileobj.accept()
            c.setblocking(False)
            sel.register(c, selectors.EVENT_READ, ("conn", name))
            conns[name] += 1
            write(name, "conns", conns[name])
            continue
        try:
            data = key.fileobj.recv(65536)
        except OSError:
            data = b""
        if not data:
            sel.unregister(key.fileobj)
            key.fileobj.close()
