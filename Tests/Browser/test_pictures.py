"""Issue 28 in a real browser over file://: the demo archive's posts show the pictures the crawl kept, every one decoded
(natural width above 0) from the site folder, with no request leaving it; at 375 px no picture is wider than the
screen; a page with pictures passes axe-core in both themes.
"""

from __future__ import annotations

from pathlib import Path

from selenium.webdriver.support.ui import WebDriverWait

from browser_support import file_url
from test_accessibility import THEMES, a11y_driver, axe_violations, emulate  # noqa: F401 (a fixture)


def picture_pages(root: Path) -> list[Path]:
    return sorted(path for path in (root / "posts").glob("*.html") if "<img " in path.read_text())


def load_every_picture(driver, page: Path) -> list[dict]:
    """Opens the page, scrolls each picture into view (they load lazily) and waits until each is decoded."""
    driver.get(file_url(page))
    count = driver.execute_script("return document.querySelectorAll('.post-body img').length")
    for index in range(count):
        driver.execute_script("document.querySelectorAll('.post-body img')[arguments[0]].scrollIntoView()", index)
        WebDriverWait(driver, 10).until(
            lambda d: d.execute_script("const i = document.querySelectorAll('.post-body img')[arguments[0]]; return i.complete", index)
        )
    return driver.execute_script(
        """return [...document.querySelectorAll('.post-body img')].map(i => ({
            src: i.currentSrc, natural: i.naturalWidth, shown: i.getBoundingClientRect().width, alt: i.alt,
            width: i.getAttribute('width'), height: i.getAttribute('height'), loading: i.loading}))"""
    )


def test_the_demo_posts_show_their_pictures_offline(demo_site, driver):
    pages = picture_pages(demo_site.root)
    assert len(pages) >= 3, "the demo archive shows no pictures"
    for page in pages:
        pictures = load_every_picture(driver, page)
        assert pictures, f"{page.name}: no picture in the post body"
        for picture in pictures:
            assert picture["src"].startswith(file_url(demo_site.root / "media")), picture
            assert picture["natural"] > 0, f"{page.name}: {picture['src']} did not decode"
            assert picture["alt"], f"{page.name}: a picture without alt text"
            assert picture["width"] and picture["height"] and picture["loading"] == "lazy"
        outside = driver.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith('file:'))"
        )
        assert outside == [], f"{page.name} asked the network for {outside}"


def test_pictures_fit_a_phone_and_pass_axe(demo_site, a11y_driver):  # noqa: F811 (the fixture)
    page = max(picture_pages(demo_site.root), key=lambda path: path.read_text().count("<img "))
    for theme in THEMES:
        emulate(a11y_driver, theme, width=375)
        pictures = load_every_picture(a11y_driver, page)
        viewport = a11y_driver.execute_script("return document.documentElement.clientWidth")
        for picture in pictures:
            assert 0 < picture["shown"] <= viewport, f"{picture['src']} is {picture['shown']} px wide on a {viewport} px screen"
        scroll = a11y_driver.execute_script("return document.documentElement.scrollWidth")
        assert scroll <= viewport, f"the page scrolls sideways at 375 px ({scroll} px)"
        assert axe_violations(a11y_driver) == [], theme
    emulate(a11y_driver, "light")


def test_the_feed_shows_the_published_pictures(demo_site):
    feed = (demo_site.root / "feed.xml").read_text()
    assert "&lt;img src=&quot;media/" in feed
    assert "/media/demo/" not in feed, "the feed shows a kept picture's source address"
