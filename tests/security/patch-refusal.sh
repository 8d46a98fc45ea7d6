#!/usr/bin/env bash
# Description: patches that touch paths outside the tree (../, absolute,
# a/../../, renames and copies out of the tree), binary patches, absurd
# hunk sizes and bodies over 8 MiB are refused with 4xx at submission, by
# /patches and as raw text in /experiments, so nothing reaches a host:
# no patch, experiment or job is stored.
. "$(dirname "$0")/../api/lib.sh"
start_daemon
SUB=$(make_key submit alice)

diff_for() { # diff_for OLD NEW: a one-hunk diff between two paths
	printf 'diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n' "$1" "$2" "$1" "$2"
}
i=0
refuse() { # refuse WHAT < patch text
	local code
	i=$((i + 1))
	cat >"$TMP/p$i"
	code=$(curl -s -o "$TMP/ans" -w '%{http_code}' -H "Authorization: Bearer $SUB" \
		--data-binary "@$TMP/p$i" "$BASE/api/v1/patches")
	case $code in 400|413|422) ;; *) fail "$1: /patches answered $code $(cat "$TMP/ans")" ;; esac
	grep -q '"error"' "$TMP/ans" || fail "$1: no reason given"
	echo "$1: $code $(cat "$TMP/ans")"
	[ "$code" = 413 ] && return
	jq -n --rawfile p "$TMP/p$i" '{runs: 1, variants: [{name: "A"}, {name: "B", patches: [$p]}]}' >"$TMP/e$i"
	code=$(curl -s -o "$TMP/ans" -w '%{http_code}' -H "Authorization: Bearer $SUB" \
		-H 'Content-Type: application/json' --data-binary "@$TMP/e$i" "$BASE/api/v1/experiments")
	case $code in 400|422) ;; *) fail "$1: /experiments answered $code $(cat "$TMP/ans")" ;; esac
}
diff_for ../etc/x ../etc/x | refuse "../ path"
diff_for block/../../etc/x block/../../etc/x | refuse "a/../../ path"
printf 'diff --git a/x b/x\n--- /etc/passwd\n+++ /etc/passwd\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n' | refuse "absolute path"
printf -- '--- ../../x\n+++ ../../x\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n' | refuse "plain diff with ../"
printf 'diff --git a/block/x.c b/../x.c\nsimilarity index 100%%\nrename from block/x.c\nrename to ../x.c\n' | refuse "rename out of the tree"
printf 'diff --git a/block/x.c b/../../x.c\nsimilarity index 100%%\ncopy from block/x.c\ncopy to ../../x.c\n' | refuse "copy out of the tree"
printf 'diff --git a/fw.bin b/fw.bin\nindex 1111111..2222222 100644\nGIT binary patch\nliteral 4\nLcmZ?l00000\n\nliteral 0\nHcmV?d00001\n\n' | refuse "git binary patch"
printf 'diff --git a/fw.bin b/fw.bin\nindex 1111111..2222222 100644\nBinary files a/fw.bin and b/fw.bin differ\n' | refuse "binary files differ"
printf 'diff --git a/block/x.c b/block/x.c\n--- a/block/x.c\n+++ b/block/x.c\n@@ -1,99999999999 +1,99999999999 @@\n a\n' | refuse "absurd hunk size"
printf 'diff --git a/block/x b/block/x\nnew file mode 120000\n--- /dev/null\n+++ b/block/x\n@@ -0,0 +1 @@\n+/etc/shadow\n\\ No newline at end of file\n' | refuse "symlink to outside the tree"
printf 'not a patch at all\n' | refuse "not a patch"
{ sample_patch; head -c $((9 << 20)) /dev/zero | tr '\0' 'x'; } | refuse "over 8 MiB"
check "$(sql 'SELECT count(*) FROM patches')" -eq 0 "no patch stored"
check "$(sql 'SELECT count(*) FROM experiments')" -eq 0 "no experiment stored"
check "$(sql 'SELECT count(*) FROM jobs')" -eq 0 "no job for any host"
# The well-formed patch still goes through.
sample_patch | curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $SUB" \
	--data-binary @- "$BASE/api/v1/patches" >"$TMP/status"
expect_status 201 "a good patch"
echo "ok"
