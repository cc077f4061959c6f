"""Hostile posts of the demo dataset stay inert in a real browser: text shows as text and no dialog opens."""

from __future__ import annotations

import re

from selenium.webdriver.common.by import By

from browser_support import XSS_TITLE, assert_no_dialog, file_url

HOSTILE_BODY = re.compile(r"<script|onerror|javascript:", re.I)


def listing_page_of(site_root, post_id: int) -> str:
    """The board page (relative path) whose rows list `post_id`."""
    marker = f'data-post-id="{post_id}"'
    for page in sorted(site_root.glob("boards/*/*.html")):
        if marker in page.read_text(encoding="utf-8"):
            return str(page.relative_to(site_root))
    raise AssertionError(f"no board page lists post {post_id}")


def test_xss_title_shows_as_text_on_its_board_page_and_post_page(driver, demo_site, archive):
    posts = [post for post in archive.posts.values() if post.title == XSS_TITLE]
    assert posts, "the demo dataset should have a post titled <img src=x onerror=alert(1)>"
    post = posts[0]
    driver.get(file_url(demo_site.page(listing_page_of(demo_site.root, post.post_id))))
    assert_no_dialog(driver, "the board page listing the XSS title")
    link = driver.find_element(By.CSS_SELECTOR, f'[data-post-id="{post.post_id}"] a[href$="{post.post_id}.html"]')
    assert link.text == XSS_TITLE
    assert not driver.find_elements(By.CSS_SELECTOR, 'img[src="x"]'), "the title became an <img> element"

    link.click()
    assert driver.current_url.endswith(f"/posts/{post.post_id}.html")
    assert_no_dialog(driver, "the XSS post page")
    assert XSS_TITLE in driver.find_element(By.TAG_NAME, "h1").text
    assert XSS_TITLE in driver.title
    assert not driver.find_elements(By.CSS_SELECTOR, 'img[src="x"]'), "the title became an <img> element"


def test_hostile_bodies_and_writers_are_inert(driver, demo_site, archive):
    hostile = [post for post in archive.posts.values() if HOSTILE_BODY.search(post.contents)]
    assert len(hostile) >= 3, "the demo dataset should have hostile bodies (script, onerror, javascript: links)"
    for post in hostile:
        page = demo_site.page(f"posts/{post.post_id}.html")
        driver.get(file_url(page))
        assert_no_dialog(driver, f"post {post.post_id}")
        active = driver.execute_script(
            """var body = document.querySelector('.post-body');
               return {
                 scripts: body.querySelectorAll('script, iframe, object, embed').length,
                 handlers: Array.from(body.querySelectorAll('*')).filter(function (node) {
                   return Array.from(node.attributes).some(function (a) { return /^on/i.test(a.name); });
                 }).length,
                 jsLinks: Array.from(document.querySelectorAll('a[href]')).filter(function (a) {
                   return /^\\s*javascript:/i.test(a.getAttribute('href'));
                 }).length
               };"""
        )
        assert active == {"scripts": 0, "handlers": 0, "jsLinks": 0}, f"post {post.post_id}: {active}"
        # Click everything that looks like a link in the body: nothing may run.
        for index in range(len(driver.find_elements(By.CSS_SELECTOR, ".post-body a, .post-body .inert-link"))):
            targets = driver.find_elements(By.CSS_SELECTOR, ".post-body a, .post-body .inert-link")
            targets[index].click()
            assert_no_dialog(driver, f"a body link of post {post.post_id}")
            if not driver.current_url.endswith(f"/posts/{post.post_id}.html"):
                driver.get(file_url(page))

    html_writers = [post for post in archive.posts.values() if "<" in post.writer]
    assert html_writers, "the demo dataset should have a writer name containing HTML"
    for post in html_writers:
        driver.get(file_url(demo_site.page(f"posts/{post.post_id}.html")))
        writer = driver.find_element(By.CSS_SELECTOR, ".post-writer")
        assert writer.text == post.writer
        assert not writer.find_elements(By.CSS_SELECTOR, "*"), "the writer name became markup"
