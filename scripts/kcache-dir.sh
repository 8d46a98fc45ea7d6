#!/bin/sh
# Print the kernel image cache for this checkout: build/kcache, unless the
# runner (as root) builds as the unprivileged build user and that user
# cannot reach build/ -- e.g. a checkout under /root or in a mktemp -d
# directory (mode 0700). bubblewrap runs as the build user and binds the
# cache's work trees, so every directory above them must be searchable by
# it; then the cache goes to /var/tmp/perflab-kcache-UID instead.
#
#   scripts/kcache-dir.sh [BUILD_USER]     (default nobody)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
user=${1:-nobody}
mkdir -p "$top/build"
if [ "$(id -u)" != 0 ] ||
	setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups \
		test -x "$top/build" 2>/dev/null; then
	echo "$top/build/kcache"
	exit 0
fi
dir=/var/tmp/perflab-kcache-$(id -u)
mkdir -p "$dir"
if [ "$(stat -c %u "$dir")" != "$(id -u)" ]; then
	echo "kcache-dir: $dir belongs to another user" >&2
	exit 1
fi
chmod 755 "$dir"
echo "$dir"
