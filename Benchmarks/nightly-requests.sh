#!/usr/bin/env bash
# Requests per nightly crawl run against `boardarchive fixture-api` serving a bench-data dataset:
# an unchanged source, 1 % new posts, and --full, at page sizes 30 and 1000, with the rota off and at its default.
# Usage: Benchmarks/nightly-requests.sh [POSTS]   (default 100000; needs a built boardarchive, debug is fine)
set -euo pipefail
posts="${1:-100000}"
bin="${BOARDARCHIVE:-.build/debug/boardarchive}"
work="$(mktemp -d)"
stop() { if [ -n "${server:-}" ]; then kill -INT "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi; }
trap 'stop; rm -rf "$work"' EXIT
export BOARD_API_TOKEN=bench

"$bin" bench-data --posts "$posts" --boards 20 --seed 42 --store "$work/bench.sqlite" --fixture-json "$work/data.json" >/dev/null
echo "Dataset: bench-data --posts $posts --boards 20 --seed 42 --fixture-json; fixture-api --data … --keep-dates [--new-posts N]" >&2
onepercent=$((posts / 100))

# Starts fixture-api on the dataset plus $1 new posts (dates as written, so restarts serve the same posts).
serve() {
    stop
    rm -f "$work/url"
    "$bin" fixture-api --data "$work/data.json" --keep-dates --new-posts "$1" >"$work/url" &
    server=$!
    until grep -q http "$work/url" 2>/dev/null; do sleep 0.2; done
    api="$(grep -o 'http://[^ ]*' "$work/url")"
}

# Crawls into $store with the given options and prints the request count of its summary line.
crawl() {
    "$bin" crawl --api "$api" --store "$store" "$@" | sed -n 's/.* \([0-9]*\) requests,.*/\1/p'
}

echo "| page size | rota | first crawl | unchanged | 1 % new ($onepercent posts) | --full |"
echo "|---:|---|---:|---:|---:|---:|"
for size in 30 1000; do
    for rota in 0 1/7; do
        store="$work/archive-$size-${rota/\//-}.sqlite"
        serve 0
        first=$(crawl --page-size "$size" --verify-fraction "$rota")
        unchanged=$(crawl --page-size "$size" --verify-fraction "$rota")
        serve "$onepercent"
        new=$(crawl --page-size "$size" --verify-fraction "$rota")
        full=$(crawl --page-size "$size" --verify-fraction "$rota" --full)
        echo "| $size | $([ "$rota" = 0 ] && echo off || echo "$rota") | $first | $unchanged | $new | $full |"
    done
done
