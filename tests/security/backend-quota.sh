#!/usr/bin/env bash
# Description: the backends are the ones registered runners have: before
# any host registers, every backend is refused with 422 saying so; a
# backend no registered host runs is refused with 422 (it would never
# run) on experiments, patches, calibrations and tracked baselines, the
# refusal listing the backends hosts do run; a backend the daemon has
# never heard of is accepted once a runner registers it; one request may
# queue at most 256 runs (16 variants x 100 runs is 422); a submit key
# past its quota of queued runs (perflabd --max-queued-runs) gets 429
# with the numbers, nothing stored; admin keys have no quota.
. "$(dirname "$0")/../api/lib.sh"
start_daemon --max-queued-runs 30
SUB=$(make_key submit alice)
SUB2=$(make_key submit bob)
ADM=$(make_key admin root)

body=$(api POST /api/v1/experiments "$ADM" '{"backend":"qemu-icount","variants":[{"name":"A"}]}')
expect_status 422 "a backend before any host registered"
grep -q "none registered" <<<"$body" || fail "the refusal says no host registered: $body"
i=0
for b in local qemu qemu-icount xen-pv; do
	i=$((i + 1))
	register_host "$(make_key runner "r$i")" "h$i" lab "$b"
done

body=$(api POST /api/v1/experiments "$SUB" '{"backend":"nope","variants":[{"name":"A"}]}')
expect_status 422 "unknown backend"
grep -q "hosts run: local, qemu, qemu-icount, xen-pv" <<<"$body" ||
	fail "the refusal lists the registered backends: $body"
body=$(api POST /api/v1/experiments "$SUB" '{"backend":"kexec","variants":[{"name":"A"}]}')
expect_status 422 "a backend runners know but no registered host runs"
grep -q "'kexec'" <<<"$body" || fail "the refusal names the backend: $body"
sample_patch >"$TMP/p.patch"
api POST "/api/v1/patches?backend=nope" "$SUB" "@$TMP/p.patch" >/dev/null
expect_status 422 "unknown backend on a patch"
api POST /api/v1/calibrations "$SUB" '{"kind":"aa","label":"lab","backend":"nope"}' >/dev/null
expect_status 422 "unknown backend on a calibration"
api POST /api/v1/baselines "$ADM" '{"name":"nightly","backend":"nope","schedule_seconds":86400}' >/dev/null
expect_status 422 "unknown backend on a tracked baseline"
check "$(sql 'SELECT count(*) FROM experiments')" -eq 0 "nothing stored for unknown backends"
for b in local qemu qemu-icount xen-pv; do
	api POST /api/v1/experiments "$ADM" "{\"backend\":\"$b\",\"runs\":1,\"variants\":[{\"name\":\"A\"}]}" >/dev/null
	expect_status 201 "backend $b"
done

v=$(jq -nc '[range(16) | {name: ("v" + tostring)}]')
body=$(api POST /api/v1/experiments "$ADM" "{\"runs\":100,\"variants\":$v}")
expect_status 422 "16 variants x 100 runs in one request"
grep -q 1600 <<<"$body" || fail "the refusal gives the count: $body"

# Quota 30: 2 variants x 10 runs, then 2 x 5 fit; the next 2 runs do not.
api POST /api/v1/experiments "$SUB" '{"runs":10,"variants":[{"name":"A"},{"name":"B"}]}' >/dev/null
expect_status 201 "20 runs"
api POST /api/v1/experiments "$SUB" '{"runs":5,"variants":[{"name":"A"},{"name":"B"}]}' >/dev/null
expect_status 201 "30 runs"
n=$(sql 'SELECT count(*) FROM experiments')
body=$(api POST /api/v1/experiments "$SUB" '{"runs":1,"variants":[{"name":"A"},{"name":"B"}]}')
expect_status 429 "past the quota"
grep -q "30" <<<"$body" && grep -q "quota" <<<"$body" || fail "the refusal gives the numbers: $body"
api POST "/api/v1/patches?runs=1" "$SUB" "@$TMP/p.patch" >/dev/null
expect_status 429 "a patch past the quota"
check "$(sql 'SELECT count(*) FROM experiments')" -eq "$n" "nothing stored past the quota"
# The quota is per key, and admins have none.
api POST /api/v1/experiments "$SUB2" '{"runs":5,"variants":[{"name":"A"},{"name":"B"}]}' >/dev/null
expect_status 201 "another key has its own quota"
api POST /api/v1/experiments "$ADM" '{"runs":50,"variants":[{"name":"A"},{"name":"B"}]}' >/dev/null
expect_status 201 "admin key"
# Cancelled runs no longer count.
api POST /api/v1/experiments/5/cancel "$SUB" >/dev/null
expect_status 200 "cancel alice's first experiment"
api POST /api/v1/experiments "$SUB" '{"runs":1,"variants":[{"name":"A"},{"name":"B"}]}' >/dev/null
expect_status 201 "room again after a cancel"
echo ok
