#!/usr/bin/env bash
# Description: every job template in dist/lava is a valid LAVA 2023.01 job
# definition once perflab's variables are filled in: LAVA's own schema
# (lava_common.schemas.validate, strict, as lava-server checks a
# submission) accepts each one, read with PyYAML like LAVA reads it; and
# each names only variables perflab provides or a lab's vars supply.
top=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3
$PY -c 'import lava_common.schemas, yaml' 2>/dev/null ||
	{ echo "lava-common is not installed (make deps)"; exit 77; }
$PY - "$top"/dist/lava/*.json <<'PY'
import json, re, sys, yaml
from lava_common.schemas import validate
values = {"job_name": "perflab job 1", "tags": ["perflab-1"],
          "metadata": {"perflab.job": 1}, "job_minutes": 20, "boot_minutes": 5,
          "test_minutes": 7, "insn_plugin": "/usr/lib/perflab/perflab-insn.so",
          "cmdline": "perflab_canary=16", "kernel_url": "http://lab/k",
          "kernel_sha256": "0" * 64, "initrd_url": "http://lab/i",
          "initrd_sha256": "1" * 64, "file_headers": {"X-Perflab-Token": "plj_x"},
          "bench_command": "/bin/perflab-lava-bench nullb -d 128",
          "notify": {"criteria": {"status": "finished"}, "callbacks": [
              {"url": "http://lab/cb", "method": "POST", "dataset": "minimal",
               "content-type": "json", "token": "plj_x", "header": "X-Perflab-Token"}]}}
def fill(x):
    if isinstance(x, str):
        m = re.fullmatch(r"\$\{(\w+)\}", x)
        if m:
            return values[m.group(1)]
        return re.sub(r"(?<!\$)\$\{(\w+)\}", lambda m: str(values[m.group(1)]), x).replace("$${", "${")
    if isinstance(x, list):
        return [fill(i) for i in x]
    if isinstance(x, dict):
        return {k: fill(v) for k, v in x.items()}
    return x
bad = 0
for path in sys.argv[1:]:
    job = yaml.safe_load(json.dumps(fill(json.load(open(path)))))
    try:
        validate(job, strict=True)
        print("ok", path.split("/")[-1], [list(a)[0] for a in job["actions"]])
    except Exception as e:
        print("FAIL", path, e)
        bad += 1
sys.exit(1 if bad else 0)
PY
