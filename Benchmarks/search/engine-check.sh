#!/usr/bin/env bash
# The browser's search engine against the Swift oracle: exports a generated index with its queries and the oracle's
# answers (SearchExportTests), runs templates/assets/search.js on them under Node (engine-check.js) and compares every
# answer. Run by ./test.sh after the Swift tests (which it expects built).
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v node >/dev/null; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs >/dev/null
fi
folder="$(mktemp -d)"
trap 'rm -rf "$folder"' EXIT
BOARDARCHIVE_SEARCH_EXPORT="$folder" swift test --skip-build --filter SearchExportTests >"$folder/export.log" 2>&1 || { cat "$folder/export.log"; exit 1; }
node Benchmarks/search/engine-check.js "$folder/site" "$folder/queries.json" >"$folder/actual.json"
python3 - "$folder/expected.json" "$folder/first-runs.json" "$folder/actual.json" <<'PY'
import json, sys
expected = json.load(open(sys.argv[1]))
expected_first = json.load(open(sys.argv[2]))
actual = json.load(open(sys.argv[3]))
answers, first = actual["answers"], actual["firstRuns"]
queries = len(expected)
wrong = [i for i, (e, a) in enumerate(zip(expected, answers)) if e != a]
if len(answers) != queries or wrong:
    print(f"engine check: {len(wrong)} of {queries} answers differ from the oracle (first: {wrong[:5]}); {len(answers)} answers", file=sys.stderr)
    sys.exit(1)
# A first run on a cold index reads the same files as the oracle's (SearchIndexReader) and pauses where it does:
# fetching ahead may change when files load, never what the byte budget counts.
reads = [i for i, (e, a) in enumerate(zip(expected_first, first)) if sorted(e["read"]) != a["read"] or e["paused"] != a["paused"]]
if len(first) != queries or reads:
    i = reads[0] if reads else 0
    print(f"engine check: {len(reads)} of {queries} first runs read other files than the oracle's or pause elsewhere "
          f"(first: query {i}: oracle {expected_first[i]}, search.js {first[i] if i < len(first) else None})", file=sys.stderr)
    sys.exit(1)
read = sum(len(a["read"]) for a in first)
unread = sum(a["unread"] for a in first)
print(f"engine check: search.js under Node equals the Swift oracle on all {queries} queries, and reads the same "
      f"files in each first run ({read} in all; {unread} more fetched ahead and not read)")
PY
