"""Result builders and sample data for the Python test helpers: a
perflab-bench result in the shape of docs/contracts.md section 1 and the
host facts a runner registers. tests/api/lib.sh's sample_result is the
shell's builder of the same shape."""

HOST_FACTS = {"cpu_model": "sim", "cpus": 1, "mem_bytes": 1 << 30,
              "kernel": "6.1", "nvme_model": "", "nvme_firmware": "",
              "poll_ok": True}

PATCH_REJECT_LOG = ("checking file block/blk-mq-tag.c\n"
                    "error: patch failed: block/blk-mq-tag.c:1\n"
                    "error: block/blk-mq-tag.c: patch does not apply\n")

PARAMS = {"target": "/dev/nullb0", "depth": 128, "submit_batch": 32,
          "complete_batch": 32, "bs": 512, "polled": True,
          "fixedbufs": True, "regfiles": True, "random": True, "threads": 1,
          "runtime": 6, "warmup": 1, "seed": 1, "ios": 0}

DEVICE = {"name": "nullb0", "model": "", "firmware": "",
          "logical_block_size": 512, "io_poll": 1, "scheduler": "none",
          "size_bytes": 1 << 30}


def bench(iops, rng, noise=0.0005, seconds=6, profile=None):
    """A perflab-bench result: SECONDS samples around IOPS (the first is
    the warm-up), relative gaussian NOISE from RNG."""
    samples = [{"t": t, "iops": int(iops * (1 + rng.gauss(0, noise))),
                "ios_per_submit": 32.0, "ios_per_reap": 31.0,
                "inflight": 75} for t in range(1, seconds + 1)]
    kept = [s["iops"] for s in samples[1:]]
    out = {"version": 1, "tool": "perflab-bench",
           "params": dict(PARAMS, runtime=seconds), "ring_flags": [],
           "kernel": "6.1.0-perflab", "device": DEVICE, "samples": samples,
           "summary": {"warmup": 1, "seconds": seconds - 1,
                       "mean": sum(kept) / len(kept),
                       "median": sorted(kept)[len(kept) // 2],
                       "stddev": 1.0,
                       "total_ios": int(sum(s["iops"] for s in samples))}}
    if profile:
        out["profile"] = profile
    return out


def variant_profile(control, rng):
    """A sampled profile in which the variant moves time from
    blk_mq_get_tag to the request allocation and adds a symbol."""
    syms = [("blk_mq_get_tag", 209 if control else 104),
            ("io_submit_sqes", 400),
            ("__do_sys_io_uring_enter", 48 if control else 146),
            ("__blk_mq_alloc_request", 149 if control else 234)]
    if not control:
        syms.append(("__blk_mq_free_request", 71))
    return {"event": "cpu-clock", "total": 10000, "lost": 0,
            "symbols": [{"dso": "[kernel.kallsyms]", "sym": n,
                         "samples": c + rng.randint(0, 3)} for n, c in syms],
            "stacks": [{"stack": "entry_SYSCALL_64;do_syscall_64;"
                        "io_submit_sqes", "samples": 400}]}


def result_body(lease, iops, rng, profile=None, commit=""):
    """The body of POST /api/v1/jobs/ID/result."""
    build = {"cache_key": "sim-" + commit[:12] if commit else "sim",
             "cached": True, "seconds": 0, "log": ""}
    if commit:
        build["commit"] = commit
    return {"lease": lease, "bench": bench(iops, rng, profile=profile),
            "build": build, "boot_log": "",
            "timings": {"build_s": 0, "boot_s": 0, "run_s": 6}}
