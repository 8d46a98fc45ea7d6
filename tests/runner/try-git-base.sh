#!/usr/bin/env bash
# Description: `perflab-runner try --git URL --commit SHA` drives a git
# base through the real runner path: the commit is cloned into
# KCACHE/git/<sha256(url)>.git, checked out into the root-owned pristine
# .tree (HEAD = the commit), the farm links it, and the sandboxed build of
# a commit that is not a kernel fails with reason `build`; an unknown
# commit fails `internal` naming it; hostile urls and commits are refused
# before git runs; an image cached under (base, commit, patches, config)
# is found without touching git, and --build-only prints its commit.
. "$(dirname "$0")/sandbox-lib.sh"
command -v git >/dev/null || { echo "git not installed"; exit 77; }
K=$d/kc
mkdir -p "$d/configs" "$d/repo"
printf 'CONFIG_SMP=y\n' >"$d/configs/t.config"
g() { git -C "$d/repo" -c user.name=t -c user.email=t@t "$@"; }
g init -q -b master
printf 'tinyconfig olddefconfig bzImage:\n\t@echo "perflab-test: no kernel here" >&2; exit 1\n' >"$d/repo/Makefile"
echo 'int x;' >"$d/repo/keep.c"
g add -A && g commit -qm one || fail "git commit"
c1=$(g rev-parse HEAD)

try() {
	"$R" try --build-only --backend qemu-icount --workdir "$d/w" \
		--configs "$d/configs" --config t "$@" 2>&1
}
out=$(try --kcache "$K" --git "$d/repo" --commit "$c1")
rc=$?
echo "$out" | tail -5
[ $rc -eq 1 ] && grep -q "build: FAILED (build)" <<<"$out" ||
	fail "a commit that does not build: exit $rc, no reason build"
grep -q "perflab-test: no kernel here" <<<"$out" || fail "no build output"
h=$(printf '%s' "$d/repo" | sha256sum | cut -c1-64)
tree=$K/git/$h.tree
[ "$(stat -c '%U %a' "$K/git" "$K/git/$h.git" "$tree" | sort -u)" = "root 755" ] ||
	fail "git dirs not root's 0755: $(stat -c '%n %U %a' "$K/git" "$K/git/$h.git" "$tree")"
[ "$(git --git-dir="$K/git/$h.git" rev-parse HEAD)" = "$c1" ] || fail "HEAD is not $c1"
src=$(echo "$K"/trees/linux-git-*-s/src)
[ "$(stat -c %i "$tree/keep.c")" = "$(stat -c %i "$src/keep.c")" ] ||
	fail "the farm does not link the pristine tree"

out=$(try --kcache "$K" --git "$d/repo" --commit 0123456789abcdef0123456789abcdef01234567)
rc=$?
[ $rc -eq 1 ] && grep -q "FAILED (internal)" <<<"$out" && grep -q "not found" <<<"$out" ||
	fail "unknown commit: exit $rc: $out"

for url in "-uhelp" "--upload-pack=touch $d/pwned" "ext::sh -c touch% $d/pwned" \
	"fd::3" "host:repo" "ssh://h/x" "relative" "$d/repo::x"; do
	out=$(try --kcache "$K" --git "$url" --commit "$c1")
	rc=$?
	[ $rc -eq 2 ] && grep -q "base url" <<<"$out" || fail "url '$url' not refused: $rc $out"
done
for c in HEAD master "${c1:0:12}" "--output=$d/pwned" "${c1^^}"; do
	out=$(try --kcache "$K" --git "$d/repo" --commit "$c")
	rc=$?
	[ $rc -eq 2 ] && grep -q "base.commit" <<<"$out" || fail "commit '$c' not refused: $rc $out"
done
[ ! -e "$d/pwned" ] || fail "a hostile url ran a command"

# A cached image: found by its key, git never runs.
sha() { sha256sum | cut -c1-64; }
cfg=$({ printf 'tinyconfig\n'; cat "$d/configs/t.config"; } | sha)
ps=$(printf '' | sha)
key=$(printf 'perflab-kbuild-v2\nbase=linux-git\ncommit=%s\npatches=%s\nconfig=%s\n' \
	"$c1" "$ps" "$cfg" | sha)
k2=$d/k2
mkdir -p "$k2/images/$key"
echo MZ >"$k2/images/$key/bzImage"
echo built >"$k2/images/$key/build.log"
printf 'release=6.1.0-t\nbuild_id=ab\nseconds=1\ncommit=%s\n' "$c1" >"$k2/images/$key/meta"
out=$(try --kcache "$k2" --git "$d/repo" --commit "$c1")
rc=$?
out=$(grep -v '^try: ' <<<"$out")
echo "$out"
[ $rc -eq 0 ] && [ "$out" = "$key 6.1.0-t $k2/images/$key/bzImage $c1" ] ||
	fail "cached image: exit $rc, expected '$key 6.1.0-t $k2/images/$key/bzImage $c1'"
[ ! -e "$k2/git" ] || fail "a cached image still ran git"
echo "ok"
exit 0
