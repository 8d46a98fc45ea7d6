#!/usr/bin/env bash
# Description: a variant whose patch does not apply to the real base tree
# fails with reason patch_apply and patch(1)'s own output (file and hunk),
# before any compiler runs; a patch reaching outside the tree is refused.
top=$(cd "$(dirname "$0")/../.." && pwd)
R=$top/build/perflab-runner
[ -x "$R" ] || { echo "build/perflab-runner not built"; exit 77; }
[ -f "$top/build/linux-source-6.1/Makefile" ] || { echo "base tree missing (make deps)"; exit 77; }
# Beside the kernel cache: a directory the build user can reach even
# when the checkout is not (scripts/kcache-dir.sh).
d=$(mktemp -d "$(dirname "$("$top/scripts/kcache-dir.sh")")/tmp-try-patch.XXXXXX")
trap 'rm -rf "$d"' EXIT
chmod 755 "$d"	# the build user must reach the worktree
cat >"$d/bad.patch" <<'P'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
Subject: [PATCH] block: a change against code that is not there

---
 block/blk-mq.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/block/blk-mq.c b/block/blk-mq.c
--- a/block/blk-mq.c
+++ b/block/blk-mq.c
@@ -1,3 +1,3 @@
 this line
-is not in
+was never in
 blk-mq.c
P
out=$("$R" try --backend qemu-icount --workdir "$d/w" --kcache "$d/kc" \
	--patch "$d/bad.patch" 2>&1)
rc=$?
echo "$out"
[ $rc -ne 0 ] || { echo "FAIL: the run did not fail"; exit 1; }
grep -q "FAILED (patch_apply)" <<<"$out" || { echo "FAIL: reason is not patch_apply"; exit 1; }
grep -q "patching file block/blk-mq.c" <<<"$out" &&
	grep -q "Hunk #1 FAILED" <<<"$out" || { echo "FAIL: patch(1) output missing"; exit 1; }
[ ! -e "$d/kc/trees"/*/obj/.config ] || { echo "FAIL: configured/built despite the failure"; exit 1; }
# The worktree is clean again for the next variant.
cmp -s "$d/kc/trees"/*/src/block/blk-mq.c "$top/build/linux-source-6.1/block/blk-mq.c" ||
	{ echo "FAIL: worktree file left modified"; exit 1; }

printf -- '--- a/../../etc/passwd\n+++ b/../../etc/passwd\n@@ -1 +1 @@\n-a\n+b\n' >"$d/evil.patch"
out=$("$R" try --backend qemu-icount --workdir "$d/w" --kcache "$d/kc" \
	--patch "$d/evil.patch" 2>&1)
echo "$out"
grep -q "FAILED (patch_apply)" <<<"$out" && grep -q "outside the tree" <<<"$out" ||
	{ echo "FAIL: path outside the tree not refused"; exit 1; }
exit 0
