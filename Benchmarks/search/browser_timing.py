"""Times search.html in headless Chromium over file:// and writes the results table as Markdown.

Usage: browser_timing.py <out dir> <post counts…>   (after run.sh exported <out>/<N>/site and sizes.json)
       browser_timing.py --site DIR --json FILE        (any built site, e.g. Benchmarks/run.sh's; writes JSON)
       browser_timing.py --site DIR --first-page [QUERIES]  (first queries only, the rows they show: a Markdown table;
                                                       QUERIES defaults to first-page-queries.json beside this script)

For each query pair a fresh browser opens search.html?q=<first>&target=… (a cold first query: page load, manifest,
shards), then types the later query into the box and submits it (same page, shards already loaded stay loaded).
Bytes are the sizes on disk of the index scripts search.js injected (BoardArchiveSearch.lastRun.shards), and
"paused" says the query spent its byte budget (BoardArchiveSearch.lastRun.paused);
times are search.js's own measurements (performance.now()), median of 5 runs.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote, urlencode

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

RUNS = int(os.environ.get("RUNS", "5"))  # cold browser starts per query


def start() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000"):
        options.add_argument(argument)
    return webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))


def wait_ready(driver, previous):
    return WebDriverWait(driver, 60).until(
        lambda d: (v := d.find_element(By.ID, "search-app").get_attribute("data-ready")) and v != previous and v)


def shard_bytes(site: Path, shards: list[str]) -> int:
    return sum((site / "search" / f"{shard}.js").stat().st_size for shard in shards if (site / "search" / f"{shard}.js").exists())


def measure(site: Path, first: tuple[str, str], later: tuple[str, str]) -> dict:
    samples = []
    for _ in range(RUNS):
        driver = start()
        try:
            url = (site / "search.html").resolve().as_uri() + "?" + urlencode({"q": first[0], "target": first[1]}, quote_via=quote)
            driver.get(url)
            ready = wait_ready(driver, None)
            run1 = driver.execute_script("return window.BoardArchiveSearch.lastRun")
            Select(driver.find_element(By.ID, "search-target")).select_by_value(later[1])
            box = driver.find_element(By.ID, "search-query")
            box.clear()
            box.send_keys(later[0], Keys.ENTER)
            wait_ready(driver, ready)
            run2 = driver.execute_script("return window.BoardArchiveSearch.lastRun")
            rows = len(driver.find_elements(By.CSS_SELECTOR, "#search-results tr"))
        finally:
            driver.quit()
        first_shards = run1["shards"]
        later_shards = [s for s in run2["shards"] if s not in set(first_shards)]
        samples.append({
            "firstMs": run1["ms"], "firstSinceNavigation": run1["sinceNavigation"], "laterMs": run2["ms"],
            "firstBytes": shard_bytes(site, first_shards), "firstFiles": len(first_shards),
            "laterBytes": shard_bytes(site, later_shards), "laterFiles": len(later_shards), "laterRows": rows,
            "firstPaused": 1 if run1.get("paused") else 0, "laterPaused": 1 if run2.get("paused") else 0,
        })
    result = {key: statistics.median(sample[key] for sample in samples) for key in samples[0]}
    return result


def paused(flag) -> str:
    return ", paused" if flag else ""


def disk(site: Path) -> tuple[int, int]:
    files = [p for p in (site / "search").rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


# The (first, later) query pairs, as in SearchSiteExportTests.queries: (text, target) each.
QUERIES = [
    (("서울", "all"), ("회의실", "all")),
    (("학교", "title"), ("김민준", "writer")),
    (("release notes", "contents"), ("초안", "all")),
    (("서울학교", "all"), ("회의일정", "all")),
    (("서울", "writer"), ("Swift release", "title")),
    (("없는검색어", "all"), ("이", "all")),
    (("담당", "all"), ("민준", "contents")),
]


def measure_site(site: Path) -> dict:
    """The index's size on disk and the browser's measurements of every query pair, for one built site."""
    count, total = disk(site)
    largest = max((p.stat().st_size for p in (site / "search").rglob("*") if p.is_file()), default=0)
    rows = []
    for first, later in QUERIES:
        rows.append({"first": first[0], "firstTarget": first[1], "later": later[0], "laterTarget": later[1],
                     **measure(site, first, later)})
    return {"indexFiles": count, "indexBytes": total, "largestFile": largest, "runs": RUNS, "queries": rows}


def first_page(site: Path, queries: list[dict]) -> str:
    """Each query as a first query in a fresh browser: the rows the first page shows, whether it paused, the bytes and
    files it loaded (manifest included) and search.js's time from the query to the rendered rows (median of RUNS)."""
    lines = ["| query | target | rows | first query: bytes (files) | time |", "|---|---|---:|---:|---:|"]
    for query in queries:
        samples = []
        for _ in range(RUNS):
            driver = start()
            try:
                url = (site / "search.html").resolve().as_uri() + "?" + urlencode({"q": query["q"], "target": query["target"]}, quote_via=quote)
                driver.get(url)
                wait_ready(driver, None)
                run = driver.execute_script("return window.BoardArchiveSearch.lastRun")
                rows = len(driver.find_elements(By.CSS_SELECTOR, "#search-results tr"))
            finally:
                driver.quit()
            shards = sorted(set(run["shards"]) | {"manifest"})
            samples.append((run["ms"], rows, shard_bytes(site, shards), len(shards), bool(run.get("paused"))))
        ms = statistics.median(sample[0] for sample in samples)
        _, rows, loaded, files, was_paused = samples[0]
        lines.append(f"| `{query['q']}` | {query['target']} | {rows} | {loaded / 1e3:.1f} kB ({files}){paused(was_paused)} | {ms:.0f} ms |")
    return "\n".join(lines)


def main() -> None:
    if sys.argv[1:2] == ["--site"] and "--first-page" in sys.argv:
        rest = sys.argv[sys.argv.index("--first-page") + 1:]
        queries_file = Path(rest[0]) if rest else Path(__file__).with_name("first-page-queries.json")
        print(first_page(Path(sys.argv[2]), json.loads(queries_file.read_text(encoding="utf-8"))))
        return
    if sys.argv[1:2] == ["--site"]:
        arguments = dict(zip(sys.argv[1::2], sys.argv[2::2]))
        result = measure_site(Path(arguments["--site"]))
        Path(arguments["--json"]).write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        return
    out, sizes = Path(sys.argv[1]), sys.argv[2:]
    chromium = subprocess.run([shutil.which("chromium"), "--version"], capture_output=True, text=True).stdout.strip()
    lines = [
        "# Search index benchmark",
        "",
        f"Generated archives (`FixtureDataset.generated`, 10 boards, seed 42), `Benchmarks/search/run.sh`, {chromium}, headless, "
        f"over `file://`, {os.cpu_count()} cores. Times: median of {RUNS} cold browser starts; search.js's own "
        "`performance.now()` from the start of the query to the rendered first page (30 rows + snippets). "
        "\"Bytes\" are the index scripts the query loaded (a later query reuses what the first one loaded); \"paused\" marks a "
        "query that spent its byte budget (search.js `BUDGET`, 112 kB) and offered to go on searching older posts.",
        "",
        "| posts | index on disk | index files | largest file | query | first query: bytes (files) | first query: time | "
        "page load → results | later query | later: bytes (files) | later: time |",
        "|---:|---:|---:|---:|---|---:|---:|---:|---|---:|---:|",
    ]
    swift_lines = ["", "Bytes by the Swift reader (`SearchIndexReader`, the same algorithm; exact, no browser):", "",
                   "| posts | first query | bytes (files) | hits | later query | bytes (files) | hits |", "|---:|---|---:|---:|---|---:|---:|"]
    for posts in sizes:
        site = out / posts / "site"
        sizes_json = json.loads((site / "sizes.json").read_text())
        count, total = disk(site)
        for query in sizes_json["queries"]:
            first = (query["first"], query["firstTarget"])
            later = (query["later"], query["laterTarget"])
            m = measure(site, first, later)
            lines.append(
                f"| {int(posts):,} | {total / 1e6:.1f} MB | {count:,} | {sizes_json['largestFile'] / 1e3:.0f} kB | "
                f"`{first[0]}` ({first[1]}) | {m['firstBytes'] / 1e3:.1f} kB ({m['firstFiles']:.0f}){paused(m['firstPaused'])} | {m['firstMs']:.0f} ms | "
                f"{m['firstSinceNavigation']:.0f} ms | `{later[0]}` ({later[1]}) | {m['laterBytes'] / 1e3:.1f} kB ({m['laterFiles']:.0f}){paused(m['laterPaused'])} | "
                f"{m['laterMs']:.0f} ms |")
            swift_lines.append(
                f"| {int(posts):,} | `{first[0]}` ({first[1]}) | {query['firstBytes'] / 1e3:.1f} kB ({query['firstFiles']}) | {query['firstHits']}"
                f"{paused(query.get('firstPaused'))} | `{later[0]}` ({later[1]}) | {query['laterBytes'] / 1e3:.1f} kB ({query['laterFiles']}) | "
                f"{query['laterHits']}{paused(query.get('laterPaused'))} |")
    lines += swift_lines
    lines += ["", "Reproduce: `python3 -m venv .venv && .venv/bin/pip install selenium && Benchmarks/search/run.sh` "
              "(Debian packages `chromium chromium-driver`)."]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
