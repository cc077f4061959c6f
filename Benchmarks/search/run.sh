#!/usr/bin/env bash
# Search index benchmark: size on disk, number of files, bytes loaded and time of a first and a later query,
# on generated archives of 10,000 and 100,000 posts (FixtureDataset.generated, 10 boards, seed 42).
#
#   Benchmarks/search/run.sh            # writes bench-out/search/<N>/ and Benchmarks/search/RESULTS.md
#   SIZES="10000" Benchmarks/search/run.sh
#
# Index files and the Swift reader's byte counts come from SearchSiteExportTests (an env-gated test that runs the
# SearchPhase on the generated posts); times come from Debian's headless Chromium opening search.html over file://
# (browser_timing.py, Selenium). Needs: swift, chromium, chromium-driver, and .venv with selenium.
# The full benchmark suite (Benchmarks/run.sh) times search on the sites it builds with `boardarchive build`, through
# browser_timing.py --site DIR --json FILE (same queries, same measurements).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-bench-out/search}"
SIZES="${SIZES:-10000 100000}"
PYTHON="${PYTHON:-.venv/bin/python}"

swift build --build-tests >/dev/null
for posts in $SIZES; do
  site="$OUT/$posts/site"
  rm -rf "$OUT/$posts"
  mkdir -p "$site"
  start=$(date +%s.%N)
  BOARDARCHIVE_SEARCH_SITE="$site" BOARDARCHIVE_SEARCH_POSTS="$posts" BOARDARCHIVE_SEARCH_TOP=0 \
    swift test --skip-build --filter 'SearchSiteExportTests' >"$OUT/$posts/export.log" 2>&1 || { cat "$OUT/$posts/export.log"; exit 1; }
  end=$(date +%s.%N)
  echo "$posts posts: index written in $(echo "$end - $start" | bc) s (debug build, includes test start-up)" >&2
done
"$PYTHON" Benchmarks/search/browser_timing.py "$OUT" $SIZES > Benchmarks/search/RESULTS.md
cat Benchmarks/search/RESULTS.md
