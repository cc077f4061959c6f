#!/usr/bin/env bash
# Build from SQLite and from PostgreSQL side by side (issue 24's build targets), interleaved in one run: the
# $POSTS-post benchmark archive (`bench-data --seed 42`) and its `store copy` in a new PostgreSQL database, then $RUNS
# times: a full build from each and a rebuild with nothing changed from each, the sites on tmpfs ($OUT), compared
# byte for byte at the end.
# Needs a release build (BIN) and a PostgreSQL server (the variables scripts/postgres-server.sh writes, sourced).
#   BIN=.build/release/boardarchive POSTS=100000 Benchmarks/postgres-build.sh
set -euo pipefail
BIN="${BIN:-.build/release/boardarchive}"
POSTS="${POSTS:-100000}"
BOARDS="${BOARDS:-20}"
RUNS="${RUNS:-3}"
OUT="${OUT:-/dev/shm/boardarchive-pg-build}"
: "${BOARDARCHIVE_TEST_POSTGRES_URL:?source the file scripts/postgres-server.sh start wrote}"
PGPASSWORD="$(cat "$BOARDARCHIVE_TEST_POSTGRES_PASSWORD_FILE")"
export PGPASSWORD PGPASSFILE=/dev/null
base="${BOARDARCHIVE_TEST_POSTGRES_URL%/*}"
hostport="${base#postgres://archiver@}"
psql_admin() { psql -X -q -h "${hostport%:*}" -p "${hostport#*:}" -U archiver -d archive_test -c "$1"; }

rm -rf "$OUT" && mkdir -p "$OUT"
"$BIN" bench-data --posts "$POSTS" --boards "$BOARDS" --seed 42 --store "$OUT/store.sqlite" >&2
psql_admin "DROP DATABASE IF EXISTS bench_build WITH (FORCE)" && psql_admin "CREATE DATABASE bench_build"
seconds() { /usr/bin/time -f %e -o "$OUT/t" "$@" >"$OUT/log" 2>&1 || { tail -5 "$OUT/log" >&2; exit 1; }; cat "$OUT/t"; }
echo "store copy SQLite -> PostgreSQL, compare included: $(seconds "$BIN" store copy --from "$OUT/store.sqlite" --to "$base/bench_build") s"
clock=(--now 2026-11-22T09:00:00+09:00 --timezone Asia/Seoul)
for run in $(seq "$RUNS"); do
    rm -rf "$OUT/site-sqlite" "$OUT/site-postgres"
    s=$(seconds "$BIN" build --store "$OUT/store.sqlite" --out "$OUT/site-sqlite" "${clock[@]}")
    p=$(seconds "$BIN" build --store "$base/bench_build" --out "$OUT/site-postgres" "${clock[@]}")
    sr=$(seconds "$BIN" build --store "$OUT/store.sqlite" --out "$OUT/site-sqlite" "${clock[@]}")
    pr=$(seconds "$BIN" build --store "$base/bench_build" --out "$OUT/site-postgres" "${clock[@]}")
    echo "build $POSTS posts, run $run: full sqlite $s s, postgres $p s ($(echo "scale=2; $p / $s" | bc)x); nothing changed sqlite $sr s, postgres $pr s"
done
if diff -r "$OUT/site-sqlite" "$OUT/site-postgres" >/dev/null; then echo "the two sites are identical"; else echo "THE SITES DIFFER"; exit 1; fi
