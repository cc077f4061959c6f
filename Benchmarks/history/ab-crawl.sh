#!/bin/bash
# Issue 27: an unchanged nightly crawl, before (A) and after (B), against one fixture API on loopback.
# A=old-binary B=new-binary [POSTS=50000] [WORK=/dev/shm/ab27crawl] Benchmarks/history/ab-crawl.sh
set -euo pipefail
WORK=${WORK:-/dev/shm/ab27crawl}; mkdir -p "$WORK" && cd "$WORK"
: "${A:?old binary}" "${B:?new binary}"
rm -rf crawl; mkdir crawl
$B bench-data --posts ${POSTS:-50000} --boards 20 --seed 42 --store crawl/source.sqlite --fixture-json crawl/fixture.json >/dev/null
$B fixture-api --data crawl/fixture.json --keep-dates --port 0 > crawl/server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 300); do grep -q "listening on" crawl/server.log && break; sleep 0.2; done
api=$(grep -o 'http://[^ ]*' crawl/server.log | head -1)
for side in A B; do
  bin=${!side}
  BOARD_API_TOKEN=bench $bin crawl --api $api --store crawl/$side.sqlite --concurrency 8 >/dev/null 2>&1
done
for r in 1 2 3; do
  for side in A B; do
    bin=${!side}
    BOARD_API_TOKEN=bench /usr/bin/time -f "$side nightly %e s %U u %M KB" $bin crawl --api $api --store crawl/$side.sqlite --concurrency 8 2>&1 >/dev/null | grep -a "nightly\|Crawled" | tail -1
  done
done
