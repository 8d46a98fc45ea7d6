#!/usr/bin/env bash
# Description: one submitter's hostile build cannot change another
# submitter's kernel image, through the object directory or ccache, and
# patched builds cannot write the lab's shared Redis cache. Through the
# real runner build path (perflab-runner try --build-only, the sandbox,
# the shared kernel cache) with a Redis started here (Unix socket, the
# ACL of dist/redis/redis-users.acl.example):
#  1. a base build writes Redis (its key count grows);
#  2. patch P (the tag patch and a comment in lib/ctype.c) built in
#     trust domain "ref": the reference bzImage;
#  3. a hostile patch in domain "evil" poisons what a later build would
#     reuse: a ccache entry of P's lib/ctype.c compile that holds
#     an object with another table (CCACHE_PREFIX + CCACHE_RECACHE), that
#     object as lib/ctype.o dated a year ahead (make keeps it), and a SET
#     on Redis with the read-only user its ccache.conf names;
#  4. P again in domain "evil": its bzImage differs from the reference
#     (the poison works; on the old layout every patched build shared
#     that object dir and ccache);
#  5. P in domain "victim", with Redis stopped (SIGSTOP: connections hang):
#     the build works, its bzImage equals the reference byte for byte;
#  6. the Redis key count did not move after the base build, the
#     hostile SET was refused (NOPERM), and one compile with the victim's
#     ccache.conf against the hung Redis returns within its timeout.
# Cost: the base build is incremental when the shared cache holds the
# base's objects (tests share build/kcache); then four patched builds,
# each from a copy of obj-base: 1-3 min each when obj-base is current,
# measured 1186 s for the reference build on a loaded machine where
# earlier patched builds of other tests had touched widely included
# headers (everything recompiled through ccache). Needs root, bwrap,
# ccache, redis-server.
. "$(dirname "$0")/../runner/sandbox-lib.sh"
tree=$(readlink -f "$top/build/linux-source-6.1")
[ -f "$tree/Makefile" ] || { echo "base tree missing (make deps)"; exit 77; }
command -v ccache >/dev/null || { echo "ccache not installed (make deps)"; exit 77; }
command -v redis-server >/dev/null || { echo "redis-server not installed (make deps)"; exit 77; }
K=$("$top/scripts/kcache-dir.sh")
uid=$(id -u nobody)
tag=$(date +%s)$$
ref=ref$tag evil=evil$tag vic=vic$tag
P0=$top/kernel-patches/0001-blk-mq-clear-rqs-on-tag-free.patch
rpid=
cleanup='[ -n "$rpid" ] && { kill -CONT $rpid; kill $rpid; wait $rpid; } 2>/dev/null
	for dom in $ref $evil $vic; do
		rm -rf "$K"/trees/*/obj-$dom "$K"/trees/*/obj-$dom.seed "$K/ccache-$uid-$dom" "$K/cc/$dom"
	done
	for k in $(cat "$d/keys" 2>/dev/null); do rm -rf "$K/images/$k"; done'

# Redis, as dist/redis configures it, on a socket the build user reaches.
sock=$d/redis.sock
sed -e "s/CHANGE-ME-rw/rwpass$tag/" -e "s/CHANGE-ME-ro/ropass$tag/" \
	"$top/dist/redis/redis-users.acl.example" >"$d/users.acl"
echo "user perflab-test on >testpass$tag ~* &* +@all" >>"$d/users.acl"
printf 'rw perflab-rw rwpass%s\nro perflab-ro ropass%s\n' "$tag" "$tag" >"$d/auth"
chmod 600 "$d/auth"
sed -e "s|/run/perflab/redis.sock|$sock|" -e "s|/etc/perflab/redis-users.acl|$d/users.acl|" \
	-e 's/^maxmemory .*/maxmemory 256mb/' "$top/dist/redis/perflab-redis.conf" >"$d/redis.conf"
redis-server "$d/redis.conf" --daemonize no >"$d/redis.log" 2>&1 &
rpid=$!
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || fail "redis did not start: $(cat "$d/redis.log")"
rcli() { redis-cli -s "$sock" --user perflab-test --pass "testpass$tag" --no-auth-warning "$@"; }
[ "$(rcli ping)" = PONG ] || fail "redis: $(rcli ping)"

# P: the tag patch and a comment in lib/ctype.c (so a build of P compiles
# lib/ctype.c through ccache: the entry the hostile build prepares).
mkdir -p "$d/pa/lib" "$d/pb/lib"
cp "$tree/lib/ctype.c" "$d/pa/lib/ctype.c"
{ head -n1 "$tree/lib/ctype.c"; echo '/* perflab: the build isolation test */'
  tail -n +2 "$tree/lib/ctype.c"; } >"$d/pb/lib/ctype.c"
(cd "$d" && diff -u pa/lib/ctype.c pb/lib/ctype.c | sed -e 's|^--- pa/|--- a/|' -e 's|^+++ pb/|+++ b/|') >"$d/ctype-comment.diff"
{ cat "$P0"; echo; cat "$d/ctype-comment.diff"; } >"$d/P.patch"
P=$d/P.patch

build() { # build DOMAIN [PATCH]: prints the bzImage sha256
	local dom=$1 out line
	shift
	out=$(flock_build "$R" try --build-only --backend qemu-icount --workdir "$d/w" \
		--kcache "$K" --tree "$tree" --trust-domain "$dom" \
		--ccache-redis "$sock" --ccache-redis-auth "$d/auth" \
		--ccache-redis-timeout 500 ${1:+--patch "$1"} 2>"$d/build-$dom.err")
	line=$(tail -n1 <<<"$out")
	read -r key _ image <<<"$line"
	[ -f "$image" ] || { tail -30 "$d/build-$dom.err"; echo "$out"; return 1; }
	# What make printed (the poison script's lines too).
	cat "$(dirname "$image")/build.log" >>"$d/build-$dom.err"
	echo "$key" >>"$d/keys"	# (a subshell: keys go through a file)
	sha256sum <"$image" | cut -c1-64
}
flock_build() { "$@"; }

t0=$(date +%s)
build base >/dev/null || fail "base build"
n_base=$(rcli dbsize)
echo "base build: $(( $(date +%s) - t0 )) s, Redis keys: $n_base"

t0=$(date +%s)
h_ref=$(build "$ref" "$P") || fail "reference build"
echo "reference ($ref): $h_ref, $(( $(date +%s) - t0 )) s"

poison() { # the script the hostile patch runs while arch/x86/boot is made
cat <<'SH'
echo "poison: in $(pwd)"
# ccache: the clean compile of lib/ctype.c, run with a prefix that swaps
# in another table (CCACHE_PREFIX is not hashed): the entry stored under
# the clean compile's key holds the poisoned object.
cmd=$(sed -n 's/^savedcmd_lib\/ctype.o := //p; s/^cmd_lib\/ctype.o := //p' lib/.ctype.o.cmd)
src=$(echo "$cmd" | tr ' ' '\n' | grep 'lib/ctype\.c$' | tail -n1)
if [ -n "$cmd" ] && [ -f "$src" ]; then
	sed 's/_P,_U|_X,_U|_X/_P,_L|_X,_U|_X/' "$src" >/tmp/ctype-poison.c
	printf '#!/bin/sh\nfor a; do shift; case "$a" in *lib/ctype.c) set -- "$@" /tmp/ctype-poison.c;; *) set -- "$@" "$a";; esac; done\nexec "$@"\n' >/tmp/evil-prefix
	chmod +x /tmp/evil-prefix
	CCACHE_PREFIX=/tmp/evil-prefix CCACHE_RECACHE=1 sh -c "$cmd" &&
		echo "poison: ccache entry stored"
else
	echo "poison: no ctype command ($cmd)"
fi
# The object dir: the poisoned lib/ctype.o dated a year ahead (make keeps it).
touch -d '+1 year' lib/ctype.o && echo "poison: ctype.o dated ahead"
# Redis, with the credentials this build can see.
url=$(sed -n 's/.*\(redis+unix:[^ ]*\).*/\1/p' "$CCACHE_CONFIGPATH")
cred=${url#redis+unix://}; cred=${cred%%@*}
sock=/${url#*@localhost/}; sock=${sock%%|*}
redis-cli -s "$sock" --user "${cred%%:*}" --pass "${cred#*:}" --no-auth-warning \
	set perflab-poison x 2>&1 | sed 's/^/poison: redis: /'
SH
}
mkdir -p "$d/a/arch/x86/boot" "$d/b/arch/x86/boot"
cp "$tree/arch/x86/boot/Makefile" "$d/a/arch/x86/boot/Makefile"
{ head -n1 "$tree/arch/x86/boot/Makefile"
  echo '$(shell sh $(srctree)/perflab-poison.sh >&2)'
  tail -n +2 "$tree/arch/x86/boot/Makefile"; } >"$d/b/arch/x86/boot/Makefile"
poison >"$d/b/perflab-poison.sh"
(cd "$d" && diff -Nu a/arch/x86/boot/Makefile b/arch/x86/boot/Makefile;
 diff -Nu a/perflab-poison.sh b/perflab-poison.sh) >"$d/hostile.patch"
# The same comment in lib/ctype.c: the poisoned entry is for P's compile.
cat "$d/ctype-comment.diff" >>"$d/hostile.patch"
t0=$(date +%s)
build "$evil" "$d/hostile.patch" >/dev/null || fail "hostile build"
grep '^poison' "$d/build-$evil.err" || true
grep -q "poison: ccache entry stored" "$d/build-$evil.err" || fail "the ccache poison did not run (test broken)"
grep -q "poison: ctype.o dated ahead" "$d/build-$evil.err" || fail "the object poison did not run (test broken)"
grep -q "poison: redis: .*NOPERM" "$d/build-$evil.err" || fail "the hostile SET was not refused by Redis's ACL"
echo "hostile ($evil): $(( $(date +%s) - t0 )) s"

t0=$(date +%s)
h_evil=$(build "$evil" "$P") || fail "P in the hostile domain"
echo "P in $evil: $h_evil, $(( $(date +%s) - t0 )) s"
[ "$h_evil" != "$h_ref" ] || fail "the poison did not change the hostile domain's own image (test broken)"

kill -STOP "$rpid"
t0=$(date +%s)
h_vic=$(build "$vic" "$P") || fail "P in another domain with Redis hung"
echo "P in $vic (Redis stopped): $h_vic, $(( $(date +%s) - t0 )) s"
[ "$h_vic" = "$h_ref" ] || fail "another submitter's image changed: $h_vic, reference $h_ref"
# One compile with the victim's ccache configuration against the hung
# Redis: back within the timeout (500 ms connect + 500 ms per operation).
printf 'int f(void) { return %s; }\n' "$tag" >"$d/t.c"
s=$(date +%s%N)
CCACHE_CONFIGPATH=$K/cc/$vic/ccache.conf CCACHE_DIR=$d/cc ccache gcc -c -o "$d/t.o" "$d/t.c" ||
	fail "a compile with Redis hung failed"
ms=$(( ($(date +%s%N) - s) / 1000000 ))
echo "one compile with Redis hung: $ms ms"
[ "$ms" -lt 3000 ] || fail "a compile waited $ms ms for a hung Redis"
kill -CONT "$rpid"
check_n=$(rcli dbsize)
[ "$check_n" = "$n_base" ] || fail "patched builds changed Redis: $n_base keys after the base build, $check_n now"
[ "$(rcli exists perflab-poison)" = 0 ] || fail "the hostile key is in Redis"
echo "Redis keys: $n_base after the base build, $check_n after the patched builds"
echo ok
