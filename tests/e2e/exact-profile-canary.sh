#!/usr/bin/env bash
# Description: the calibration canary (kernel-patches/0004, perflab_canary=N
# on the command line of one kernel) seen by the exact instruction profile:
# against N=0, N=64 and N=256 put blk_mq_submit_bio, where the loop runs,
# on top; its delta per IO is proportional to N (the same cost per unit at
# 64 as at 256, about 3 instructions per step); no other symbol moves more
# than 0.5 instructions per IO.
. "$(dirname "$0")/lib/exact.sh"

p=$KP/0004-block-perflab_canary-calibration-parameter.patch
boot c0 --patch "$p" --cmdline perflab_canary=0
for n in 64 256; do
	boot "c$n" --patch "$p" --cmdline "perflab_canary=$n"
	diff_exact c0 "c$n"
	top=$(rows '[.[] | select(.sym != "TOTAL")][0]')
	sym=$(jq -r .sym <<<"$top")
	delta=$(jq -r .delta <<<"$top")
	[ "$sym" = blk_mq_submit_bio ] || fail "N=$n: top row is $sym, not blk_mq_submit_bio"
	per=$(awk -v d="$delta" -v n="$n" 'BEGIN { printf "%.4f", d / n }')
	echo "N=$n: blk_mq_submit_bio +$delta instructions per IO, $per per unit"
	eval "per$n=$per"
	awk -v p="$per" 'BEGIN { exit !(p >= 2.5 && p <= 4.5) }' ||
		fail "N=$n: $per instructions per unit (expected ~3)"
	other=$(rows '[.[] | select(.sym != "TOTAL" and .sym != "blk_mq_submit_bio") | .delta | fabs] | max')
	awk -v o="$other" 'BEGIN { exit !(o <= 0.5) }' ||
		fail "N=$n: another symbol moved by $other instructions per IO"
done
awk -v a="$per64" -v b="$per256" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01 * b) }' ||
	fail "cost per unit differs: $per64 at 64, $per256 at 256"
exit 0
