#!/usr/bin/env bash
# Description: every kernel-patches/*.patch applies to the lab's base tree
# (build/linux-source-6.1) with both `patch -p1 --dry-run` and
# `git apply --check`, and the patches that experiments stack (tag +
# iov_iter, tag + canary ladder) apply on top of each other.  A patch whose
# message has "Applies-after: OTHER.patch" (0007 on 0004) is checked on top
# of OTHER instead of alone.  Works on a
# scratch copy of the touched files; the base tree is never modified.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
base=$top/build/linux-source-6.1
pdir=${PERFLAB_PATCH_DIR:-$top/kernel-patches}

if [ ! -f "$base/Makefile" ] || [ ! -d "$base/block" ]; then
	echo "base tree $base is absent (make deps extracts it)"
	exit 77
fi
for tool in patch git; do
	if ! command -v $tool >/dev/null; then
		echo "$tool is not installed"
		exit 77
	fi
done
shopt -s nullglob
patches=("$pdir"/*.patch)
if [ ${#patches[@]} -lt 4 ]; then
	echo "expected at least 4 patches in $pdir, found ${#patches[@]}"
	exit 1
fi

scratch=$(mktemp -d /tmp/perflab-apply.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

# A pristine copy of just the files the patches touch, outside any git
# repository so that `git apply` treats it as a plain directory.
fresh() {
	rm -rf "$scratch/tree"
	mkdir -p "$scratch/tree"
	local f
	for f in $(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "${patches[@]}" | sort -u); do
		if [ ! -f "$base/$f" ]; then
			echo "patched file $f is not in the base tree"
			return 1
		fi
		mkdir -p "$scratch/tree/$(dirname "$f")"
		cp "$base/$f" "$scratch/tree/$f"
	done
}

fail=0
fresh || exit 1
for p in "${patches[@]}"; do
	name=$(basename "$p")
	bad=0
	if ! grep -q '^From [0-9a-f]\{40\} ' "$p" || ! grep -q '^Subject: ' "$p"; then
		echo "FAIL $name: not a git format-patch file"
		fail=1
		continue
	fi
	after=$(sed -n 's/^Applies-after: *//p' "$p")
	if [ -n "$after" ]; then
		fresh || exit 1
		if ! out=$(cd "$scratch/tree" && git apply "$pdir/$after" 2>&1); then
			echo "FAIL $name: its Applies-after $after: $out"
			fail=1
			continue
		fi
	fi
	if ! out=$(cd "$scratch/tree" && patch -p1 --dry-run --fuzz=0 -s <"$p" 2>&1); then
		echo "FAIL $name: patch -p1 --dry-run: $out"
		bad=1
	fi
	if ! out=$(cd "$scratch/tree" && git apply --check "$p" 2>&1); then
		echo "FAIL $name: git apply --check: $out"
		bad=1
	fi
	[ -n "$after" ] && fresh
	[ $bad -eq 0 ] && echo "ok   $name${after:+ (after $after)}"
	[ $bad -eq 0 ] || fail=1
done

# Stacks used by the series: apply for real, in order, on fresh copies.
stack() {
	fresh || return 1
	local p
	for p in "$@"; do
		if ! out=$(cd "$scratch/tree" && git apply "$pdir/$p" 2>&1); then
			echo "FAIL stack $*: $p: $out"
			return 1
		fi
	done
	echo "ok   stack $*"
}
stack 0001-blk-mq-clear-rqs-on-tag-free.patch \
	0002-control-io_uring-rw-revert-on-retry-save-kept.patch || fail=1
stack 0001-blk-mq-clear-rqs-on-tag-free.patch \
	0004-block-perflab_canary-calibration-parameter.patch || fail=1
stack 0002-control-io_uring-rw-revert-on-retry-save-kept.patch \
	0001-blk-mq-clear-rqs-on-tag-free.patch || fail=1
stack 0004-block-perflab_canary-calibration-parameter.patch \
	0007-block-perflab_canary-runtime-sysfs-parameter.patch || fail=1

exit $fail
