#!/usr/bin/env bash
# Description: patches that GNU patch turns into a symlink
# (mode 120000 on an index line, after a tab, after a garbage line) or that
# name files through quotes and escapes.  GNU patch itself is the
# reference: each attack is first applied with patch(1) to a scratch tree
# to show what it really does, then POST /api/v1/patches must answer 4xx
# with the reason, and nothing is stored.  Quoted names inside the tree
# stay accepted.
. "$(dirname "$0")/../api/lib.sh"
command -v patch >/dev/null || skip "GNU patch not installed"
start_daemon
SUB=$(make_key submit alice)

link='--- /dev/null\n+++ b/ln\n@@ -0,0 +1 @@\n+/etc\n\\ No newline at end of file\n'
# gnu_makes_link NAME: patch(1) -p1 on $TMP/p creates the symlink ln.
gnu_makes_link() {
	rm -rf "$TMP/t" && mkdir "$TMP/t" && echo a >"$TMP/t/Makefile"
	(cd "$TMP/t" && patch -p1 --batch <"$TMP/p" >/dev/null 2>&1)
	[ -L "$TMP/t/ln" ] || fail "$1: GNU patch no longer makes a symlink (update the test)"
}
# refuse NAME REASON: the daemon answers 4xx naming REASON.
refuse() {
	local code
	code=$(curl -s -o "$TMP/ans" -w '%{http_code}' -H "Authorization: Bearer $SUB" \
		--data-binary "@$TMP/p" "$BASE/api/v1/patches")
	echo "$1: $code $(cat "$TMP/ans")"
	case $code in 400|422) ;; *) fail "$1: answered $code" ;; esac
	grep -q "$2" "$TMP/ans" || fail "$1: reason does not say '$2'"
}
attack() { # attack NAME HEADER: a new file ln whose mode GNU patch reads as 120000
	printf "diff --git a/ln b/ln\n$2$link" >"$TMP/p"
	gnu_makes_link "$1"
	refuse "$1" "symbolic links"
}
attack "mode on the index line" 'new file mode 100644\nindex 0000000..1111111 120000\n'
attack "tab before the mode" 'new file mode \t120000\n'
attack "spaces before the mode" 'new file mode      120000\n'
attack "garbage line, then the mode" 'foo bar\nnew file mode 120000\n'
attack "index mode after a garbage line" 'x\nindex 0000000..1111111 120000\n'

# Quoted and escaped names: GNU patch patches the real Makefile.
for hdr in '"a/Makefile" "b/Makefile"' '"a/\115akefile" "b/\115akefile"'; do
	n=$(echo "$hdr" | cut -d' ' -f1)
	printf 'diff --git %s\n--- %s\n+++ %s\n@@ -1 +1 @@\n-a\n+evil\n' "$hdr" "$n" "${n/a\//b/}" >"$TMP/p"
	rm -rf "$TMP/t" && mkdir "$TMP/t" && echo a >"$TMP/t/Makefile"
	(cd "$TMP/t" && patch -p1 --batch <"$TMP/p" >/dev/null 2>&1)
	grep -q evil "$TMP/t/Makefile" || fail "GNU patch did not patch Makefile for $hdr"
	code=$(curl -s -o "$TMP/ans" -w '%{http_code}' -H "Authorization: Bearer $SUB" \
		--data-binary "@$TMP/p" "$BASE/api/v1/patches")
	[ "$code" = 201 ] || fail "quoted $hdr inside the tree: $code $(cat "$TMP/ans")"
done
check "$(sql "SELECT count(*) FROM patch_files WHERE new_path = 'Makefile' AND old_path = 'Makefile'")" -eq 2 \
	"quoted names stored unquoted"
printf 'diff --git "a/\\056\\056/x" "b/\\056\\056/x"\n--- "a/\\056\\056/x"\n+++ "b/\\056\\056/x"\n@@ -1 +1 @@\n-a\n+b\n' >"$TMP/p"
refuse "escaped .. in a quoted name" "outside the tree"
# GNU patch renames by the names on the diff --git line, not rename to.
printf 'diff --git a/f b/../esc\nsimilarity index 100%%\nrename from f\nrename to g\n' >"$TMP/p"
refuse "rename out by the diff --git line" "outside the tree"
printf 'diff --git a/f b/f\nold mode 100644\nnew mode 160000\n' >"$TMP/p"
refuse "gitlink" "submodules"
check "$(sql 'SELECT count(*) FROM patches')" -eq 2 "only the two quoted Makefile patches stored"
check "$(sql 'SELECT count(*) FROM patch_files')" -eq 2 "no file of a refused patch stored"
echo ok
