#!/usr/bin/env bash
# Description: perflab compare posts logs to a real perflabd and prints the
# LKP table: seed 001's "Old behavior" vs "Turning it on" blocks read as
# no change (exit 0), a 5 % slower log as a regression (exit 1), NAME=FILE
# groups runs, and text that is no benchmark log exits 2 with the reason.
. "$(dirname "$0")/lib.sh"
cli_need_daemon
cli_start_daemon
key=$(cli_key submit cli-compare)
pl() { "$PERFLAB" --server "$URL" --key "$key" "$@"; }

# Seed 001 (Jens Axboe, "Re: [git pull] iov_iter fixes", 2021-09-10)
cat >"$TMP/old.log" <<'EOT'
IOPS=3536512, IOS/call=32/31, inflight=(75)
IOPS=3541888, IOS/call=32/32, inflight=(64)
IOPS=3529056, IOS/call=32/31, inflight=(119)
IOPS=3521184, IOS/call=32/32, inflight=(96)
IOPS=3527456, IOS/call=32/31, inflight=(128)
IOPS=3525504, IOS/call=32/32, inflight=(128)
IOPS=3524288, IOS/call=32/32, inflight=(128)
IOPS=3536192, IOS/call=32/32, inflight=(96)
IOPS=3535840, IOS/call=32/32, inflight=(96)
IOPS=3533728, IOS/call=32/31, inflight=(128)
IOPS=3528384, IOS/call=32/32, inflight=(128)
IOPS=3518400, IOS/call=32/32, inflight=(64)
EOT
cat >"$TMP/on.log" <<'EOT'
IOPS=3533824, IOS/call=32/31, inflight=(64)
IOPS=3541408, IOS/call=32/32, inflight=(32)
IOPS=3533024, IOS/call=32/31, inflight=(64)
IOPS=3528672, IOS/call=32/32, inflight=(35)
IOPS=3522272, IOS/call=32/31, inflight=(107)
IOPS=3517632, IOS/call=32/32, inflight=(57)
IOPS=3516000, IOS/call=32/31, inflight=(96)
IOPS=3513568, IOS/call=32/32, inflight=(34)
IOPS=3525600, IOS/call=32/31, inflight=(96)
IOPS=3527136, IOS/call=32/31, inflight=(101)
EOT

expect_rc 0 pl compare "$TMP/old.log" "$TMP/on.log"
grep -q "no change" "$TMP/out" || fail "seed 001: $(cat "$TMP/out")"
grep -q "%stddev" "$TMP/out" || fail "no LKP header"
grep -Eq "3529869 +± *0\.20%" "$TMP/out" || fail "base mean row: $(cat "$TMP/out")"

# 5 % slower: a regression, exit 1
awk -F'[=,]' '{printf "IOPS=%d, IOS/call=32/32, inflight=(64)\n", $2 * 0.95}' \
	"$TMP/old.log" >"$TMP/slow.log"
expect_rc 1 pl compare "$TMP/old.log" "$TMP/slow.log"
grep -q "regression" "$TMP/out" || fail "slow: $(cat "$TMP/out")"

# NAME=FILE names the variants; --json gives the raw answer
expect_rc 1 pl compare old="$TMP/old.log" slow="$TMP/slow.log" --json
[ "$(jq -r '.comparisons[0].variant' "$TMP/out")" = slow ] || fail "NAME=FILE: $(cat "$TMP/out")"
[ "$(jq -r '.comparisons[0].verdict' "$TMP/out")" = regression ] || fail "--json verdict"

# not a benchmark log
echo "hello world" >"$TMP/junk.log"
expect_rc 2 pl compare "$TMP/old.log" "$TMP/junk.log"
grep -Eq "HTTP 4(00|22)" "$TMP/err" && grep -q "junk.log" "$TMP/err" || fail "junk: $(cat "$TMP/err")"
echo "ok"
