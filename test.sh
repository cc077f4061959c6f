#!/usr/bin/env bash
# Quick start, 2 of 2: every test: Swift unit, golden, pipeline and end-to-end tests, then real-browser tests.
set -euo pipefail
cd "$(dirname "$0")"
scripts/bootstrap.sh --browser --postgres
swift format lint --recursive --strict Sources Tests Package.swift
swift build --build-tests
# A throwaway PostgreSQL server for the store tests (never skipped: without it they fail), stopped on every exit.
postgres_env=$(mktemp /tmp/boardarchive-pg-env.XXXXXX)
trap 'scripts/postgres-server.sh stop "$postgres_env"' EXIT
scripts/postgres-server.sh start "$postgres_env"
# shellcheck disable=SC1090
. "$postgres_env"
swift test --skip-build
Benchmarks/search/engine-check.sh
.venv/bin/python -m pytest -q Tests/Browser
