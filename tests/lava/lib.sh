# tests/lava/lib.sh: a real LAVA instance on this machine, started and
# torn down by the test (there is no systemd on CI): a private PostgreSQL
# cluster (initdb + pg_ctl, Unix socket only), LAVA's migrations, a
# superuser and its API token, gunicorn with lava_server.wsgi, the
# publisher and the scheduler, one lava-worker and one qemu device with
# no_kvm (this machine has no KVM), pinned by a tag. Source it, then
#
#   lava_start            sets LAVA_URL, LAVA_TOKEN, LAVA_TOKEN_FILE,
#                         LAVA_DEVICE, LAVA_TAG, LAVA_WORKER
#   lava_api GET PATH     curl with the token (prints the body)
#   lava_stop             ends what lava_start started (trap it)
#
# Everything lives in LAVA_DIR (mktemp); the only files outside are the
# worker's dispatcher config (/etc/lava-server/dispatcher.d/WORKER.yaml,
# a path LAVA 2023.01 hard-codes; it sets a download prefix unique to this
# run) and the dispatcher's download directories WORKER-* under
# /var/lib/lava/dispatcher/tmp; lava_stop removes both.

lava_skip() { echo "SKIP: $*"; exit 77; }

lava_check_tools() {
	PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
	[ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] ||
		lava_skip "PostgreSQL is not installed (make deps)"
	for t in lava-server lava-worker gunicorn3 qemu-system-x86_64 curl jq python3; do
		command -v "$t" >/dev/null || lava_skip "$t is not installed (make deps)"
	done
	id postgres >/dev/null 2>&1 || lava_skip "no postgres user (make deps)"
	[ "$(id -u)" = 0 ] || lava_skip "LAVA's worker runs QEMU as root: run as root"
}

lava_free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

_lava_bg() {	# NAME CMD...: start CMD in its own session, log to LAVA_DIR/log/NAME
	local name=$1
	shift
	setsid "$@" >"$LAVA_DIR/log/$name.out" 2>&1 &
	echo $! >"$LAVA_DIR/$name.pid"
}

lava_api() {	# METHOD PATH [curl args...]
	local m=$1 p=$2
	shift 2
	curl -sS -X "$m" -H "Authorization: Token $LAVA_TOKEN" "$@" "$LAVA_URL/$p"
}

_lava_manage() { lava-server manage "$@" >>"$LAVA_DIR/log/manage.log" 2>&1; }

lava_start() {
	lava_check_tools
	LAVA_DIR=$(mktemp -d /tmp/perflab-lava.XXXXXX)
	chmod 755 "$LAVA_DIR"
	mkdir -p "$LAVA_DIR"/{log,media,devices,health-checks,dispatcher.d,worker}
	local pgport http ev ws tag
	pgport=$(lava_free_port)
	http=$(lava_free_port)
	ev=$(lava_free_port)
	ws=$(lava_free_port)
	LAVA_WORKER=perflab-test-$$
	LAVA_DEVICE=qemu-perflab-$$
	LAVA_TAG=perflab-pin-$$
	LAVA_URL=http://127.0.0.1:$http
	LAVA_TOKEN=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
	LAVA_TOKEN_FILE=$LAVA_DIR/lava-token
	printf '%s\n' "$LAVA_TOKEN" >"$LAVA_TOKEN_FILE"
	chmod 600 "$LAVA_TOKEN_FILE"

	# PostgreSQL: a private cluster on a Unix socket, no TCP.
	mkdir "$LAVA_DIR/pg"
	chown postgres "$LAVA_DIR/pg"
	su postgres -s /bin/sh -c "$PG_BIN/initdb -D $LAVA_DIR/pg/data -A trust \
		-U postgres --encoding=UTF8 --locale=C.UTF-8" \
		>"$LAVA_DIR/log/initdb.log" 2>&1 || return 1
	su postgres -s /bin/sh -c "$PG_BIN/pg_ctl -D $LAVA_DIR/pg/data -l \
		$LAVA_DIR/pg/log -w -o \"-c listen_addresses='' \
		-c unix_socket_directories=$LAVA_DIR/pg -p $pgport -c fsync=off\" \
		start" >"$LAVA_DIR/log/pg_ctl.log" 2>&1 || return 1
	psql -q -h "$LAVA_DIR/pg" -p "$pgport" -U postgres \
		-c "CREATE ROLE lavaserver LOGIN" \
		-c "CREATE DATABASE lavaserver OWNER lavaserver TEMPLATE template0 \
		    ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'" \
		>>"$LAVA_DIR/log/pg_ctl.log" 2>&1 || return 1

	# LAVA's settings, all from the environment (lava_server/settings/prod.py).
	LAVA_JSON_SETTINGS=$(LAVA_DIR=$LAVA_DIR PGPORT=$pgport EV=$ev python3 -c '
import base64, json, os, secrets
d = os.environ["LAVA_DIR"]
s = {"DATABASES": {"default": {"ENGINE": "django.db.backends.postgresql",
	"NAME": "lavaserver", "USER": "lavaserver", "PASSWORD": "",
	"HOST": d + "/pg", "PORT": os.environ["PGPORT"]}},
     "SECRET_KEY": secrets.token_hex(32), "ALLOWED_HOSTS": ["*"],
     "MEDIA_ROOT": d + "/media/", "DEVICES_PATH": d + "/devices",
     "HEALTH_CHECKS_PATH": d + "/health-checks",
     "DISPATCHER_CONFIG_PATH": d + "/dispatcher.d",
     "DJANGO_LOGFILE": d + "/log/django.log",
     "EVENT_NOTIFICATION": True,
     "INTERNAL_EVENT_SOCKET": "ipc://" + d + "/lava.events",
     "EVENT_SOCKET": "tcp://127.0.0.1:" + os.environ["EV"],
     "CALLBACK_TIMEOUT": 5}
print(base64.b64encode(json.dumps(s).encode()).decode())')
	export LAVA_JSON_SETTINGS
	_lava_manage migrate --noinput || { echo "lava: migrate failed"; return 1; }
	_lava_manage users add --superuser --staff --passwd "$LAVA_TOKEN" perflab &&
		_lava_manage tokens add --user perflab --description perflab \
			--secret "$LAVA_TOKEN" || return 1
	LAVA_WORKER_TOKEN=$(lava-server manage workers add "$LAVA_WORKER" 2>>"$LAVA_DIR/log/manage.log" |
		sed -n 's/^Token: //p')
	[ -n "$LAVA_WORKER_TOKEN" ] || { echo "lava: no worker token"; return 1; }
	_lava_manage device-types add qemu || return 1
	# The qemu device type adds -enable-kvm unless no_kvm is set.
	cat >"$LAVA_DIR/devices/$LAVA_DEVICE.jinja2" <<EOF
{% extends 'qemu.jinja2' %}
{% set no_kvm = True %}
{% set memory = 512 %}
EOF
	_lava_manage devices add "$LAVA_DEVICE" --device-type qemu \
		--worker "$LAVA_WORKER" --tags "$LAVA_TAG" || return 1
	mkdir -p /etc/lava-server/dispatcher.d
	printf 'prefix: "%s-"\n' "$LAVA_WORKER" >"/etc/lava-server/dispatcher.d/$LAVA_WORKER.yaml"

	_lava_bg gunicorn gunicorn3 lava_server.wsgi --bind "127.0.0.1:$http" \
		--workers 2 --worker-class eventlet --timeout 120 \
		--log-file "$LAVA_DIR/log/gunicorn.log"
	_lava_bg publisher lava-server manage lava-publisher --host 127.0.0.1 \
		--port "$ws" --log-file "$LAVA_DIR/log/publisher.log"
	_lava_bg scheduler lava-server manage lava-scheduler --event-url \
		"tcp://127.0.0.1:$ev" --log-file "$LAVA_DIR/log/scheduler.log"
	local i
	for i in $(seq 100); do
		curl -sf -o /dev/null "$LAVA_URL/api/v0.2/system/version/" && break
		sleep 0.3
	done
	_lava_bg worker lava-worker --name "$LAVA_WORKER" --url "$LAVA_URL/" \
		--token "$LAVA_WORKER_TOKEN" --worker-dir "$LAVA_DIR/worker" \
		--ping-interval 1 --job-log-interval 1 \
		--log-file "$LAVA_DIR/log/worker.log"
	for i in $(seq 100); do
		[ "$(lava_api GET "api/v0.2/workers/$LAVA_WORKER/" | jq -r .state 2>/dev/null)" = Online ] &&
			[ "$(lava_api GET "api/v0.2/devices/$LAVA_DEVICE/" | jq -r .state 2>/dev/null)" = Idle ] &&
			return 0
		sleep 0.3
	done
	echo "lava: the worker or the device did not come up"
	tail -5 "$LAVA_DIR"/log/*.log
	return 1
}

lava_stop() {
	[ -n "${LAVA_DIR:-}" ] && [ -d "$LAVA_DIR" ] || return 0
	local p pid
	for p in worker scheduler publisher gunicorn; do
		[ -f "$LAVA_DIR/$p.pid" ] || continue
		pid=$(cat "$LAVA_DIR/$p.pid")
		kill -TERM -- "-$pid" 2>/dev/null
	done
	for p in worker scheduler publisher gunicorn; do
		[ -f "$LAVA_DIR/$p.pid" ] || continue
		pid=$(cat "$LAVA_DIR/$p.pid")
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL -- "-$pid" 2>/dev/null
	done
	if [ -f "$LAVA_DIR/pg/data/postmaster.pid" ]; then
		su postgres -s /bin/sh -c "$PG_BIN/pg_ctl -D $LAVA_DIR/pg/data -m fast \
			-w stop" >/dev/null 2>&1
	fi
	rm -f "/etc/lava-server/dispatcher.d/$LAVA_WORKER.yaml"
	rm -rf /var/lib/lava/dispatcher/tmp/"$LAVA_WORKER"-*
	if [ -n "${LAVA_KEEP:-}" ]; then
		echo "lava: kept $LAVA_DIR"
	else
		rm -rf "$LAVA_DIR"
	fi
}
