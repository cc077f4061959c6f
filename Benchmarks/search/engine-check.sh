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
python3 - "$folder/expected.json" "$folder/actual.json" <<'PY'
import json, sys
expected = json.load(open(sys.argv[1]))
actual = json.load(open(sys.argv[2]))
queries = len(expected)
wrong = [i for i, (e, a) in enumerate(zip(expected, actual)) if e != a]
if len(actual) != queries or wrong:
    print(f"engine check: {len(wrong)} of {queries} answers differ from the oracle (first: {wrong[:5]}); {len(actual)} answers", file=sys.stderr)
    sys.exit(1)
print(f"engine check: search.js under Node equals the Swift oracle on all {queries} queries")
PY
