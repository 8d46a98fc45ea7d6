#!/usr/bin/env bash
# Description: POST /api/v1/patches stores the raw patch verbatim with its
# metadata and plans a base vs patched experiment; a non-patch gets 400.
. "$(dirname "$0")/lib.sh"
start_daemon
SUB=$(make_key submit alice)

sample_patch >"$TMP/p.patch"
body=$(api POST "/api/v1/patches?runs=3&title=tag+test" "$SUB" "@$TMP/p.patch")
expect_status 201 "submit patch"
id=$(jq -r .id <<<"$body")
check "$(jq -r .url <<<"$body")" = "/api/v1/experiments/$id" "url of the experiment"
pid=$(jq -r '.patches[0].id' <<<"$body")

exp=$(api GET "/api/v1/experiments/$id" "$SUB")
expect_status 200 "get experiment"
check "$(jq -r .state <<<"$exp")" = queued "new experiment is queued"
check "$(jq -r .title <<<"$exp")" = "tag test" "title from the query"
check "$(jq -r .submitter <<<"$exp")" = alice "submitter key name"
check "$(jq '.variants | length' <<<"$exp")" -eq 2 "two variants"
check "$(jq -r '.variants[0].name + "/" + (.variants[0].is_control | tostring)' <<<"$exp")" = "base/true" "control is the base"
check "$(jq '.variants[0].patches | length' <<<"$exp")" -eq 0 "control has no patch"
check "$(jq -r '.variants[1].patches[0].subject' <<<"$exp")" = "block: avoid clearing the tag on the fast path" "subject parsed"
check "$(jq -r '.variants[1].patches[0].author' <<<"$exp")" = "Jens Axboe <axboe@kernel.dk>" "author parsed"
check "$(jq -r '.variants[1].patches[0].message_id' <<<"$exp")" = "<20210323.tag@kernel.dk>" "message id parsed"
check "$(jq -r '.variants[1].patches[0].files[0].new_path' <<<"$exp")" = "block/blk-mq-tag.c" "file touched"
check "$(jq '.jobs | length' <<<"$exp")" -eq 6 "3 runs x 2 variants = 6 jobs"

# Raw text kept verbatim, sha256 of it.
api GET "/api/v1/patches/$pid?format=raw" "$SUB" >"$TMP/raw"
expect_status 200 "raw patch"
cmp -s "$TMP/raw" "$TMP/p.patch" || fail "raw patch differs from the submitted text"
sha=$(sha256sum "$TMP/p.patch" | cut -d' ' -f1)
check "$(api GET "/api/v1/patches/$pid" "$SUB" | jq -r .sha256)" = "$sha" "sha256 of the raw text"

# The same patch again: a new experiment, the stored patch reused.
body=$(api POST "/api/v1/patches" "$SUB" "@$TMP/p.patch")
expect_status 201 "submit again"
check "$(jq -r '.patches[0].id' <<<"$body")" = "$pid" "patch deduplicated by sha256"
check "$(sql 'SELECT count(*) FROM experiments')" -eq 2 "two experiments"

# Not a patch.
body=$(api POST /api/v1/patches "$SUB" "this is not a patch")
expect_status 400 "non-patch body"
jq -e '.error | test("patch")' <<<"$body" >/dev/null || fail "400 without a reason: $body"
api POST /api/v1/patches "$SUB" "" >/dev/null
expect_status 400 "empty body"
api POST "/api/v1/patches?base=nope" "$SUB" "@$TMP/p.patch" >/dev/null
expect_status 422 "unknown base"
api POST "/api/v1/patches?runs=0" "$SUB" "@$TMP/p.patch" >/dev/null
expect_status 400 "runs out of range"
check "$(sql 'SELECT count(*) FROM experiments')" -eq 2 "rejected submissions stored nothing"
echo "ok"
