#!/usr/bin/env python3
"""Records and reports Benchmarks/run.sh's measurements (standard library only).

  bench.py build   --results F --tool boardarchive|hugo --posts N --scenario S --time T --log L --site DIR
                   [--full-seconds X]   one build: seconds and peak RSS from /usr/bin/time, counts from the log
  bench.py crawl   --results F --posts N --concurrency C --latency-ms MS --time T --log L --source STORE --page-size P
  bench.py search  --results F --posts N --json FILE (browser_timing.py --site output)
  bench.py generate --results F --posts N --time T --store STORE
  bench.py skip    --results F --posts N --what WHAT --reason TEXT   a measurement left out, and why
  bench.py report  --results F --out RESULTS.md --command-line CMD [--note TEXT]…

Each record is one JSON line in the results file; `report` turns them into the Markdown tables of RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path


def time_file(path: str) -> tuple[float, int]:
    """(seconds, peak RSS in kB) from `/usr/bin/time -f '%e %M' -o path`; the last line holds them."""
    last = Path(path).read_text().strip().splitlines()[-1].split()
    return float(last[0]), int(last[1])


def built_counts(log: str) -> dict:
    """The counts of the build's last `Built T files (W written, U unchanged, R removed) into …` line, by label."""
    lines = [line for line in Path(log).read_text(encoding="utf-8", errors="replace").splitlines() if line.startswith("Built ")]
    if not lines:
        raise SystemExit(f"bench.py: no 'Built …' line in {log}")
    line = lines[-1]
    counts = {"files": int(re.match(r"Built (\d+) files", line).group(1))}
    inside = re.search(r"\(([^)]*)\)", line)
    for number, label in re.findall(r"(\d+) ([A-Za-z]+)", inside.group(1) if inside else ""):
        counts[label] = int(number)
    return counts


def site_stats(site: str) -> tuple[int, int]:
    """(HTML pages, bytes as `du -sb` counts them) of a built site."""
    pages = 0
    for _, _, files in os.walk(site):
        pages += sum(1 for name in files if name.endswith(".html"))
    size = int(subprocess.run(["du", "-sb", site], capture_output=True, text=True, check=True).stdout.split()[0])
    return pages, size


def append(results: str, record: dict) -> None:
    with open(results, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(json.dumps(record, ensure_ascii=False), file=sys.stderr)


def record_build(a) -> None:
    seconds, rss = time_file(a.time)
    pages, size = site_stats(a.site)
    record = {"type": "build", "tool": a.tool, "posts": a.posts, "scenario": a.scenario, "seconds": seconds, "rssKB": rss,
              "htmlPages": pages, "bytes": size}
    if a.tool == "boardarchive":
        record.update(built_counts(a.log))
    append(a.results, record)


def record_crawl(a) -> None:
    seconds, rss = time_file(a.time)
    log = Path(a.log).read_text(encoding="utf-8", errors="replace")
    summary = [line for line in log.splitlines() if line.startswith("Crawled ")]
    if not summary:
        raise SystemExit(f"bench.py: no 'Crawled …' line in {a.log}")
    requests = int(re.search(r"(\d+) requests", summary[-1]).group(1))
    posts = int(re.search(r"(\d+) posts", summary[-1]).group(1))
    db = sqlite3.connect(f"file:{a.source}?mode=ro", uri=True)
    largest = db.execute("SELECT COUNT(*) FROM post GROUP BY boardId ORDER BY 1 DESC LIMIT 1").fetchone()[0]
    append(a.results, {"type": "crawl", "posts": a.posts, "crawled": posts, "concurrency": a.concurrency, "latencyMs": a.latency_ms,
                       "requests": requests, "seconds": seconds, "rssKB": rss, "largestBoardPosts": largest, "pageSize": a.page_size})


def record_search(a) -> None:
    append(a.results, {"type": "search", "posts": a.posts, **json.loads(Path(a.json).read_text(encoding="utf-8"))})


def record_generate(a) -> None:
    seconds, rss = time_file(a.time)
    size = sum(p.stat().st_size for p in Path(a.store).parent.glob(Path(a.store).name + "*"))
    append(a.results, {"type": "generate", "posts": a.posts, "seconds": seconds, "rssKB": rss, "storeBytes": size})


def record_skip(a) -> None:
    append(a.results, {"type": "skip", "posts": a.posts, "what": a.what, "reason": a.reason})


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build")
    crawl = sub.add_parser("crawl")
    search = sub.add_parser("search")
    generate = sub.add_parser("generate")
    report = sub.add_parser("report")
    skip = sub.add_parser("skip")
    for p in (build, crawl, search, generate, report, skip):
        p.add_argument("--results", required=True)
    for p in (build, crawl, search, generate, skip):
        p.add_argument("--posts", type=int, required=True)
    skip.add_argument("--what", required=True)
    skip.add_argument("--reason", required=True)
    for p in (build, crawl, generate):
        p.add_argument("--time", required=True)
    build.add_argument("--tool", choices=["boardarchive", "hugo"], required=True)
    build.add_argument("--scenario", required=True)
    build.add_argument("--log", required=True)
    build.add_argument("--site", required=True)
    crawl.add_argument("--concurrency", type=int, required=True)
    crawl.add_argument("--latency-ms", type=int, required=True)
    crawl.add_argument("--log", required=True)
    crawl.add_argument("--source", required=True)
    crawl.add_argument("--page-size", type=int, required=True)
    search.add_argument("--json", required=True)
    generate.add_argument("--store", required=True)
    report.add_argument("--out", required=True)
    report.add_argument("--command-line", required=True)
    report.add_argument("--note", action="append", default=[])
    a = parser.parse_args()
    if a.command == "report":
        from report import write_report  # Benchmarks/report.py
        write_report(a.results, a.out, a.command_line, a.note)
    else:
        records = {"build": record_build, "crawl": record_crawl, "search": record_search, "generate": record_generate,
                   "skip": record_skip}
        records[a.command](a)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
