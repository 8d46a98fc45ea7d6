#!/usr/bin/env bash
# Description: POST /api/v1/hooks/git without an admin key (issue 27
# finding 6). A git base gets a hook_secret from an admin (never shown:
# GET /api/v1/bases says hook_signed). Without a key and signature: 401;
# a submit or runner key: 403. A body signed with the secret
# (X-Hub-Signature-256 or X-Perflab-Signature: sha256=HMAC-SHA256, the
# reference computed by openssl here) polls the base's tracks and queues
# the new head; a wrong signature, another base's secret, a base without
# a secret, a removed secret: 403. GitHub push payloads (?base=NAME, the
# ping event ignored) and GitLab push hooks (X-Gitlab-Token) are taken.
# Fails on the old code, where the hook needed an admin key (401 here).
. "$(dirname "$0")/../api/lib.sh"
. "$(dirname "$0")/../api/gitlib.sh"
command -v openssl >/dev/null || skip "openssl is not installed"
start_daemon --git-fetch-interval 0
ADM=$(make_key admin root)
SUB=$(make_key submit alice)
R1=$(make_key runner r1)
register_host "$R1" host1 lab
REPO=$TMP/repo
make_repo "$REPO" 1
SECRET=hook-secret-$RANDOM-0123456789abcdef
OTHER=other-secret-0123456789abcdef
api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" --arg s "$SECRET" \
	'{name:"g", git:$u, hook_secret:$s}')" >/dev/null
expect_status 201 "git base with a hook secret"
api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" --arg s "$OTHER" \
	'{name:"h", git:$u, hook_secret:$s}')" >/dev/null
expect_status 201 "another base"
api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" '{name:"plain", git:$u}')" >/dev/null
expect_status 201 "a base without secret"
api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" '{name:"short", git:$u, hook_secret:"x"}')" >/dev/null
expect_status 400 "a short secret"
bases=$(api GET /api/v1/bases "$SUB")
check "$(jq -r '.bases[] | select(.name == "g") | .hook_signed' <<<"$bases")" = true "hook_signed shown"
check "$(jq -r '.bases[] | select(.name == "plain") | .hook_signed' <<<"$bases")" = false "no secret"
grep -q "$SECRET" <<<"$bases" && fail "the secret is shown: $bases"
for b in g plain; do
	api POST /api/v1/tracks "$ADM" "$(jq -n --arg b $b '{base:$b, label:("t-" + $b),
		runs:1, bench:{runtime:3, warmup:1}}')" >/dev/null
	expect_status 201 "track of $b"
done

# hook BODY [CURL ARGS...]: POST it without a key
hook() {
	local d=$1
	shift
	curl -s -o "$TMP/body" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
		"$@" --data-binary "$d" "$BASE/api/v1/hooks/git${Q:-}" >"$TMP/status" 2>/dev/null ||
		echo 000 >"$TMP/status"
}
sig() { printf '%s' "$1" | openssl dgst -sha256 -hmac "$2" | sed 's/^.* //'; }

add_commits "$REPO" 2 2
HEAD=$(commit_of "$REPO" 2)
B=$(jq -nc --arg h "$HEAD" '{base:"g", ref:"refs/heads/master", after:$h}')
hook "$B"
expect_status 401 "no key, no signature"
api POST /api/v1/hooks/git "$SUB" "$B" >/dev/null
expect_status 403 "a submit key"
api POST /api/v1/hooks/git "$R1" "$B" >/dev/null
expect_status 403 "a runner key"
hook "$B" -H "X-Hub-Signature-256: sha256=$(sig "$B" wrong-secret-0123456789)"
expect_status 403 "a wrong signature"
hook "$B" -H "X-Hub-Signature-256: sha256=$(sig "$B" "$OTHER")"
expect_status 403 "another base's secret"
hook "$B" -H "X-Hub-Signature-256: sha256=$(sig "$B x" "$SECRET")"
expect_status 403 "the signature of another body"
P=$(jq -nc '{base:"plain", ref:"master"}')
hook "$P" -H "X-Hub-Signature-256: sha256=$(sig "$P" "$SECRET")"
expect_status 403 "a base without a secret"
hook "$B" -H "X-Hub-Signature-256: sha256=$(sig "$B" "$SECRET")"
expect_status 200 "signed with the base's secret: $(cat "$TMP/body")"
check "$(jq -r .queued "$TMP/body")" -eq 1 "the new head is queued"
check "$(jq -r .tracks "$TMP/body")" -eq 1 "one track polled"
check "$(sql "SELECT count(*) FROM track_points p JOIN tracks t ON t.id = p.track_id
	WHERE t.label = 't-g' AND p.commit_sha = '$HEAD'")" -eq 1 "the point of the pushed commit"
check "$(sql "SELECT count(*) FROM track_points p JOIN tracks t ON t.id = p.track_id
	WHERE t.label = 't-plain'")" -eq 1 "the other base's track untouched"
hook "$B" -H "X-Perflab-Signature: sha256=$(sig "$B" "$SECRET")"
expect_status 200 "perflab's own signature header"

# GitHub: the base from the URL, the event from its header
add_commits "$REPO" 3 3
HEAD=$(commit_of "$REPO" 3)
GH=$(jq -nc --arg h "$HEAD" '{ref:"refs/heads/master", before:"0000", after:$h,
	repository:{full_name:"x/linux", clone_url:"https://example.org/x/linux.git"},
	pusher:{name:"x"}, commits:[]}')
Q="?base=g" hook "$GH" -H "X-GitHub-Event: push" -H "X-Hub-Signature-256: sha256=$(sig "$GH" "$SECRET")"
expect_status 200 "GitHub push: $(cat "$TMP/body")"
check "$(jq -r .queued "$TMP/body")" -eq 1 "GitHub push queued the head"
PING='{"zen":"x","hook_id":1,"repository":{"full_name":"x/linux"}}'
Q="?base=g" hook "$PING" -H "X-GitHub-Event: ping" -H "X-Hub-Signature-256: sha256=$(sig "$PING" "$SECRET")"
expect_status 200 "GitHub ping"
check "$(jq -r .ignored "$TMP/body")" = true "ping ignored"
Q="?base=g" hook "$GH" -H "X-GitHub-Event: push" -H "X-Hub-Signature-256: sha256=$(sig "$GH" "$OTHER")"
expect_status 403 "GitHub push signed with another secret"

# GitLab: the secret itself as X-Gitlab-Token
GL=$(jq -nc --arg h "$HEAD" '{object_kind:"push", ref:"refs/heads/master", after:$h,
	project:{path_with_namespace:"x/linux"}}')
Q="?base=g" hook "$GL" -H "X-Gitlab-Token: $SECRET"
expect_status 200 "GitLab push: $(cat "$TMP/body")"
Q="?base=g" hook "$GL" -H "X-Gitlab-Token: ${SECRET}x"
expect_status 403 "GitLab wrong token"

# Removing the secret; only admins change it.
api PATCH /api/v1/bases/g "$SUB" '{"hook_secret":""}' >/dev/null
expect_status 403 "a submit key may not change a base"
api PATCH /api/v1/bases/g "$ADM" '{"hook_secret":""}' >/dev/null
expect_status 200 "secret removed"
check "$(jq -r .hook_signed "$TMP/body")" = false "hook_signed false"
hook "$B" -H "X-Hub-Signature-256: sha256=$(sig "$B" "$SECRET")"
expect_status 403 "the removed secret"
api PATCH /api/v1/bases/nosuch "$ADM" '{"mail_authors":true}' >/dev/null
expect_status 404 "unknown base"
api PATCH /api/v1/bases/g "$ADM" '{"mail_authors":"yes"}' >/dev/null
expect_status 400 "mail_authors not a boolean"
api PATCH /api/v1/bases/g "$ADM" '{"mail_authors":true}' >/dev/null
expect_status 200 "mail_authors set"
check "$(jq -r .mail_authors "$TMP/body")" = true "mail_authors shown"
echo PASS
