#!/bin/sh
# Dashboard page speed in headless Chromium against a real perflabd.
# Prints figures (median of REPS loads); see bench/web-speed.js.
cd "$(dirname "$0")/.." || exit 1
node bench/web-speed.js "$@"
rc=$?
# 77: Chromium or perflabd unavailable (the reason was printed): no figures.
[ $rc -eq 77 ] && exit 0
exit $rc
