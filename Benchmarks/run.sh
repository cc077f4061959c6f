#!/usr/bin/env bash
# BoardArchive's benchmark suite (issue 7): full builds against Hugo, rebuilds, crawl and search, on deterministic
# benchmark archives (`boardarchive bench-data`). Release build; not part of `swift test`.
#
#   Benchmarks/run.sh            # sizes $SIZES (default 10k, 100k, 1M); writes Benchmarks/RESULTS.md
#   Benchmarks/run.sh --smoke    # 10k only: full build, Hugo, nothing-changed and 10-edits rebuilds; no crawl, no
#                                # browser; writes bench-out/RESULTS.md (never the committed Benchmarks/RESULTS.md)
#   SIZES="10000 100000" Benchmarks/run.sh
#
# For every size N: `bench-data --posts N --boards $BOARDS --seed $SEED --now $NOW` writes bench-out/N/store.sqlite;
# `boardarchive build --now $NOW --timezone Asia/Seoul` (default options, keyword pages included) builds it under
# `/usr/bin/time -f '%e %M'` (seconds, peak RSS); Hugo builds the same posts (N ≤ $HUGO_MAX_POSTS, since Hugo holds
# every page in memory: ~3 GB at 100k, ~30 GB projected at 1M). From N ≥ $REBUILD_MIN_POSTS: on a copy of the site
# and store, rebuilds with nothing changed, 1 % new posts, 10 edits, 10 gone and the clock a day later. Search
# (N ≥ $SEARCH_MIN_POSTS) times search.html in headless Chromium. The crawl generates $CRAWL_POSTS posts as a
# fixture dataset and crawls it from `fixture-api --latency-ms $CRAWL_LATENCY_MS` at concurrency 4 and 16.
#
# A night of 1 % new posts and 10 edits on one board (issue 26): BOARDS=1 SIZES=100000 SCENARIOS=night CRAWL_POSTS=0.
# On tmpfs (OUT=/dev/shm/…), every hard link of the rebuild copies counts against the inode limit: at 1M posts (2 M
# files) raise it first, e.g. `mount -o remount,nr_inodes=12000000 /dev/shm`.
# Knobs (environment): SIZES, SEED (42), BOARDS (20), SCENARIOS (nothing new1pct edit10 gone10 nextday; also night), NOW (2026-01-15T12:00:00Z), HUGO_MAX_POSTS (100000),
# REBUILD_MIN_POSTS (100000), SEARCH_MIN_POSTS (100000), CRAWL_POSTS (100000, 0 to skip), CRAWL_LATENCY_MS (20),
# OUT (bench-out), RESULTS (Benchmarks/RESULTS.md; bench-out/RESULTS.md for --smoke), KEEP (1 keeps rebuild copies).
# Needs: swift, python3, hugo and GNU time (scripts/bootstrap.sh --bench), and for search chromium, chromium-driver
# and .venv with selenium (scripts/bootstrap.sh --browser).
set -euo pipefail
cd "$(dirname "$0")/.."

SMOKE=0
if [ "${1:-}" = "--smoke" ]; then SMOKE=1; elif [ -n "${1:-}" ]; then echo "usage: Benchmarks/run.sh [--smoke]" >&2; exit 64; fi
COMMAND="Benchmarks/run.sh${1:+ $1}"
if [ -n "${OUT:-}" ]; then COMMAND="OUT=$OUT $COMMAND"; fi
# The other knobs given, so that RESULTS.md names the run exactly.
for knob in BOARDS SCENARIOS CRAWL_POSTS SEARCH_MIN_POSTS HUGO_MAX_POSTS REBUILD_MIN_POSTS; do
    if [ -n "${!knob:-}" ]; then COMMAND="$knob=\"${!knob}\" $COMMAND"; fi
done
OUT="${OUT:-bench-out}"
SEED="${SEED:-42}"
BOARDS="${BOARDS:-20}"
NOW="${NOW:-2026-01-15T12:00:00Z}"
HUGO_MAX_POSTS="${HUGO_MAX_POSTS:-100000}"
REBUILD_MIN_POSTS="${REBUILD_MIN_POSTS:-100000}"
SEARCH_MIN_POSTS="${SEARCH_MIN_POSTS:-100000}"
CRAWL_POSTS="${CRAWL_POSTS:-100000}"
CRAWL_LATENCY_MS="${CRAWL_LATENCY_MS:-20}"
KEEP="${KEEP:-0}"
PYTHON="${PYTHON:-.venv/bin/python}"
if [ "$SMOKE" = 1 ]; then
    SIZES=10000
    SCENARIOS="nothing edit10"
    REBUILD_MIN_POSTS=0
    CRAWL_POSTS=0
    SEARCH_MIN_POSTS=-1
    RESULTS="${RESULTS:-$OUT/RESULTS.md}"
else
    SIZES="${SIZES:-10000 100000 1000000}"
    SCENARIOS="${SCENARIOS:-nothing new1pct edit10 gone10 nextday}"
    RESULTS="${RESULTS:-Benchmarks/RESULTS.md}"
    COMMAND="SIZES=\"$SIZES\" $COMMAND"
fi
NEXT_DAY="$(python3 -c 'import sys, datetime as d; t = d.datetime.fromisoformat(sys.argv[1].replace("Z", "+00:00")); print((t + d.timedelta(days=1)).isoformat().replace("+00:00", "Z"))' "$NOW")"

if [ "$SMOKE" = 1 ]; then scripts/bootstrap.sh --bench; else scripts/bootstrap.sh --bench --browser; fi
echo "Building boardarchive (release)…" >&2
swift build -c release --product boardarchive >&2
# Pin the binary and the templates for the whole run: the shared .build and templates/ may change while it runs.
mkdir -p "$OUT/snapshot"
rm -rf "$OUT/snapshot/templates"
cp "$(swift build -c release --show-bin-path)/boardarchive" "$OUT/snapshot/boardarchive"
cp -R templates "$OUT/snapshot/templates"
BIN="$OUT/snapshot/boardarchive"
LOG="$OUT/results.jsonl"
: >"$LOG"
TIME=(/usr/bin/time -f '%e %M')
bench() { python3 Benchmarks/bench.py "$1" --results "$LOG" "${@:2}"; }

# build DIR STORE NOW TIMEFILE LOGFILE: one `boardarchive build` with the suite's options (default options; the
# templates are the run's snapshot of ./templates), timed.
build() {
    if ! "${TIME[@]}" -o "$4" "$BIN" build --store "$2" --out "$1" --now "$3" --timezone Asia/Seoul --templates "$OUT/snapshot/templates" \
        >"$5" 2>&1; then
        tail -20 "$5" >&2
        echo "boardarchive build failed; log: $5" >&2
        exit 1
    fi
}

for posts in $SIZES; do
    dir="$OUT/$posts"
    mkdir -p "$dir/logs"
    echo "== $posts posts" >&2
    "${TIME[@]}" -o "$dir/logs/generate.time" "$BIN" bench-data --posts "$posts" --boards "$BOARDS" --seed "$SEED" --now "$NOW" \
        --store "$dir/store.sqlite" --replace >"$dir/logs/generate.log"
    bench generate --posts "$posts" --time "$dir/logs/generate.time" --store "$dir/store.sqlite"

    rm -rf "$dir/site" "$dir/site.boardarchive-state"
    build "$dir/site" "$dir/store.sqlite" "$NOW" "$dir/logs/full.time" "$dir/logs/full.log"
    bench build --tool boardarchive --posts "$posts" --scenario full --time "$dir/logs/full.time" --log "$dir/logs/full.log" --site "$dir/site"

    if [ "$posts" -le "$HUGO_MAX_POSTS" ]; then
        python3 Benchmarks/hugo/export_content.py --store "$dir/store.sqlite" --out "$dir/hugo"
        "${TIME[@]}" -o "$dir/logs/hugo.time" hugo --quiet --source "$dir/hugo" --destination public >"$dir/logs/hugo.log" 2>&1 \
            || { tail -20 "$dir/logs/hugo.log" >&2; exit 1; }
        bench build --tool hugo --posts "$posts" --scenario full --time "$dir/logs/hugo.time" --log "$dir/logs/hugo.log" \
            --site "$dir/hugo/public"
        [ "$KEEP" = 1 ] || rm -rf "$dir/hugo"
    else
        bench skip --posts "$posts" --what Hugo \
            --reason "Hugo holds every page in memory (about 3 GB at 100k posts, about 30 GB projected at 1M); above HUGO_MAX_POSTS=$HUGO_MAX_POSTS"
    fi

    if [ "$posts" -ge "$SEARCH_MIN_POSTS" ] && [ "$SEARCH_MIN_POSTS" -ge 0 ]; then
        "$PYTHON" Benchmarks/search/browser_timing.py --site "$dir/site" --json "$dir/logs/search.json"
        bench search --posts "$posts" --json "$dir/logs/search.json"
    fi

    if [ "$posts" -ge "$REBUILD_MIN_POSTS" ]; then
        copy="$dir/rebuild"
        rm -rf "$copy"
        mkdir -p "$copy"
        # Hard links keep the marker's inode, which the build state records (a plain copy would be a new site and
        # build in full); builds never write into a file in place, so the full build's site is not changed.
        cp -al "$dir/site" "$copy/site"
        cp -a "$dir/site.boardarchive-state" "$copy/site.boardarchive-state"
        cp -a "$dir"/store.sqlite* "$copy/"
        for scenario in $SCENARIOS; do
            clock="$NOW"
            case "$scenario" in
                new1pct) "$BIN" bench-data --store "$copy/store.sqlite" --mutate new --count $((posts / 100)) --seed "$SEED" --now "$NOW" >&2 ;;
                edit10) "$BIN" bench-data --store "$copy/store.sqlite" --mutate edit --count 10 --seed "$SEED" --now "$NOW" >&2 ;;
                gone10) "$BIN" bench-data --store "$copy/store.sqlite" --mutate gone --count 10 --seed "$SEED" --now "$NOW" >&2 ;;
                nextday) clock="$NEXT_DAY" ;;
                night)
                    "$BIN" bench-data --store "$copy/store.sqlite" --mutate new --count $((posts / 100)) --seed "$SEED" --now "$NOW" >&2
                    "$BIN" bench-data --store "$copy/store.sqlite" --mutate edit --count 10 --seed "$SEED" --now "$NOW" >&2
                    ;;
            esac
            build "$copy/site" "$copy/store.sqlite" "$clock" "$dir/logs/$scenario.time" "$dir/logs/$scenario.log"
            bench build --tool boardarchive --posts "$posts" --scenario "$scenario" --time "$dir/logs/$scenario.time" \
                --log "$dir/logs/$scenario.log" --site "$copy/site"
        done
        [ "$KEEP" = 1 ] || rm -rf "$copy"
    fi
done

if [ "$CRAWL_POSTS" -gt 0 ]; then
    dir="$OUT/crawl"
    rm -rf "$dir"
    mkdir -p "$dir"
    echo "== crawl of $CRAWL_POSTS posts at ${CRAWL_LATENCY_MS} ms latency" >&2
    "$BIN" bench-data --posts "$CRAWL_POSTS" --boards "$BOARDS" --seed "$SEED" --now "$NOW" --store "$dir/source.sqlite" \
        --fixture-json "$dir/fixture.json" >&2
    "$BIN" fixture-api --data "$dir/fixture.json" --latency-ms "$CRAWL_LATENCY_MS" --port 0 >"$dir/server.log" 2>&1 &
    server=$!
    trap 'kill "$server" 2>/dev/null || true' EXIT
    for _ in $(seq 600); do
        grep -q "listening on" "$dir/server.log" && break
        kill -0 "$server" 2>/dev/null || { cat "$dir/server.log" >&2; exit 1; }
        sleep 0.2
    done
    api="$(grep -o 'http://[^ ]*' "$dir/server.log" | head -1)"
    for concurrency in 4 16; do
        BOARD_API_TOKEN=bench "${TIME[@]}" -o "$dir/c$concurrency.time" "$BIN" crawl --api "$api" --store "$dir/c$concurrency.sqlite" \
            --concurrency "$concurrency" >"$dir/c$concurrency.log" 2>&1 || { tail -20 "$dir/c$concurrency.log" >&2; exit 1; }
        bench crawl --posts "$CRAWL_POSTS" --concurrency "$concurrency" --latency-ms "$CRAWL_LATENCY_MS" --time "$dir/c$concurrency.time" \
            --log "$dir/c$concurrency.log" --source "$dir/source.sqlite" --page-size 30
    done
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    trap - EXIT
fi

bench report --out "$RESULTS" --command-line "$COMMAND"
echo "Wrote $RESULTS" >&2
cat "$RESULTS"
