"""Turns Benchmarks/run.sh's JSON-lines results into RESULTS.md (called by `bench.py report`)."""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
from datetime import datetime, timezone
from pathlib import Path


def sh(*command: str) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def machine() -> list[str]:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor() or "unknown")
    mem_kb = next((int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal")), 0)
    os_name = next((line.split("=", 1)[1].strip('"') for line in Path("/etc/os-release").read_text().splitlines()
                    if line.startswith("PRETTY_NAME=")), platform.platform())
    commit = sh("git", "rev-parse", "--short", "HEAD")
    dirty = " (with uncommitted changes)" if sh("git", "status", "--porcelain", "--untracked-files=no") else ""
    lines = [
        f"- Machine: {sh('nproc')} cores ({cpu}), {mem_kb / 1024 / 1024:.1f} GiB RAM, {os_name}",
        f"- Toolchain: {sh('swift', '--version').splitlines()[0] if sh('swift', '--version') else 'swift ?'}, release build "
        f"(`swift build -c release --product boardarchive`)",
        f"- Peers: {sh('hugo', 'version').split(' BuildDate')[0] or 'hugo not installed'}"
        + (f"; {sh('chromium', '--version')}" if shutil.which("chromium") else ""),
        f"- Commit: `{commit}`{dirty}; run {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        "- Load average when the run ended (1, 5, 15 min): " + ", ".join(f"{value:.2f}" for value in os.getloadavg())
        + f" on {os.cpu_count()} cores (above the core count, other work shared the machine and the figures are noisy)",
    ]
    return lines


def num(value: float, digits: int = 0) -> str:
    return f"{value:,.{digits}f}"


def mb(kb: int) -> str:
    return f"{kb / 1024:,.0f} MB" if kb < 1024 * 1024 else f"{kb / 1024 / 1024:.2f} GB"


def size(value: int) -> str:
    return f"{value / 1e6:,.1f} MB" if value < 1e9 else f"{value / 1e9:.2f} GB"


def write_report(results: str, out: str, command: str, notes: list[str]) -> None:
    records = [json.loads(line) for line in Path(results).read_text(encoding="utf-8").splitlines() if line.strip()]
    by = lambda kind: [r for r in records if r["type"] == kind]  # noqa: E731
    lines = ["# Benchmark results", "", f"Command: `{command}`", ""] + machine() + [""]

    generated = by("generate")
    if generated:
        lines += ["## Benchmark archives (`boardarchive bench-data`)", "",
                  "| posts | seconds | peak RSS | store on disk |", "|---:|---:|---:|---:|"]
        for r in generated:
            lines.append(f"| {num(r['posts'])} | {r['seconds']:.1f} | {mb(r['rssKB'])} | {size(r['storeBytes'])} |")
        lines.append("")

    builds = by("build")
    full = {r["posts"]: r for r in builds if r["tool"] == "boardarchive" and r["scenario"] == "full"}
    hugo = {r["posts"]: r for r in builds if r["tool"] == "hugo"}
    skipped_hugo = {r["posts"]: r.get("reason", "") for r in records if r["type"] == "skip" and r.get("what", "").lower() == "hugo"}
    if full:
        lines += ["## Full builds", "",
                  "`boardarchive build --store S --out DIR --now NOW --timezone Asia/Seoul` (default options: keyword pages included) "
                  "against Hugo on the same posts (`Benchmarks/hugo/export_content.py`: a page per post from its Markdown, board "
                  "lists paginated 30 a page, relativeURLs). Pages/s counts the HTML files each tool wrote; the ratio is "
                  "BoardArchive's pages/s over Hugo's.", "",
                  "| posts | BoardArchive s | files | HTML pages | pages/s | peak RSS | bytes written | Hugo s | Hugo pages | "
                  "Hugo pages/s | Hugo peak RSS | ratio |",
                  "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for posts in sorted(full):
            r = full[posts]
            rate = r["htmlPages"] / r["seconds"] if r["seconds"] else 0
            row = (f"| {num(posts)} | {r['seconds']:.1f} | {num(r['files'])} | {num(r['htmlPages'])} | {num(rate)} | {mb(r['rssKB'])} | "
                   f"{size(r['bytes'])} |")
            if posts in hugo:
                h = hugo[posts]
                hrate = h["htmlPages"] / h["seconds"] if h["seconds"] else 0
                row += (f" {h['seconds']:.1f} | {num(h['htmlPages'])} | {num(hrate)} | {mb(h['rssKB'])} | "
                        f"{rate / hrate if hrate else 0:.2f}× |")
            else:
                row += f" skipped{' (see notes)' if posts in skipped_hugo else ''} | | | | |"
            lines.append(row)
        lines.append("")

    rebuilds = [r for r in builds if r["tool"] == "boardarchive" and r["scenario"] != "full"]
    if rebuilds:
        names = {"nothing": "nothing changed", "new1pct": "1 % new posts", "edit10": "10 posts edited", "gone10": "10 posts taken down",
                 "night": "a night: 1 % new posts and 10 edits",
                 "nextday": "the clock a day later"}
        lines += ["## Rebuilds", "",
                  "On a copy of the full build's site and store, one after another in this order (each starts from the "
                  "previous one's site); the mutations are `boardarchive bench-data --mutate new|edit|gone` (gone: one `redact --post` each).", "",
                  "| posts | change | seconds | of full build | files rendered | files written | unchanged | removed | peak RSS |",
                  "|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
        for r in rebuilds:
            base = full.get(r["posts"])
            share = f"{100 * r['seconds'] / base['seconds']:.1f} %" if base and base["seconds"] else "?"
            lines.append(f"| {num(r['posts'])} | {names.get(r['scenario'], r['scenario'])} | {r['seconds']:.1f} | {share} | "
                         f"{num(r['rendered']) if 'rendered' in r else '–'} | {num(r.get('written', 0))} | {num(r.get('unchanged', 0))} | {num(r.get('removed', 0))} | {mb(r['rssKB'])} |")
        lines.append("")

    crawls = by("crawl")
    if crawls:
        lines += ["## Crawl", "",
                  "`boardarchive crawl` from `boardarchive fixture-api --data <bench-data --fixture-json> --latency-ms L` "
                  "(default page size). The latency bound is requests × latency ÷ concurrency; a board's pages are fetched "
                  "one after another, so the largest board's pages × latency is a floor too.", "",
                  "| posts | concurrency | requests | seconds | latency bound | seconds ÷ bound | largest board's chain | peak RSS |",
                  "|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in crawls:
            bound = r["requests"] * r["latencyMs"] / 1000 / r["concurrency"]
            chain = -(-r["largestBoardPosts"] // r["pageSize"]) * r["latencyMs"] / 1000
            lines.append(f"| {num(r['posts'])} | {r['concurrency']} | {num(r['requests'])} | {r['seconds']:.1f} | {bound:.1f} s | "
                         f"{r['seconds'] / bound if bound else 0:.2f} | {chain:.1f} s | {mb(r['rssKB'])} |")
        lines.append("")

    searches = by("search")
    if searches:
        lines += ["## Search from `file://`", "",
                  "Headless Chromium opens the built site's `search.html` (`Benchmarks/search/browser_timing.py`); median of "
                  "cold browser starts. Bytes are the index scripts the query loaded; a later query reuses what the first loaded.", "",
                  "| posts | index on disk | index files | first query | bytes (files) | time | later query | bytes (files) | time |",
                  "|---:|---:|---:|---|---:|---:|---|---:|---:|"]
        for r in searches:
            for q in r["queries"]:
                lines.append(
                    f"| {num(r['posts'])} | {size(r['indexBytes'])} | {num(r['indexFiles'])} | `{q['first']}` ({q['firstTarget']}) | "
                    f"{q['firstBytes'] / 1e3:.1f} kB ({q['firstFiles']:.0f}){', paused' if q['firstPaused'] else ''} | "
                    f"{q['firstMs']:.0f} ms | `{q['later']}` ({q['laterTarget']}) | "
                    f"{q['laterBytes'] / 1e3:.1f} kB ({q['laterFiles']:.0f}){', paused' if q['laterPaused'] else ''} | {q['laterMs']:.0f} ms |")
        lines.append("")

    skipped = [r for r in records if r["type"] == "skip"]
    if skipped or notes:
        lines += ["## Notes", ""]
        lines += [f"- Skipped {r['what']} at {num(r['posts'])} posts: {r['reason']}" for r in skipped]
        lines += [f"- {note}" for note in notes]
        lines.append("")
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text("\n".join(lines), encoding="utf-8")
