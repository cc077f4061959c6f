"""Fixtures of the real-browser tests: the built binary, the demo site, a site built "in the past", and one
headless Chromium with JavaScript and one without, each started once per session.

Run from the repository root after `swift build --build-tests`:
    .venv/bin/python -m pytest -q Tests/Browser
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from browser_support import BINARY, KEYWORDS, REPO_ROOT, TIME_ZONE, TIME_ZONE_NAME, Archive, local_day


def pytest_sessionstart(session):
    """Stops the run with one clear message when the binary or the browser is missing."""
    problems = []
    if not os.access(BINARY, os.X_OK):
        problems.append(f"{BINARY} is missing: run `swift build --build-tests` in {REPO_ROOT} first.")
    for tool, package in (("chromium", "chromium"), ("chromedriver", "chromium-driver")):
        if shutil.which(tool) is None:
            problems.append(f"`{tool}` is not on PATH: run `scripts/bootstrap.sh --browser` (Debian package {package}).")
    if problems:
        pytest.exit("Browser tests cannot start:\n  " + "\n  ".join(problems), returncode=3)


def run_boardarchive(*arguments: str) -> str:
    """Runs the built binary from the repository root (so ./templates is found) and returns its stdout."""
    environment = {key: value for key, value in os.environ.items() if key != "SOURCE_DATE_EPOCH"}
    result = subprocess.run(
        [str(BINARY), *arguments], cwd=REPO_ROOT, env=environment, capture_output=True, text=True, timeout=300
    )
    if result.returncode != 0:
        pytest.fail(
            f"`boardarchive {' '.join(arguments)}` exited with {result.returncode}:\n{result.stderr}{result.stdout}",
            pytrace=False,
        )
    return result.stdout


@dataclass(frozen=True)
class BuiltSite:
    """A site folder, the store it was built from, and the build's "today" in the archive's time zone."""

    root: Path
    store: Path
    build_day: dt.date

    def page(self, relative: str) -> Path:
        return self.root / relative


@pytest.fixture(scope="session")
def work_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("browser")


@pytest.fixture(scope="session")
def demo_site(work_dir) -> BuiltSite:
    """`boardarchive demo`: the bundled dataset shifted to the real now, built now."""
    site, store = work_dir / "site", work_dir / "archive.sqlite"
    run_boardarchive("demo", "--out", str(site), "--store", str(store), "--timezone", TIME_ZONE_NAME)
    if not (site / "index.html").is_file():
        pytest.fail(f"`boardarchive demo` wrote no {site / 'index.html'}", pytrace=False)
    return BuiltSite(site, store, dt.datetime.now(TIME_ZONE).date())


@pytest.fixture(scope="session")
def archive(demo_site) -> Archive:
    return Archive(demo_site.store, demo_site.root)


def past_build_instant(store: Path) -> dt.datetime:
    """End of the newest local day, at least three days before the real now, on which some post was written.

    Building "then" gives that day's posts build-time new badges, days before the reader's clock.
    """
    cutoff = dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=3)
    connection = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        row = connection.execute(
            "SELECT max(createdAt) FROM post WHERE createdAt <= ?", (int(cutoff.timestamp()),)
        ).fetchone()
    finally:
        connection.close()
    if row is None or row[0] is None:
        pytest.fail("the demo store has no post older than three days", pytrace=False)
    day = local_day(row[0])
    end_of_day = dt.datetime.combine(day, dt.time(23, 59, 59), TIME_ZONE)
    return end_of_day.astimezone(dt.timezone.utc)


@pytest.fixture(scope="session")
def past_site(demo_site, work_dir) -> BuiltSite:
    """The demo store rebuilt with `--now` days in the past: its build-time new badges are stale today."""
    instant = past_build_instant(demo_site.store)
    site = work_dir / "past"
    run_boardarchive(
        "build", "--store", str(demo_site.store), "--out", str(site),
        "--now", instant.strftime("%Y-%m-%dT%H:%M:%SZ"), "--timezone", TIME_ZONE_NAME, "--force",
    )
    return BuiltSite(site, demo_site.store, instant.astimezone(TIME_ZONE).date())


@pytest.fixture(scope="session")
def keyword_site(demo_site, work_dir) -> BuiltSite:
    """The demo store rebuilt now with extra `--keyword` pages (the XSS title's word among them)."""
    site = work_dir / "keywords"
    arguments = ["build", "--store", str(demo_site.store), "--out", str(site), "--timezone", TIME_ZONE_NAME, "--force"]
    for keyword in KEYWORDS:
        arguments += ["--keyword", keyword]
    run_boardarchive(*arguments)
    return BuiltSite(site, demo_site.store, dt.datetime.now(TIME_ZONE).date())


def start_chromium(javascript: bool) -> webdriver.Chrome:
    """Debian's headless Chromium through Debian's chromedriver (explicit paths: nothing is downloaded)."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1000", "--lang=ko-KR",
                     # Speed only: a file:// navigation then reuses its renderer (about 60 ms instead of 90 ms).
                     "--disable-site-isolation-trials",
                     "--disable-features=BackForwardCache,ProactivelySwapBrowsingInstance,RenderDocument"):
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    # Leave dialogs open so that the tests see them (switch_to.alert) instead of chromedriver dismissing them.
    options.set_capability("unhandledPromptBehavior", "ignore")
    driver = webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(10)
    return driver


@pytest.fixture(scope="session")
def driver():
    """Chromium with JavaScript enabled, shared by the whole session."""
    browser = start_chromium(javascript=True)
    yield browser
    browser.quit()


@pytest.fixture(scope="session")
def nojs_driver():
    """Chromium with JavaScript disabled by content setting, shared by the whole session."""
    browser = start_chromium(javascript=False)
    yield browser
    browser.quit()
