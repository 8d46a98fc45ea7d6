#!/usr/bin/env bash
# Description: `perflab-runner try --build-only` prints "KEY RELEASE IMAGE"
# of a variant's kernel image, found in the cache without building; the
# key is sha256 of the base name, the patch set and the config fragment's
# contents only, so two caches in different places (the build machine's
# and a kexec host's image disk, tests/kexec-vm/) give the same key; a
# patch that does not apply fails with patch_apply and prints no key.
top=$(cd "$(dirname "$0")/../.." && pwd)
R=$top/build/perflab-runner
[ -x "$R" ] || { echo "build/perflab-runner not built"; exit 77; }
[ -f "$top/build/linux-source-6.1/Makefile" ] || { echo "base tree missing (make deps)"; exit 77; }
# Beside the kernel cache: a directory the build user can reach even
# when the checkout is not (scripts/kcache-dir.sh).
d=$(mktemp -d "$(dirname "$("$top/scripts/kcache-dir.sh")")/tmp-try-build-only.XXXXXX")
# The sandboxed build user must reach the cache (patch(1) runs as it).
chmod 755 "$d"
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/configs"
printf 'CONFIG_SMP=y\n' >"$d/configs/t.config"

sha() { sha256sum | cut -c1-64; }
cfg=$({ printf 'tinyconfig\n'; cat "$d/configs/t.config"; } | sha)
ps=$(printf '' | sha)
key=$(printf 'perflab-kbuild-v2\nbase=linux-6.1\npatches=%s\nconfig=%s\n' "$ps" "$cfg" | sha)
for kc in "$d/a/kcache" "$d/elsewhere/b"; do
	mkdir -p "$kc/images/$key"
	echo MZ >"$kc/images/$key/bzImage"
	echo built >"$kc/images/$key/build.log"
	printf 'release=6.1.0-t\nbuild_id=ab\nseconds=1\n' >"$kc/images/$key/meta"
	out=$("$R" try --build-only --backend kexec --config t --configs "$d/configs" \
		--kcache "$kc" --workdir "$d/w" 2>/dev/null)
	rc=$?
	echo "$out"
	[ $rc -eq 0 ] || { echo "FAIL: exit $rc"; exit 1; }
	[ "$out" = "$key 6.1.0-t $kc/images/$key/bzImage" ] ||
		{ echo "FAIL: expected '$key 6.1.0-t $kc/images/$key/bzImage'"; exit 1; }
done

printf -- '--- a/Makefile\n+++ b/Makefile\n@@ -1 +1 @@\n-not the first line\n+x\n' >"$d/bad.patch"
out=$("$R" try --build-only --backend kexec --config t --configs "$d/configs" \
	--kcache "$d/a/kcache" --workdir "$d/w" --patch "$d/bad.patch" 2>&1)
rc=$?
echo "$out" | head -5
[ $rc -eq 1 ] || { echo "FAIL: a patch that does not apply exits $rc"; exit 1; }
grep -q "build: FAILED (patch_apply)" <<<"$out" || { echo "FAIL: no patch_apply"; exit 1; }
! grep -qE '^[0-9a-f]{64} ' <<<"$out" || { echo "FAIL: a key was printed"; exit 1; }
exit 0
