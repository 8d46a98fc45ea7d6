"""The lab of the storm drivers (bench/api-storm.py, tests/faults/
backup_storm.py): keep-alive connections to perflabd, one call, and the
hosts and A/B experiments a storm of simulated runners works through."""
import http.client
import json
import urllib.parse


class Lab:
    def __init__(self, base):
        self.url = urllib.parse.urlparse(base)

    def conn(self):
        """A keep-alive connection (one per thread)."""
        return http.client.HTTPConnection(self.url.hostname, self.url.port,
                                          timeout=60)


def call(c, key, method, path, body=None):
    """(status, JSON body or None) of one request on connection C."""
    data = json.dumps(body).encode() if body is not None else None
    c.request(method, path, body=data,
              headers={"Authorization": "Bearer " + key,
                       "Content-Type": "application/json"})
    r = c.getresponse()
    raw = r.read()
    return r.status, (json.loads(raw) if raw else None)


def setup(c, admin, submit, prefix, nhosts, nexp, runs, bench, title):
    """NHOSTS hosts PREFIX-NNN on label PREFIX, NEXP experiments of
    variants A and B with RUNS runs a side (BENCH the bench)."""
    for i in range(nhosts):
        st, _ = call(c, admin, "POST", "/api/v1/hosts/register",
                     {"name": "%s-%03d" % (prefix, i),
                      "backend": "qemu-icount", "labels": [prefix]})
        assert st == 200, st
    for i in range(nexp):
        st, body = call(c, submit, "POST", "/api/v1/experiments",
                        {"title": "%s %d" % (title, i), "label": prefix,
                         "runs": runs, "max_runs": runs, "bench": bench,
                         "variants": [{"name": "A"}, {"name": "B"}]})
        assert st == 201, (st, body)
