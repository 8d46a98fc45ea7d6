# Sourced by the CLI tests: write_patch FILE SUBJECT writes a small
# git format-patch style patch against the base tree.
write_patch() {
	cat >"$1" <<EOT
From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001
From: Test Author <test@example.com>
Date: Sun, 29 Nov 2026 20:00:00 +0000
Subject: [PATCH] $2

A test patch for the CLI tests.
---
 block/blk-mq-tag.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/block/blk-mq-tag.c b/block/blk-mq-tag.c
--- a/block/blk-mq-tag.c
+++ b/block/blk-mq-tag.c
@@ -1,3 +1,4 @@
 // SPDX-License-Identifier: GPL-2.0
+/* $2 */
 /*
  * Tag allocation using scalable bitmaps. Uses active queue tracking to support
-- 
2.39.2

EOT
}
