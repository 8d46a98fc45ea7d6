# Git helpers for the API tests of git bases, tracks and bisections
# (sourced after lib.sh, not executed).
#
#   make_repo DIR N      a repository with commits c1..cN on master (one
#                        file each, author "Dev <dev@example.org>")
#   commit_of DIR K      sha of commit cK (c0: the root "init")
#   git_lab N [FLAGS]    perflabd (FLAGS), keys ADM SUB R1, $REPO with
#                        c0..cN (shas in C[0..N]), git base "g" on it
#   fake_runner [ARGS]   the fake runner (tests/lib/fake_runner.py) on
#                        $TMP/spec.json, answering by commit; RUNNER its
#                        pid, killed at exit with $EXTRA_PIDS
#   wait_bisection ID [TRIES]  until bisection ID is no longer running
#                        (TRIES half seconds, default 360)

command -v git >/dev/null || skip "git is not installed"

gitq() {
	env -i PATH="$PATH" HOME="$TMP" GIT_CONFIG_NOSYSTEM=1 \
		${GIT_AUTHOR_DATE:+GIT_AUTHOR_DATE="$GIT_AUTHOR_DATE"} \
		${GIT_COMMITTER_DATE:+GIT_COMMITTER_DATE="$GIT_COMMITTER_DATE"} \
		GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.org \
		GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.org \
		git "$@"
}

make_repo() {
	local dir=$1 n=$2 i
	gitq init -q -b master "$dir" || fail "git init"
	echo init >"$dir/README"
	gitq -C "$dir" add README
	GIT_AUTHOR_DATE="@1700000000 +0000" GIT_COMMITTER_DATE="@1700000000 +0000" \
		gitq -C "$dir" commit -q -m init || fail "git commit"
	if [ "$n" -gt 0 ]; then add_commits "$dir" 1 "$n"; fi
}

# add_commits DIR FROM TO: more commits cFROM..cTO on master.
add_commits() {
	local dir=$1 i
	for i in $(seq "$2" "$3"); do
		echo "change $i" >"$dir/f$i"
		gitq -C "$dir" add "f$i"
		# one minute apart: series points are ordered by commit time
		GIT_AUTHOR_DATE="@$((1700000000 + 60 * i)) +0000" \
			GIT_COMMITTER_DATE="@$((1700000000 + 60 * i)) +0000" \
			gitq -C "$dir" commit -q -m "c$i: change $i" || fail "git commit $i"
	done
}

commit_of() {
	if [ "$2" = 0 ]; then
		gitq -C "$1" rev-list --max-parents=0 HEAD
	else
		gitq -C "$1" log --format=%H --grep="^c$2:" master
	fi
}

git_lab() {
	local n=$1 i
	shift
	start_daemon "$@"
	ADM=$(make_key admin root)
	SUB=$(make_key submit alice)
	R1=$(make_key runner r1)
	REPO=$TMP/repo
	make_repo "$REPO" "$n"
	for i in $(seq 0 "$n"); do C[$i]=$(commit_of "$REPO" "$i"); done
	api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" '{name:"g", git:$u}')" >/dev/null
	expect_status 201 "git base"
}

fake_runner() {
	command -v python3 >/dev/null || skip "python3 is not installed"
	python3 "$TOP/tests/lib/fake_runner.py" "$BASE" "$R1" sim lab \
		--spec "$TMP/spec.json" --seed 11 "$@" >"$TMP/runner.log" 2>&1 &
	RUNNER=$!
	trap 'kill $RUNNER ${EXTRA_PIDS:-} 2>/dev/null; cleanup' EXIT
}

wait_bisection() {
	local s
	for _ in $(seq "${2:-360}"); do
		s=$(api GET /api/v1/bisections/$1 "$SUB" | jq -r .state)
		[ "$s" != running ] && return 0
		kill -0 $RUNNER 2>/dev/null || fail "the fake runner died: $(tail "$TMP/runner.log")"
		sleep 0.5
	done
	fail "bisection $1 still running: $(api GET /api/v1/bisections/$1 "$SUB" | jq -c .steps)"
}
