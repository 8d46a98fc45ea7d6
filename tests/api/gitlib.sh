# Git helpers for the API tests of git bases, tracks and bisections
# (sourced after lib.sh, not executed).
#
#   make_repo DIR N      a repository with commits c1..cN on master (one
#                        file each, author "Dev <dev@example.org>")
#   commit_of DIR K      sha of commit cK (c0: the root "init")

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
