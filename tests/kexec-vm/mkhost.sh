#!/usr/bin/env bash
# Build the kexec rehearsal host (`make kexec-host`): under build/kexec-host/
#   bzImage         the VM's default kernel: the base tree, tinyconfig +
#                   kernel-patches/configs/qemu.config, built (or found)
#                   through the runner's own image cache (build/kcache)
#   initrd.cpio  busybox, perflab-runner with its shared libraries,
#                   the static perflab-bench, kexec-tools, /init (the
#                   supervisor) and the systemctl stand-in
#   host.env        KEY/RELEASE of the default kernel
# The same initrd is handed to every variant kernel by kexec -l --initrd.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/kexec-host
R=$top/build/perflab-runner
S=$top/build/perflab-bench-static
KCACHE=${KCACHE:-$("$top/scripts/kcache-dir.sh")}
KEXEC=$(command -v kexec || echo /usr/sbin/kexec)

for f in "$R" "$S" /bin/busybox "$KEXEC"; do
	[ -x "$f" ] || { echo "mkhost: $f missing (make; make static-bench;" \
		"scripts/deps.sh for busybox-static and kexec-tools)" >&2; exit 1; }
done
mkdir -p "$out/work"

# The default kernel is the base variant of config qemu: same cache key
# as a job for the unpatched base, so a real build happens only once.
line=$("$R" try --build-only --backend kexec --config qemu \
	--kcache "$KCACHE" --workdir "$out/work" 2>"$out/build.err" | tail -n1) || {
	cat "$out/build.err" >&2
	echo "$line" >&2
	exit 1
}
read -r key release image <<<"$line"
[ -f "$image" ] || { echo "mkhost: no image: $line" >&2; exit 1; }
cp "$image" "$out/bzImage.tmp" && mv "$out/bzImage.tmp" "$out/bzImage"
printf 'KEY=%s\nRELEASE=%s\n' "$key" "$release" >"$out/host.env"

root=$out/root
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/local/bin,etc/perflab/configs,proc,sys,dev,tmp,run}
cp /bin/busybox "$root/bin/busybox"
ln -s busybox "$root/bin/sh"	# /init's interpreter; /init installs the rest
cp "$R" "$root/usr/local/bin/perflab-runner"
cp "$S" "$root/usr/local/bin/perflab-bench"
cp "$KEXEC" "$root/sbin/kexec"
cp "$top/tests/kexec-vm/systemctl" "$root/usr/local/bin/systemctl"
cp "$top/tests/kexec-vm/init" "$root/init"
cp "$top/kernel-patches/configs/qemu.config" "$root/etc/perflab/configs/"
printf 'root:x:0:0:root:/:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\n' >"$root/etc/group"
printf '127.0.0.1 localhost\n' >"$root/etc/hosts"
# Shared libraries of the dynamic binaries, at their ldd paths.
for bin in "$R" "$KEXEC"; do
	ldd "$bin" | awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }'
done | sort -u | while read -r lib; do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
# Stripped and uncompressed: TCG would spend seconds in gunzip at every
# boot, and this initrd is unpacked twice per job (host and variant).
find "$root" -type f \( -name '*.so*' -o -path '*bin/*' \) ! -name busybox \
	-exec strip --strip-unneeded {} + 2>/dev/null || true
(cd "$root" && find . | cpio -o -H newc --quiet) >"$out/initrd.tmp"
mv "$out/initrd.tmp" "$out/initrd.cpio"
echo "kexec-host: kernel $release ($key)"
echo "kexec-host: $(du -h "$out/initrd.cpio" | cut -f1) initrd, $out"
