#!/usr/bin/env bash
# Description: perflab track add|list|show and bisect start|show against a
# stand-in API (tests/cli/fake_api.py): add and start POST the documented
# bodies (every: commits 1 by default, or N, or seconds; bench as JSON;
# good/bad), print the new id; list shows one row a track; show prints
# the metric with its direction, every point (commit, value, subject,
# author), the change point and the bisection; bisect show prints every step with runs, delta, CI, verdict
# and a skipped step, then the culprit with its perf diff command; --json
# prints the document; bad usage exits 2 with a message; an HTTP error
# exits 2; escape sequences in subjects print as "?".
. "$(dirname "$0")/lib.sh"
cli_need_cli
command -v python3 >/dev/null || skip "python3 is not installed"

python3 tests/cli/fake_api.py "$TMP" tests/fixtures/bisect &
FAKE=$!
trap 'kill $FAKE 2>/dev/null; cli_cleanup' EXIT
for _ in $(seq 100); do [ -s "$TMP/port" ] && break; sleep 0.05; done
[ -s "$TMP/port" ] || fail "fake API did not start"
P() { "$PERFLAB" --server "http://127.0.0.1:$(cat "$TMP/port")" --key k "$@"; }
body() { tail -n +2 "$TMP/post.$1"; }

# usage
for args in "track" "track frob" "track add --label x" "track add --base b" \
	"track add --base b --label l --runs 0" "track add --base b --label l --every 2 --every-seconds 60" \
	"track add --base b --label l --bench [1]" "track add --base b --label l --bench {" \
	"track add --base b --label l --good x" "track show" "track show x" "track show 1 2" \
	"track list extra" "bisect" "bisect start --base b --good g" "bisect start --good g --bad b" \
	"bisect start --base b --good g --bad x --every 2" "bisect show" "bisect show -1"; do
	# shellcheck disable=SC2086
	expect_rc 2 P $args
	[ -s "$TMP/err" ] || fail "no message for: $args"
done
[ ! -e "$TMP/post.1" ] || fail "bad usage sent a request"

expect_rc 0 P track add --base linux-git --label randread-4k --ref master \
	--backend qemu-icount --runs 3 --bench '{"rw":"randread","bs":4096}'
check "$(cat "$TMP/out")" = "track 9" "track add prints the id"
check "$(head -n1 "$TMP/post.1")" = /api/v1/tracks "track add path"
check "$(body 1 | jq -c '[.base, .label, .ref, .backend, .runs, .every, .bench]')" = \
	'["linux-git","randread-4k","master","qemu-icount",3,{"commits":1},{"rw":"randread","bs":4096}]' "track body"
expect_rc 0 P track add --base b --label l --every 4
check "$(body 2 | jq -c .every)" = '{"commits":4}' "every N commits"
expect_rc 0 P track add --base b --label l --every-seconds 3600
check "$(body 3 | jq -c .every)" = '{"seconds":3600}' "every S seconds"

expect_rc 0 P track list
check "$(wc -l <"$TMP/out")" -eq 2 "header + one track"
grep -Eq '^ +1  randread-4k +linux-git +master +qemu-icount +3 +3 +1 +1$' "$TMP/out" ||
	fail "track row: $(cat "$TMP/out")"
expect_rc 0 P track list --json
check "$(jq '.tracks | length' "$TMP/out")" -eq 1 "list --json"

expect_rc 0 P track show 1
o=$(cat "$TMP/out")
grep -q '^track 1 randread-4k: linux-git master on qemu-icount, 3 runs, head ffff00001111$' <<<"$o" || fail "track header: $o"
grep -q '^bbbb00001111 *98100.2 *done *12  block: canary on by default (Jane Dev <jane@dev.test>)$' <<<"$o" ||
	grep -q '^bbbb00001111 *98100.3 *done *12  block: canary on by default (Jane Dev <jane@dev.test>)$' <<<"$o" ||
	fail "point row: $o"
grep -q '^metric: IOPS (higher is better)$' <<<"$o" || fail "track metric: $o"
grep -Eq '^commit +IOPS +state' <<<"$o" || fail "value column named by the metric: $o"
grep -q '#4 at point 1: aaaa00001111 (good) -> bbbb00001111 (bad) -3.10%, confirmed' <<<"$o" || fail "change point: $o"
grep -q '#7 done, culprit bbbb00001111' <<<"$o" || fail "bisection link: $o"
expect_rc 2 P track show 5
grep -q "no such thing" "$TMP/err" || fail "HTTP error text: $(cat "$TMP/err")"

expect_rc 0 P bisect start --base linux-git --good aaaa --bad ffff --label randread-4k --runs 3
check "$(cat "$TMP/out")" = "bisection 9" "bisect start prints the id"
check "$(head -n1 "$TMP/post.4")" = /api/v1/bisections "bisect start path"
check "$(body 4 | jq -c '[.base, .good, .bad, .label, .runs, has("every")]')" = \
	'["linux-git","aaaa","ffff","randread-4k",3,false]' "bisect body"

expect_rc 0 P bisect show 7
o=$(cat "$TMP/out")
grep -q '^bisection 7 done: linux-git randread-4k, good aaaa00001111 bad ffff00001111, step -3.10%$' <<<"$o" || fail "bisection header: $o"
grep -Eq '^  2  cccc00001111  skipped +0 +- +- +- +- +- +block: does not build$' <<<"$o" || fail "skipped step: $o"
grep -Eq '^  3  dddd00001111  done +3 +\+0\.00% +\[-0\.01%, \+0\.02%\] +0\.0004%  no change +good  block: neutral\?\[31m$' <<<"$o" || fail "good step: $o"
grep -Eq '^  4  bbbb00001111  done +3 +-3\.08% +\[-3\.12%, -3\.04%\] +0\.02%  regression +bad +block: canary on by default$' <<<"$o" || fail "bad step: $o"
grep -q '^culprit: bbbb000011112222333344445555666677778888 ("block: canary on by default")$' <<<"$o" || fail "culprit: $o"
grep -q 'delta -3.08%, 95% CI \[-3.12%, -3.04%\], MDE 0.02%, regression' <<<"$o" || fail "culprit numbers: $o"
grep -q 'perflab perf-diff 24 --kind instructions' <<<"$o" || fail "perf diff command: $o"
expect_rc 0 P bisect show --json 7
check "$(jq .culprit.experiment_id "$TMP/out")" -eq 24 "bisect show --json"
echo "track and bisect commands ok"
