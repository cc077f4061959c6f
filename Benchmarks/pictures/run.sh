#!/bin/bash
# Issue 28: what pictures cost, on one generated archive served by the fixture API on loopback.
#   - the first crawl with pictures against the same crawl with --media off: the extra time, and its floor
#     (pictures × latency ÷ concurrency);
#   - an unchanged nightly crawl: the picture requests it makes (0 expected);
#   - the full build of the archive with its pictures kept against the same archive crawled with --media off,
#     interleaved ROUNDS times (release binary, output on WORK).
# [POSTS=100000] [SHARE=0.1] [LATENCY=20] [CONCURRENCY=4] [ROUNDS=3] [WORK=/dev/shm/bench-pictures]
# [BIN=.build/release/boardarchive] Benchmarks/pictures/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=$(realpath "${BIN:-.build/release/boardarchive}")
POSTS=${POSTS:-100000}; SHARE=${SHARE:-0.1}; LATENCY=${LATENCY:-20}; CONCURRENCY=${CONCURRENCY:-4}; ROUNDS=${ROUNDS:-3}
WORK=${WORK:-/dev/shm/bench-pictures}
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
export BOARD_API_TOKEN=bench
"$BIN" bench-data --posts "$POSTS" --boards 20 --seed 42 --image-share "$SHARE" --store source.sqlite --fixture-json fixture.json >/dev/null
"$BIN" fixture-api --data fixture.json --keep-dates --port 0 --media-latency "$LATENCY" > server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 600); do grep -q "listening on" server.log && break; sleep 0.2; done
api=$(grep -o 'http://[^ ]*' server.log | head -1)
crawl() { # store, extra arguments...; prints "seconds json-summary"
  local store=$1; shift
  local start end
  start=$(date +%s.%N)
  "$BIN" crawl --api "$api" --store "$store" --concurrency "$CONCURRENCY" --json-logs "$@" 2>/dev/null | grep '"crawl summary"' > "$store.json" || true
  end=$(date +%s.%N)
  python3 -c "print($end - $start)"
}
off=$(crawl off.sqlite --media off)
on=$(crawl on.sqlite)
python3 - "$off" "$on" "$LATENCY" "$CONCURRENCY" on.sqlite.json <<'PY'
import json, sys
off, on, latency, concurrency = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
summary = json.loads(open(sys.argv[5]).read().splitlines()[-1])
pictures = summary["pictures"]
floor = pictures["requests"] * latency / 1000 / concurrency
print(f"first crawl: media off {off:.1f} s, on {on:.1f} s, extra {on - off:.1f} s for {pictures['kept']} pictures kept "
      f"({pictures['requests']} requests, {pictures['bytes']} bytes, {pictures['notKept']} not kept); "
      f"floor {floor:.1f} s (requests × {latency:.0f} ms ÷ {concurrency:.0f}); ratio {(on - off) / floor if floor else 0:.2f}")
PY
again=$(crawl on.sqlite)
python3 - "$again" on.sqlite.json <<'PY'
import json, sys
summary = json.loads(open(sys.argv[2]).read().splitlines()[-1])
print(f"unchanged crawl: {float(sys.argv[1]):.1f} s, {summary['pictures']['requests']} picture requests, {summary['requests']} API requests")
PY
for round in $(seq "$ROUNDS"); do
  for side in off on; do
    rm -rf "site-$side" "site-$side.boardarchive-state"
    /usr/bin/time -f "build $side round $round: %e s, %M KB" "$BIN" build --store "$side.sqlite" --out "site-$side" \
      --timezone Asia/Seoul 2>&1 >/dev/null | grep -a "^build" || true
  done
done
echo "files: off $(find site-off -type f | wc -l), on $(find site-on -type f | wc -l), pictures $(find site-on/media -type f | wc -l)"
