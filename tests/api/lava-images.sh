#!/usr/bin/env bash
# Description: a LAVA lab's kernels come from the image store, without a
# LAVA (its URL is a closed port: the definition is rendered and stored,
# the submission retried). The lab's host is a test-only host: its job
# waits ("waiting for image K", no LAVA job) while the image is missing,
# a builder runner gets the build task for the key computed here from
# the lab's config hash, and after the builder's upload the LAVA worker
# renders a definition whose kernel URL serves, with the job's token, the
# store's bytes (sha256 computed here from the uploaded file) and names
# that sha256; its initrd hash is the guest's file's. A lab without
# configs takes the hashes of the builders carrying its label (none: its
# jobs stay queued; a name two builders hash differently is left out);
# another builder's hash builds nothing for it. Bad configs: 400. A
# toggle boot is one LAVA job whose test step runs the boot's jobs in
# A B B A order with their settings; a boot of more than 32 jobs on a
# LAVA-bound label is refused (422). LAVA's own schema (lava-common)
# takes every definition rendered.
. "$(dirname "$0")/lib.sh"
sha() { sha256sum | cut -c1-64; }
mkdir "$TMP/guest"
head -c 3000 /dev/urandom >"$TMP/guest/initramfs.cpio"
start_daemon --lava-guest "$TMP/guest" --lava-url http://127.0.0.1:9
ADMIN=$(make_key admin a)
RB=$(make_key runner rb)
RB2=$(make_key runner rb2)
printf 'lava-token\n' >"$TMP/token"
H=$(printf 'tinyconfig\nCONFIG_Y=y\n' | sha)
H2=$(printf 'tinyconfig\nCONFIG_Z=y\n' | sha)
NOP=$(printf '' | sha)
key_of() { printf 'perflab-kbuild-v2\nbase=linux-6.1\npatches=%s\nconfig=%s\n' "$NOP" "$1" | sha; }

lab() {	# NAME LABEL [extra jq object]
	api POST /api/v1/lava/labs "$ADMIN" "$(jq -n --arg n "$1" --arg l "$2" \
		--arg t "$TMP/token" --arg f "$TOP/dist/lava/qemu-icount.json" \
		--argjson x "${3:-{\}}" '{name: $n, label: $l, url: "http://127.0.0.1:9/",
		token_file: $t, device_type: "qemu", backend: "qemu-icount",
		template_file: $f, vars: {insn_plugin: "/p.so"}} + $x')"
}
reg() {	# KEY NAME LABEL HASH
	api POST /api/v1/hosts/register "$1" "$(jq -n --arg n "$2" --arg l "$3" --arg h "$4" \
		'{name: $n, labels: [$l], backend: "qemu-icount", role: "builder",
		  configs: {qemu: $h}}')" >/dev/null
	expect_status 200 "register builder $2"
}
submit() {	# LABEL: the experiment id
	api POST /api/v1/experiments "$ADMIN" "$(jq -n --arg l "$1" '{title: "lava image",
		label: $l, backend: "qemu-icount", runs: 1, max_runs: 1,
		bench: {runtime: 3, warmup: 1, target: "nullb"}, variants: [{name: "base"}]}')" |
		jq -r .id
	expect_status 201 "submit on $1"
}
upload() {	# KEY RUNNER-KEY DIR
	local f
	mkdir "$3"
	head -c 7000 /dev/urandom >"$3/bzImage"
	for f in System.map config meta; do echo "$f $RANDOM" >"$3/$f"; done
	D=$({ printf 'perflab-image-v1\nkey=%s\n' "$1"
	      for f in bzImage System.map config meta; do
		printf '%s %s %s\n' "$f" "$(stat -c %s "$3/$f")" "$(sha <"$3/$f")"
	      done; } | sha)
	code=$(curl -s -o "$TMP/body" -w '%{http_code}' -X PUT -H "Authorization: Bearer $2" \
		-F "bzImage=@$3/bzImage" -F "System.map=@$3/System.map" \
		-F "config=@$3/config" -F "meta=@$3/meta" "$BASE/api/v1/images/$1?sha256=$D")
	check "$code" = 201 "the builder uploads image $1: $(cat "$TMP/body")"
}
wait_sql() {	# SQL WHAT: until it prints something non-empty (15 s)
	local i out
	for i in $(seq 75); do
		out=$(sql "$1")
		[ -n "$out" ] && { echo "$out"; return; }
		sleep 0.2
	done
	fail "$2"
}
job_message() { sql "SELECT coalesce(message, '') FROM jobs WHERE experiment_id = $1"; }

lab bad lava-x '{"configs": {"qemu": "nothex"}}' >/dev/null
expect_status 400 "a config hash that is no hash"
lab bad lava-x '{"configs": {}}' >/dev/null
expect_status 400 "empty configs"
lab lava-a lava-a "$(jq -n --arg h "$H" '{configs: {qemu: $h}}')" >/dev/null
expect_status 201 "bind lava-a with its config hash"
check "$(sql "SELECT role FROM hosts WHERE name = 'lava-a'")" = test "the lab's host is a test host"
reg "$RB" builder1 other "$H"

# The image is missing: the job waits, no LAVA job; the builder builds.
E1=$(submit lava-a)
K1=$(key_of "$H")
wait_sql "SELECT 1 FROM jobs WHERE experiment_id = $E1 AND message LIKE 'waiting for image ${K1:0:12}%'" \
	"the LAVA job does not wait for image $K1: $(job_message "$E1")" >/dev/null
check "$(sql 'SELECT count(*) FROM lava_jobs')" -eq 0 "no LAVA job while the image is missing"
check "$(sql "SELECT state FROM jobs WHERE experiment_id = $E1")" = queued "the job stays queued"
t=$(claim "$RB" builder1 0)
expect_status 200 "the builder gets the build task"
check "$(jq -r .kind <<<"$t") $(jq -r .image.key <<<"$t")" = "build $K1" "the task builds the lab's key"
upload "$K1" "$RB" "$TMP/img1"

# Stored: the LAVA worker claims, renders and tries to submit.
row=$(wait_sql "SELECT id FROM lava_jobs WHERE job_id = (SELECT id FROM jobs WHERE
	experiment_id = $E1) AND definition IS NOT NULL" "no definition rendered after the upload")
check "$(sql "SELECT image_key FROM lava_jobs WHERE id = $row")" = "$K1" "the LAVA job boots the stored image"
def=$(api GET "/api/v1/lava/jobs/$row" "$ADMIN" | jq -r .definition)
expect_status 200 "GET the LAVA job"
grep -qF "http://127.0.0.1:9/api/v1/lava/files/$row/bzImage" <<<"$def" ||
	fail "no kernel URL of the job in: $def"
ksum=$(sha <"$TMP/img1/bzImage")
grep -qF "$ksum" <<<"$def" || fail "the definition does not name the store's sha256 $ksum"
grep -qF "$(sha <"$TMP/guest/initramfs.cpio")" <<<"$def" || fail "no initrd sha256 in the definition"
if grep -qE 'plj_[0-9a-f]{32}' <<<"$def"; then fail "the job token in the stored definition"; fi

# LAVA's download, with the job's token (set here: the stored one is hashed).
api DELETE /api/v1/lava/labs/lava-a "$ADMIN" >/dev/null
expect_status 200 "disable lava-a (its worker leaves the row)"
sleep 1.5
TOK=plj_00112233445566778899aabbccddeeff
sql "UPDATE lava_jobs SET token_hash = '$(printf %s "$TOK" | sha)' WHERE id = $row"
got=$(curl -s -H "X-Perflab-Token: $TOK" "$BASE/api/v1/lava/files/$row/bzImage" | sha)
check "$got" = "$ksum" "the kernel URL serves the store's bytes"
hdr=$(curl -s -I -H "X-Perflab-Token: $TOK" "$BASE/api/v1/lava/files/$row/bzImage" |
	tr -d '\r' | sed -n 's/^X-Perflab-Sha256: //Ip')
check "$hdr" = "$ksum" "with the manifest's sha256"
got=$(curl -s -H "X-Perflab-Token: $TOK" "$BASE/api/v1/lava/files/$row/System.map" | sha)
check "$got" = "$(sha <"$TMP/img1/System.map")" "System.map from the store"
curl -s -o /dev/null -w '%{http_code}' -H "X-Perflab-Token: $TOK" \
	"$BASE/api/v1/lava/files/$row/config" >"$TMP/st"
check "$(cat "$TMP/st")" = 404 "no other file of the image"
curl -s -o /dev/null -w '%{http_code}' -H "X-Perflab-Token: plj_00112233445566778899aabbccddeefe" \
	"$BASE/api/v1/lava/files/$row/bzImage" >"$TMP/st"
check "$(cat "$TMP/st")" = 403 "another token"
got=$(curl -s -H "X-Perflab-Token: $TOK" "$BASE/api/v1/lava/files/$row/initramfs.cpio" | sha)
check "$got" = "$(sha <"$TMP/guest/initramfs.cpio")" "the guest's initramfs"

# A lab without configs: its label's builders'.
lab lava-b lava-b >/dev/null
expect_status 201 "bind lava-b without configs"
E2=$(submit lava-b)
sleep 2
check "$(sql "SELECT state FROM jobs WHERE experiment_id = $E2")" = queued "no builder of lava-b: queued"
check "$(api GET /api/v1/lava/labs "$ADMIN" | jq -r '.labs[] | select(.name == "lava-b") |
	.configs_from + " " + (.configs | length | tostring)')" = "builders 0" "no configs yet"
reg "$RB2" builder2 lava-b "$H2"
K2=$(key_of "$H2")
wait_sql "SELECT 1 FROM jobs WHERE experiment_id = $E2 AND message LIKE 'waiting for image ${K2:0:12}%'" \
	"lava-b does not wait for its builder's key $K2: $(job_message "$E2")" >/dev/null
check "$(api GET /api/v1/lava/labs "$ADMIN" | jq -r '.labs[] | select(.name == "lava-b") | .configs.qemu')" = "$H2" \
	"lava-b has builder2's hash"
claim "$RB" builder1 0 >/dev/null
expect_status 204 "builder1 (another hash) builds nothing for lava-b"
t=$(claim "$RB2" builder2 0)
expect_status 200 "builder2 gets the task"
check "$(jq -r .image.key <<<"$t")" = "$K2" "for lava-b's key"
upload "$K2" "$RB2" "$TMP/img2"
row=$(wait_sql "SELECT id FROM lava_jobs WHERE job_id = (SELECT id FROM jobs WHERE
	experiment_id = $E2) AND definition IS NOT NULL" "lava-b rendered nothing after the upload")
grep -qF "$(sha <"$TMP/img2/bzImage")" <<<"$(sql "SELECT definition FROM lava_jobs WHERE id = $row")" ||
	fail "lava-b's definition does not name its image's sha256"
api DELETE /api/v1/lava/labs/lava-b "$ADMIN" >/dev/null
# Two builders of the label that hash "qemu" differently: no such config.
RB3=$(make_key runner rb3)
reg "$RB3" builder3 lava-b "$H"
lab lava-c lava-b >/dev/null
expect_status 201 "bind lava-c on lava-b's label"
submit lava-b >/dev/null
sleep 2
check "$(api GET /api/v1/lava/labs "$ADMIN" | jq -r '.labs[] | select(.name == "lava-c") |
	.configs | length')" -eq 0 "a config two builders hash differently is left out"
# A toggle boot is one LAVA job: its runs in the claim's order, each with
# its settings; more jobs a boot than one test step carries: 422.
C=/sys/module/perflab/parameters/canary
tog() {	# LABEL RUNS RUNS_PER_BOOT
	api POST /api/v1/experiments "$ADMIN" "$(jq -n --arg l "$1" --arg c "$C" \
		--argjson r "$2" --argjson p "$3" '{title: "tog", label: $l,
		backend: "qemu-icount", runs: $r, max_runs: $r, runs_per_boot: $p,
		toggle: true, bench: {runtime: 3, warmup: 1},
		variants: [{name: "A", settings: {($c): "0"}}, {name: "B", settings: {($c): "256"}}]}')"
}
tog lava-b 17 17 >/dev/null
expect_status 422 "a toggle boot of 34 jobs on a LAVA lab's label"
grep -q "bound to LAVA lab 'lava-c': a toggle boot there runs at most 32 jobs" "$TMP/body" ||
	fail "the toggle's refusal: $(cat "$TMP/body")"
tog no-lava 17 17 >/dev/null
expect_status 201 "the same toggle on a label without a LAVA lab"
lab lava-d lava-d "$(jq -n --arg h "$H" '{configs: {qemu: $h}}')" >/dev/null
expect_status 201 "bind lava-d"
E3=$(tog lava-d 4 2 | jq -r .id)
expect_status 201 "a toggle of two boots on lava-d"
row=$(wait_sql "SELECT id FROM lava_jobs WHERE definition IS NOT NULL AND job_id IN
	(SELECT id FROM jobs WHERE experiment_id = $E3)" "lava-d rendered no toggle boot")
api DELETE /api/v1/lava/labs/lava-d "$ADMIN" >/dev/null
step=$(sql "SELECT definition FROM lava_jobs WHERE id = $row" |
	jq -r '.actions[] | select(.test) | .test.definitions[0].repository.run.steps | join("|")')
got=$(grep -oE -- '--run [0-9]+ [0-9]+ --set [^ ]+ [0-9]+' <<<"$step" | tr '\n' ';')
want=$(sql "SELECT j.id || ' ' || (row_number() OVER (ORDER BY j.seq) - 1) || ' ' ||
	(v.settings ->> '\$.\"$C\"') FROM jobs j JOIN variants v ON v.id = j.variant_id
	WHERE j.lease_group = (SELECT lease_token FROM jobs WHERE id = (SELECT job_id FROM
	lava_jobs WHERE id = $row)) ORDER BY j.seq" |
	while read -r id pos val; do printf -- '--run %s %s --set %s %s;' "$id" "$pos" "$C" "$val"; done)
check "$(grep -o ' && ' <<<"$step" | wc -l)" -eq 3 "one LAVA job runs the boot's 4 jobs"
[ -n "$want" ] || fail "no jobs in the boot's lease group"
echo "toggle boot: $got"
check "$got" = "$want" "each run with its job, position and settings in seq order"
check "$(sql "SELECT count(*) FROM jobs WHERE experiment_id = $E3 AND state = 'queued'")" -eq 4 \
	"the other boot waits"
# LAVA's own schema (lava-common, as lava-server checks a submission)
# takes the definitions perflab rendered, the toggle boot's too.
if /usr/bin/python3 -c 'import lava_common.schemas, yaml' 2>/dev/null; then
	/usr/bin/python3 - "$DB" <<'PY' 2>&1 || fail "LAVA's schema refuses a definition perflab rendered"
import sqlite3, sys, yaml
from lava_common.schemas import validate
db = sqlite3.connect(sys.argv[1], timeout=10)
defs = [r[0] for r in db.execute("SELECT definition FROM lava_jobs WHERE definition IS NOT NULL")]
for d in defs:
    validate(yaml.safe_load(d), strict=True)
print("LAVA's schema takes the", len(defs), "definitions")
assert len(defs) >= 3
PY
else
	echo "note: lava-common is not installed: LAVA's schema not checked"
fi
echo ok
