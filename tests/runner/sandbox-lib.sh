# Sourced by the tests that run builds through perflab-runner's sandbox
# (tests/runner/sandbox-required.sh, tests/security/build-sandbox.sh):
# sets top, R (PERFLAB_RUNNER overrides, e.g. an old build to show an
# attack working), d (a scratch dir the build user can reach, removed at
# exit after running $cleanup) and fail(); skips (77) with the reason when
# the sandbox cannot be tried here.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
R=${PERFLAB_RUNNER:-$top/build/perflab-runner}
[ -x "$R" ] || { echo "build/perflab-runner not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "needs root (the runner drops to the build user)"; exit 77; }
command -v bwrap >/dev/null || { echo "bwrap not installed (make deps)"; exit 77; }
# Beside the kernel cache: a directory the build user can reach even
# when the checkout is not (scripts/kcache-dir.sh).
d=$(mktemp -d "$(dirname "$("$top/scripts/kcache-dir.sh")")/tmp-sandbox.XXXXXX")
cleanup=:
trap 'eval "$cleanup"; rm -rf "$d"' EXIT
chmod 755 "$d"	# the build user must reach the worktree below it
. "$(dirname "${BASH_SOURCE[0]}")/../lib/lib.sh"
