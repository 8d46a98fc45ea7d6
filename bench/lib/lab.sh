# Sourced by bench scripts that need a private lab: a perflabd on a free
# loopback port with a scratch database, and one perflab-runner.
#
#   . bench/lib/lab.sh
#   lab_start NAME BACKEND     # sets tmp, url, sub (submit key), adm (admin
#                              # key); the runner registers as NAME-BACKEND
#                              # with label BACKEND (waited for); logs in
#                              # $tmp/*.log
# Everything is stopped and $tmp removed on exit.
for f in build/perflabd build/perflab build/perflab-runner build/perflab-bench-static; do
	[ -x "$f" ] || { echo "$f not built (make; make static-bench)"; exit 1; }
done
tmp=
dpid=
rpid=
lab_cleanup() {
	[ -n "$rpid" ] && kill "$rpid" 2>/dev/null && wait "$rpid" 2>/dev/null
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null && wait "$dpid" 2>/dev/null
	[ -n "$tmp" ] && rm -rf "$tmp"
}
trap lab_cleanup EXIT

lab_start() {
	local name=$1 backend=$2 rkey

	tmp=$(mktemp -d "/tmp/$name.XXXXXX")
	build/perflabd --listen 127.0.0.1:0 --db "$tmp/db" --port-file "$tmp/port" \
		>"$tmp/daemon.log" 2>&1 &
	dpid=$!
	for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
	url=http://127.0.0.1:$(cat "$tmp/port")
	sub=$(build/perflabd key create --db "$tmp/db" --role submit "$name")
	adm=$(build/perflabd key create --db "$tmp/db" --role admin "$name-admin")
	rkey=$(build/perflabd key create --db "$tmp/db" --role runner "$name-runner")
	mkdir -p "$tmp/runner"
	build/perflab-runner --server "$url" --key "$rkey" --backend "$backend" \
		--name "$name-$backend" --label "$backend" --workdir "$tmp/runner" \
		--kcache "$(scripts/kcache-dir.sh)" --claim-wait 2 \
		>"$tmp/runner.log" 2>&1 &
	rpid=$!
	# Experiments may name only a backend a registered host runs.
	for _ in $(seq 150); do
		build/perflab --server "$url" --key "$adm" hosts 2>/dev/null |
			grep -qF -- "$name-$backend" && return 0
		sleep 0.2
	done
	echo "the runner did not register: $(tail -5 "$tmp/runner.log")"
	exit 1
}
