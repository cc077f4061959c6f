#!/bin/bash
# Issue 27: a full build and a night at 100k posts on one board, before (A) and after (B), interleaved.
# A=old-binary TA=old-templates-folder B=new-binary [WORK=/dev/shm/ab27] [ROUNDS="1 2 3 4"] Benchmarks/history/ab-build.sh
set -euo pipefail
WORK=${WORK:-/dev/shm/ab27}; NOW=2026-01-15T12:00:00Z
TB=${TB:-$(cd "$(dirname "$0")/../.." && pwd)/templates}
mkdir -p "$WORK" && cd "$WORK"
for side in A B; do
  bin=${!side}
  [ -f base-$side.sqlite ] && continue
  "$bin" bench-data --posts 100000 --boards 1 --seed 42 --store base-$side.sqlite >/dev/null
  cp base-$side.sqlite night-$side.sqlite
  "$bin" bench-data --store night-$side.sqlite --mutate new --count 1000 --seed 42 --now $NOW >/dev/null
  "$bin" bench-data --store night-$side.sqlite --mutate edit --count 10 --seed 42 --now $NOW >/dev/null
done
for r in ${ROUNDS:-1 2 3 4}; do
  for side in A B; do
    bin=${!side}; tpl=$TB; [ $side = A ] && tpl=$TA
    rm -rf $side; mkdir $side; cp base-$side.sqlite $side/store.sqlite
    /usr/bin/time -f "$side full %e s %M KB" "$bin" build --store $side/store.sqlite --out $side/site --now $NOW --timezone Asia/Seoul --templates "$tpl" 2>&1 >/dev/null | grep -a "full"
    cp night-$side.sqlite $side/night.sqlite
    mkdir $side/copy; cp -al $side/site $side/copy/site; cp -a $side/site.boardarchive-state $side/copy/
    /usr/bin/time -f "$side night %e s %M KB" "$bin" build --store $side/night.sqlite --out $side/copy/site --now $NOW --timezone Asia/Seoul --templates "$tpl" 2>&1 >/dev/null | grep -a "night"
  done
done
