#!/usr/bin/env bash
# Crawl into SQLite and into PostgreSQL side by side (issue 24's crawl targets), interleaved in one run:
#   - one crawl of $POSTS posts from `fixture-api --latency-ms 0` into a new SQLite file and into a new PostgreSQL
#     database, $RUNS times each, alternating;
#   - two crawlers of different boards (--board) of one PostgreSQL archive, one after the other and then at once, at
#     $LATENCY_MS ms latency.
# Needs a release build (BIN) and a PostgreSQL server (the variables scripts/postgres-server.sh writes, sourced).
#   BIN=.build/release/boardarchive POSTS=100000 Benchmarks/postgres-crawl.sh
set -euo pipefail
BIN="${BIN:-.build/release/boardarchive}"
POSTS="${POSTS:-100000}"
BOARDS="${BOARDS:-20}"
RUNS="${RUNS:-3}"
LATENCY_MS="${LATENCY_MS:-20}"
OUT="${OUT:-/tmp/boardarchive-pg-crawl}"
: "${BOARDARCHIVE_TEST_POSTGRES_URL:?source the file scripts/postgres-server.sh start wrote}"
PGPASSWORD="$(cat "$BOARDARCHIVE_TEST_POSTGRES_PASSWORD_FILE")"
export PGPASSWORD PGPASSFILE=/dev/null BOARD_API_TOKEN=bench
base="${BOARDARCHIVE_TEST_POSTGRES_URL%/*}"
hostport="${base#postgres://archiver@}"
psql_admin() { psql -X -q -h "${hostport%:*}" -p "${hostport#*:}" -U archiver -d archive_test -c "$1"; }

rm -rf "$OUT" && mkdir -p "$OUT"
"$BIN" bench-data --posts "$POSTS" --boards "$BOARDS" --seed 42 --store "$OUT/source.sqlite" --fixture-json "$OUT/fixture.json" >&2

serve() { # serve LATENCY → sets api and server
    "$BIN" fixture-api --data "$OUT/fixture.json" --latency-ms "$1" --port 0 >"$OUT/server.log" 2>&1 &
    server=$!
    for _ in $(seq 600); do grep -q "listening on" "$OUT/server.log" && break; sleep 0.2; done
    api="$(grep -o 'http://[^ ]*' "$OUT/server.log" | head -1)"
}
seconds() { /usr/bin/time -f %e -o "$OUT/t" "$@" >"$OUT/log" 2>&1 || { tail -5 "$OUT/log" >&2; exit 1; }; cat "$OUT/t"; }

serve 0
for run in $(seq "$RUNS"); do
    rm -f "$OUT"/crawl.sqlite*
    s=$(seconds "$BIN" crawl --api "$api" --store "$OUT/crawl.sqlite")
    psql_admin "DROP DATABASE IF EXISTS bench_crawl WITH (FORCE)" && psql_admin "CREATE DATABASE bench_crawl"
    p=$(seconds "$BIN" crawl --api "$api" --store "$base/bench_crawl")
    echo "crawl $POSTS posts, 0 ms, run $run: sqlite $s s, postgres $p s"
done
kill "$server"; wait "$server" 2>/dev/null || true

# Two crawlers of different boards (alternate boards of the list each), one after the other and then at once.
ids=$(sqlite3 "$OUT/source.sqlite" "SELECT boardId FROM board ORDER BY boardId")
first=(); second=(); n=0
for id in $ids; do if [ $((n % 2)) -eq 0 ]; then first+=(--board "$id"); else second+=(--board "$id"); fi; n=$((n + 1)); done
serve "$LATENCY_MS"
for run in $(seq "$RUNS"); do
    psql_admin "DROP DATABASE IF EXISTS bench_one WITH (FORCE)" && psql_admin "CREATE DATABASE bench_one"
    a=$(seconds "$BIN" crawl --api "$api" --store "$base/bench_one" "${first[@]}")
    b=$(seconds "$BIN" crawl --api "$api" --store "$base/bench_one" "${second[@]}")
    psql_admin "DROP DATABASE IF EXISTS bench_two WITH (FORCE)" && psql_admin "CREATE DATABASE bench_two"
    start=$(date +%s.%N)
    "$BIN" crawl --api "$api" --store "$base/bench_two" "${first[@]}" >"$OUT/a.log" 2>&1 &
    pa=$!
    "$BIN" crawl --api "$api" --store "$base/bench_two" "${second[@]}" >"$OUT/b.log" 2>&1 &
    pb=$!
    wait $pa && wait $pb
    both=$(echo "$(date +%s.%N) - $start" | bc)
    echo "crawl $POSTS posts, $LATENCY_MS ms, run $run: two crawlers of different boards one after the other $a + $b s, at once $both s"
done
kill "$server"; wait "$server" 2>/dev/null || true
