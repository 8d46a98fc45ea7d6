#!/usr/bin/env bash
# Description: the exact instruction profile names the function a patch
# changes: kernel-patches/0001 (clear tags->rqs[] when driver tags are
# freed) against the base kernel puts blk_mq_put_tags, whose loop it adds,
# on the top row of the exact perf diff, with a positive delta per IO.
. "$(dirname "$0")/lib/exact.sh"

boot base
boot tag --patch "$KP/0001-blk-mq-clear-rqs-on-tag-free.patch"
diff_exact base tag
top=$(rows '[.[] | select(.sym != "TOTAL")][0]')
sym=$(jq -r .sym <<<"$top")
delta=$(jq -r .delta <<<"$top")
[ "$sym" = blk_mq_put_tags ] || fail "top row is $sym, not blk_mq_put_tags"
awk -v d="$delta" 'BEGIN { exit !(d > 1) }' || fail "blk_mq_put_tags delta $delta per IO"
echo "top row: blk_mq_put_tags +$delta instructions per IO"
exit 0
