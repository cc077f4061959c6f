#!/usr/bin/env bash
# Quick start, 1 of 2: export the bundled demo board (served by the in-process fixture API) into site/.
set -euo pipefail
cd "$(dirname "$0")"
scripts/bootstrap.sh
swift build --product boardarchive
.build/debug/boardarchive demo "$@"
