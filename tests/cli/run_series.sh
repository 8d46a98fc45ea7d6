#!/usr/bin/env bash
# Description: perflab run submits kernel-patches/series/seed-experiment.json
# to a real perflabd with its patch files inlined (also when started from
# another directory): four variants, the right patches, 10 runs, 40 jobs;
# a series naming a missing patch file exits 2 before any request.
. "$(dirname "$0")/lib.sh"
cli_need_daemon
seed=$top/kernel-patches/series/seed-experiment.json
[ -f "$seed" ] || skip "no kernel-patches/series/seed-experiment.json"
cli_start_daemon
key=$(cli_key submit cli-run)
# the series names the qemu-icount backend: a host must run it
register_host "$(cli_key runner cli-runner)" cli-host
pl() { "$PERFLAB" --server "$URL" --key "$key" "$@"; }

(cd / && "$PERFLAB" --server "$URL" --key "$key" run -q "$seed") >"$TMP/id" ||
	fail "run from / failed"
id=$(cat "$TMP/id")
expect_rc 0 pl show "$id" --json
want=$(jq -c '[.variants[].name]' "$seed")
got=$(jq -c '[.variants[].name]' "$TMP/out")
[ "$want" = "$got" ] || fail "variants $got, expected $want"
jq -e '.variants[0].is_control == true' "$TMP/out" >/dev/null || fail "first variant is not the control"
for i in $(seq 0 $(($(jq '.variants | length' "$seed") - 1))); do
	n=$(jq ".variants[$i].patches | length" "$seed")
	m=$(jq ".variants[$i].patches | length" "$TMP/out")
	[ "$n" = "$m" ] || fail "variant $i: $m patches stored, $n in the series"
	for j in $(seq 0 $((n - 1))); do
		f=$top/$(jq -r ".variants[$i].patches[$j]" "$seed")
		subj=$(sed -n 's/^Subject: \(\[PATCH[^]]*\] \)\{0,1\}//p' "$f" | head -n 1)
		got=$(jq -r ".variants[$i].patches[$j].subject" "$TMP/out")
		# (the mail header may fold the subject: compare its first line)
		[[ "$got" == "$subj"* ]] || fail "variant $i patch $j: '$got' vs '$subj'"
	done
done
runs=$(jq .runs "$seed")
[ "$(jq .runs_planned "$TMP/out")" = "$runs" ] || fail "runs_planned"
[ "$(jq .progress.jobs_total "$TMP/out")" = $((runs * $(jq '.variants | length' "$seed"))) ] ||
	fail "jobs_total $(jq .progress.jobs_total "$TMP/out")"

# a missing patch file: exit 2, no experiment created
jq '.variants[1].patches = ["kernel-patches/does-not-exist.patch"]' "$seed" >"$TMP/bad.json"
expect_rc 2 pl run "$TMP/bad.json"
grep -q "does-not-exist.patch" "$TMP/err" || fail "missing patch: $(cat "$TMP/err")"
expect_rc 2 pl show "$((id + 1))"
grep -q "HTTP 404" "$TMP/err" || fail "an experiment was created"
echo "ok"
