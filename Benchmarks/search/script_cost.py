"""What a classic script loaded from file:// costs the search page in headless Chromium: its time per file, one after
another and all at once, against its size.

Usage: .venv/bin/python Benchmarks/search/script_cost.py [RUNS]   (default 5 fresh browsers per case; prints a table)

The search page loads its index as classic scripts injected into the page (the only way that works from file://), so
a first query's time grows with the files it loads. This writes, in a temporary folder, scripts shaped like index
files (`BoardArchiveSearch.load`-style calls of `JSON.parse('…')` on Hangul text) of 2 kB, 6 kB and 60 kB, and a page
that injects N of them one after another (each once the previous one has run) or all at once, then reports the
page's own `performance.now()` from the first injection to the last script's `onload`, median of RUNS.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
# (kB per file, files, "seq" one after another or "par" all at once)
CASES = [(2, 1, "seq"), (2, 10, "seq"), (2, 10, "par"), (2, 30, "seq"), (2, 30, "par"), (6, 10, "seq"), (6, 10, "par"), (60, 1, "seq")]

PAGE = """<!doctype html><meta charset="utf-8"><title>loading</title><script>
var p = location.hash.slice(1).split(','), size = p[0], count = +p[1], mode = p[2];
window.load = function () {};
function inject(i) {
  return new Promise(function (resolve) {
    var s = document.createElement('script'); s.src = 's' + size + '-' + i + '.js'; s.charset = 'utf-8'; s.onload = resolve;
    document.head.appendChild(s);
  });
}
var start = performance.now();
(mode === 'seq'
  ? Array.from({length: count}).reduce(function (chain, _, i) { return chain.then(function () { return inject(i); }); }, Promise.resolve())
  : Promise.all(Array.from({length: count}, function (_, i) { return inject(i); })))
  .then(function () { document.title = 'done ' + (performance.now() - start).toFixed(1); });
</script>"""


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    try:
        for size in {case[0] for case in CASES}:
            # "가나다라마바사" is 21 bytes of UTF-8: about `size` kB a file.
            text = "가나다라마바사" * (size * 1000 // 21)
            for index in range(max(case[1] for case in CASES)):
                (folder / f"s{size}-{index}.js").write_text(f"window.load({index},JSON.parse('[\"{text}\"]'));", encoding="utf-8")
        (folder / "page.html").write_text(PAGE, encoding="utf-8")
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium")
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
            options.add_argument(argument)
        samples: dict[tuple[int, int, str], list[float]] = {case: [] for case in CASES}
        for _ in range(RUNS):
            for case in CASES:  # alternated, so that a slow moment of the host falls on every case alike
                driver = webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))
                try:
                    driver.get((folder / "page.html").as_uri() + "#" + ",".join(map(str, case)))
                    deadline = time.time() + 30
                    while not driver.title.startswith("done") and time.time() < deadline:
                        time.sleep(0.01)
                    samples[case].append(float(driver.title.split()[1]))
                finally:
                    driver.quit()
        print("| files | size | loaded | time (median) | per file |")
        print("|---:|---:|---|---:|---:|")
        for (size, count, mode), values in samples.items():
            median = statistics.median(values)
            how = "one after another" if mode == "seq" else "all at once"
            print(f"| {count} | {size} kB | {how} | {median:.0f} ms | {median / count:.1f} ms |")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
