#!/usr/bin/env bash
# Description: continuous benchmarking of git history end to end on
# qemu-icount (make test-bisect, also run by .ci/run). A local git
# repository made from build/linux-source-6.1 (initial commit: the tree
# with the canary patches 0004 + 0007, canary off) gets a series of small
# commits: neutral ones (comments and a harmless change in block/), one
# costly commit that turns the canary on by default (perflab_canary = 256),
# applied with `git am` from a mail whose Message-ID was also submitted to
# perflab as a patch, one commit that does not build, and its fix. A
# track measuring every 4th commit finds the step, the bisection it starts
# converges on exactly the costly commit, skipping the broken one; the
# report mail reaches a local SMTP sink addressed to the commit's author
# with In-Reply-To/References = the submitted patch's Message-ID; the API
# and the web page show the bisection. Prints its wall time.
. "$(dirname "$0")/../api/lib.sh"

T0=$(date +%s)
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed"
command -v git >/dev/null || skip "git is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"
RUNNER=$TOP/build/perflab-runner
for f in "$RUNNER" "$TOP/build/perflab-bench-static" "$TOP/build/perflab-insn.so"; do
	[ -e "$f" ] || skip "$f is not built (make; make static-bench)"
done
# resolved: in a worktree build/linux-source-6.1 is a symlink, and a copy
# of the link would let the patches below write into the shared tree
SRC=$(readlink -f "$TOP/build/linux-source-6.1")
[ -f "$SRC/Makefile" ] || skip "base tree missing (make deps)"
[ -x /bin/busybox ] || skip "busybox-static is not installed"
# Runs of a track point: qemu-icount is exact, one run is the value. Each
# bisection step runs at least 5 a side (the verdict's minimum).
RUNS=${BISECT_RUNS:-1}
EVERY=${BISECT_EVERY:-4}

# The repository: beside the kernel cache (hard links need its
# filesystem), mode 0700 (mktemp -d): no other user reads it.
SCRATCH=$(mktemp -d "$(dirname "$KCACHE")/bisect-src.XXXXXX") || fail "no scratch dir beside $KCACHE"
REPO=$SCRATCH/linux
RUNNER_PID= RX=
stop_all() {
	[ -n "$RUNNER_PID" ] && kill "$RUNNER_PID" 2>/dev/null && wait "$RUNNER_PID" 2>/dev/null
	[ -n "$RX" ] && kill "$RX" 2>/dev/null
	mkdir -p "$TOP/build/test-logs"
	for f in runner.log daemon.log; do
		[ -f "$TMP/$f" ] && cp "$TMP/$f" "$TOP/build/test-logs/bisect-$f"
	done
	rm -rf "$SCRATCH"
	# the runner's clone and work tree of this repository (one per URL);
	# images stay cached: commits are the same on every run (fixed dates)
	h=$(printf '%s' "$REPO" | sha256sum | cut -c1-64)
	rm -rf "${KCACHE:?}/git/$h".*
	cleanup
}
trap stop_all EXIT
step() { printf '[%4ds] %s\n' $(($(date +%s) - T0)) "$*"; }

# ---- the repository -----------------------------------------------------
export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_DATE='2026-12-01T12:00:00Z' GIT_COMMITTER_DATE='2026-12-01T12:00:00Z'
G() { git -C "$REPO" -c user.name=perflab -c user.email=perflab@lab.test -c core.hooksPath=/dev/null "$@"; }
# commit AUTHOR MESSAGE: every change so far as one commit by AUTHOR
# (-a: only tracked files are looked at; the first commit adds them all,
# -f past Debian's .gitignore of everything at the top)
commit() { G commit -q -a --author="$1" -m "$2" || fail "commit '$2'"; }
# Files are edited only by replacing them (sed -i, patch, git am write a
# new file): the tree is a hard-link copy of build/linux-source-6.1.
edit() { sed -i "$2" "$REPO/$1" || fail "edit $1"; }

step "repository from $SRC"
mkdir "$REPO" || fail "mkdir $REPO"
cp -al "$SRC/." "$REPO/" 2>/dev/null || { rm -rf "$REPO" && mkdir "$REPO" && cp -a "$SRC/." "$REPO/"; } ||
	fail "copy the tree"
[ ! -L "$REPO" ] && [ ! -L "$REPO/block" ] && [ ! -e "$REPO/.git" ] || fail "$REPO is not a private copy"
for p in 0004-block-perflab_canary-calibration-parameter 0007-block-perflab_canary-runtime-sysfs-parameter; do
	patch -s -p1 -d "$REPO" <"$TOP/kernel-patches/$p.patch" || fail "patch $p"
done
G init -q -b master || fail "git init"
G config pack.window 0	# deltas of a whole tree cost minutes; not needed here
G config gc.auto 0
G add -A -f || fail "git add"
commit "Linux Base <base@lab.test>" "Linux 6.1 with the perflab canary (off)"
C0=$(G rev-parse HEAD)
step "initial commit $C0"

# ---- the lab --------------------------------------------------------------
mkdir -p "$TMP/rx" "$TMP/runner"
python3 "$TOP/tests/stats/receivers.py" "$TMP/rx" &
RX=$!
for _ in $(seq 100); do [ -s "$TMP/rx/smtp.port" ] && break; sleep 0.05; done
[ -s "$TMP/rx/smtp.port" ] || fail "SMTP sink did not start"
start_daemon --smtp-url "smtp://127.0.0.1:$(cat "$TMP/rx/smtp.port")" \
	--smtp-from perflab@lab.test --smtp-to lkml@lab.test --public-url http://lab.test \
	--track-poll 3600 --web "$TOP/web"
ADMIN=$(make_key admin boss)
RK=$(make_key runner bisect-runner)
"$RUNNER" --server "$BASE" --key "$RK" --backend qemu-icount --name bisect-host \
	--label qemu-icount --workdir "$TMP/runner" --kcache "$KCACHE" \
	--claim-wait 2 >>"$TMP/runner.log" 2>&1 &
RUNNER_PID=$!

b=$(api POST /api/v1/bases "$ADMIN" "{\"name\":\"linux-git\",\"git\":\"$REPO\",\"ref\":\"master\",\"config\":\"qemu\"}")
expect_status 201 "git base: $b"
check "$(jq -r .head <<<"$b")" = "$C0" "base head"
BENCH='{"runtime":2,"warmup":1,"ios":100000,"target":"nullb","profile":true}'
t=$(api POST /api/v1/tracks "$ADMIN" "{\"base\":\"linux-git\",\"ref\":\"master\",\"label\":\"bisect-e2e\",
	\"backend\":\"qemu-icount\",\"bench\":$BENCH,\"runs\":$RUNS,\"every\":{\"commits\":$EVERY},
	\"detect\":{\"min_size\":2,\"max_p\":0.2}}")
expect_status 201 "track: $t"
TRACK=$(jq -r .id <<<"$t")

# ---- the series -------------------------------------------------------------
# c1..c4 neutral, c5 costly (git am), c6 does not build, c7 fixes it,
# c8..c20 neutral: measured c0 c4 | c8 c12 c16 c20, the step in (c4, c8]
# (two points before it, as the track's detect.min_size; the last point
# is the re-run that confirms the change point).
n=0
neutral() { # neutral FILE: a comment line at the top, by a rotating author
	n=$((n + 1))
	edit "$1" "1a /* perflab bisect e2e: neutral change $n */"
	commit "Dev $n <dev$n@lab.test>" "$(basename "$(dirname "$1")"): neutral change $n"
}
for f in block/blk-core.c block/bio.c block/blk-settings.c; do neutral "$f"; done
# a harmless code change in block/: a local renamed
edit block/blk-sysfs.c 's/^\treturn sprintf(page, "%lu\\n", var);$/\treturn sprintf(page, "%lu\\n", (unsigned long)var);/'
G diff --quiet && fail "the harmless change changed nothing"
commit "Dev 4 <dev4@lab.test>" "block: spell out the type in queue_var_show"
C4=$(G rev-parse HEAD)

# the costly commit as a mail: patch-id equal to the commit git am makes
MSGID="<bisect-e2e-canary.$$@lab.test>"
G checkout -q -b costly
edit block/blk-mq.c 's/^static unsigned int perflab_canary __read_mostly;$/static unsigned int perflab_canary __read_mostly = 256;/'
G diff --quiet && fail "the canary default did not change"
commit "Jane Dev <jane@dev.test>" "block: run the perflab canary by default

Turn the canary on (256 dependent operations per submitted bio) so that
every kernel of the series pays for it from here on."
G format-patch -1 --stdout --subject-prefix=PATCH >"$TMP/canary.mbox" || fail "format-patch"
G checkout -q master
G branch -q -D costly
sed -i "0,/^Subject:/s//Message-ID: $MSGID\nSubject:/" "$TMP/canary.mbox"
grep -q "^Message-ID: $MSGID" "$TMP/canary.mbox" || fail "no Message-ID in the mail"
p=$(curl -s -w '\n%{http_code}' -H "Authorization: Bearer $ADMIN" -H 'Content-Type: text/plain' \
	--data-binary @"$TMP/canary.mbox" "$BASE/api/v1/patches?base=linux-git@$C4&runs=5&title=canary")
check "$(tail -n1 <<<"$p")" = 201 "patch submitted ($(head -n -1 <<<"$p" | head -c 300))"
pexp=$(head -n -1 <<<"$p" | jq -r '.id // .experiment_id')
# only the stored patch matters here: its experiment would load the host
api POST "/api/v1/experiments/$pexp/cancel" "$ADMIN" >/dev/null
G am -q "$TMP/canary.mbox" || fail "git am"
C5=$(G rev-parse HEAD)
check "$(G log -1 --format=%ae)" = jane@dev.test "git am kept the author"
edit block/blk-merge.c '1a #error "perflab bisect e2e: this commit does not build"'
commit "Carl Broken <carl@lab.test>" "block: a commit that does not build"
C6=$(G rev-parse HEAD)
edit block/blk-merge.c '/^#error "perflab bisect e2e: this commit does not build"$/d'
commit "Carl Broken <carl@lab.test>" "block: fix the build"
C7=$(G rev-parse HEAD)
for i in $(seq 13); do
	f=$(sed -n "$((i % 3 + 1))p" <<<$'block/blk-core.c\nblock/bio.c\nblock/blk-settings.c')
	neutral "$f"
done
G log --oneline --first-parent "$C0..HEAD" | cat
step "series pushed: 20 commits; costly $C5, broken $C6"
G diff --stat "$C0" HEAD -- block/blk-mq.c | tail -1

# ---- the track finds the step -------------------------------------------
r=$(api POST "/api/v1/tracks/$TRACK/poll" "$ADMIN" "")
expect_status 200 "poll: $r"
echo "queued $(jq .queued <<<"$r") track points"
BIS=
for ((i = 0; i < 5400; i += 10)); do
	tr=$(api GET "/api/v1/tracks/$TRACK" "$ADMIN")
	BIS=$(jq -r '.bisections[0].id // empty' <<<"$tr")
	[ -n "$BIS" ] && break
	if ((i % 120 == 0)); then
		step "points: $(jq -c '[.points[] | [.commit[0:8], .state, .value]]' <<<"$tr")"
	fi
	sleep 10
done
[ -n "$BIS" ] || fail "no bisection started: $(jq -c '{points: [.points[] | [.commit[0:8], .state, .value]], change_points}' <<<"$tr")"
step "change point: $(jq -c '.change_points' <<<"$tr"); bisection $BIS"
cp=$(jq -c '.change_points[0]' <<<"$tr")
check "$(jq -r .good <<<"$cp")" = "$C4" "change point: last good commit"

# ---- the bisection converges on the costly commit -------------------------
for ((i = 0; i < 5400; i += 10)); do
	bj=$(api GET "/api/v1/bisections/$BIS" "$ADMIN")
	case $(jq -r .state <<<"$bj") in done | failed) break ;; esac
	((i % 120 == 0)) && step "bisection: $(jq -c '[.steps[] | [.commit[0:8], .state, .delta_pct]]' <<<"$bj")"
	sleep 10
done
echo "bisection log:"
jq -r '.steps[] | [.commit[0:12], .state, .runs, .delta_pct, .ci_lo, .ci_hi, .verdict, .bad, .subject] | @tsv' <<<"$bj"
check "$(jq -r .state <<<"$bj")" = done "bisection state"
check "$(jq -r .culprit.commit <<<"$bj")" = "$C5" "culprit is the costly commit"
check "$(jq -r --arg c "$C6" '[.steps[] | select(.commit == $c) | .state] | join(",")' <<<"$bj")" = skipped \
	"the broken commit was skipped"
check "$(jq -r .culprit.verdict <<<"$bj")" = regression "culprit verdict"
step "culprit $(jq -r '.culprit | .commit[0:12] + " " + .subject + " " + (.delta_pct | tostring) + "%"' <<<"$bj")"

# ---- the report --------------------------------------------------------------
# (the steps' own verdicts raise no alert: the report is what is mailed)
mail=
for _ in $(seq 300); do
	mail=$(grep -l '^Message-ID: <perflab-bisection-' "$TMP"/rx/mail.[0-9]* 2>/dev/null | head -n1)
	[ -n "$mail" ] && break
	sleep 1
done
[ -n "$mail" ] || fail "no report mail: $(api GET /api/v1/alerts "$ADMIN" | jq -c '[.alerts[] | {kind, title}]')"
echo "$(ls "$TMP"/rx/mail.* | wc -l) mails at the sink, the report is $(basename "$mail")"
nverdict=$(api GET /api/v1/alerts "$ADMIN" | jq '[.alerts[] | select(.kind == "verdict")] | length')
[ "$nverdict" = 0 ] || fail "$nverdict verdict alerts from the bisection's steps (the report alone should tell)"
sed -n '1,/^$/p;/^$/q' "$mail"
grep -q '^RCPT TO:<jane@dev.test>' "$mail" || fail "not sent to the author"
grep -q '^RCPT TO:<lkml@lab.test>' "$mail" || fail "not sent to the list"
grep -q "^In-Reply-To: $MSGID\$" "$mail" || fail "In-Reply-To is not the patch's Message-ID"
grep -q "^References: $MSGID\$" "$mail" || fail "References is not the patch's Message-ID"
# qemu-icount's metric is ns_per_io (instructions per IO): up is worse
grep -Eq "^Subject: \[perflab\] ${C5:0:12} block: run the perflab canary by default: [+-][0-9.]+% (ns_per_io|iops) regression\$" "$mail" ||
	fail "subject: $(grep ^Subject "$mail")"
grep -Eq "FYI, we noticed a [+-][0-9.]+% regression of perflab\.(ns_per_io|iops) due to commit:" "$mail" ||
	fail "no LKP greeting"
grep -q "blk_mq_submit_bio" "$mail" || fail "the exact perf diff rows are missing"
cp "$mail" "$TOP/build/test-logs/bisect-report.mail"
check "$(jq -r .report_alert_id <<<"$(api GET "/api/v1/bisections/$BIS" "$ADMIN")")" != null "bisection links its report"

# ---- the web page ---------------------------------------------------------------
if [ -d "$TOP/web/node_modules/playwright-core" ] && [ -x /usr/bin/chromium ]; then
	BASE="$BASE" KEY="$ADMIN" BIS="$BIS" C5="$C5" C6="$C6" node "$TOP/tests/bisect/page.js" ||
		fail "web page"
else
	echo "web page not checked: playwright-core or chromium missing"
fi

# the base tree was only ever linked, never written
grep -q perflab_canary "$SRC/block/blk-mq.c" && fail "build/linux-source-6.1 was modified through a hard link"
step "wall time $(($(date +%s) - T0)) s"
echo "bisect e2e ok"
