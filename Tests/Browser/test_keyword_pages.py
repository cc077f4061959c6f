"""Per-keyword result pages work with JavaScript disabled: every matching post, highlighted with <mark>.

Built from the demo store with extra `--keyword` options (conftest.KEYWORDS, the XSS title's word among them)
on top of the archive's most frequent terms; each keyword's rows across its pages must equal the oracle for
target "all" in listing order.
"""

from __future__ import annotations

import re

from selenium.webdriver.common.by import By

from browser_support import KEYWORDS, MARKS_SCRIPT, XSS_TITLE, assert_no_dialog, count_occurrences, file_url, normalize

PAGE_SIZE = 30


def keyword_entries(driver, site) -> list[dict]:
    assert site.page("keywords/index.html").is_file(), "the build wrote no keywords/index.html"
    driver.get(file_url(site.page("keywords/index.html")))
    return driver.execute_script(
        """return Array.from(document.querySelectorAll('.keyword-entry')).map(function (entry) {
             var link = entry.querySelector('a[href]');
             return {keyword: link.textContent.trim(), href: link.href, text: entry.textContent};
           });""")


def keyword_rows(driver, first_page_url: str) -> tuple[list[dict], int]:
    """Every row of a keyword's pages (following the pager's "next"), and how many pages there were."""
    rows, pages, url = [], 0, first_page_url
    while url:
        driver.get(url)
        assert_no_dialog(driver, url)
        pages += 1
        page_rows = driver.execute_script(MARKS_SCRIPT)
        rows.extend(page_rows)
        next_links = driver.find_elements(By.CSS_SELECTOR, ".pager .pager-next a[href]")
        url = next_links[0].get_attribute("href") if next_links else None
        # The front page and the archive pages (cut from the oldest end) hold at most 30; only the archive page
        # right after the front page (the newest) may hold fewer than 30 (docs/how-it-works.md, "Pages that stay put").
        assert len(page_rows) <= PAGE_SIZE, f"{driver.current_url} has {len(page_rows)} rows"
        if url and pages > 2:
            assert len(page_rows) == PAGE_SIZE, f"{driver.current_url} is an older archive page but has {len(page_rows)} rows"
        if url:
            assert re.search(r"-page-\d+\.html$", url), f"keyword page link {url} is not <slug>-page-<n>.html"
        assert pages < 50
    return rows, pages


def test_keyword_index_lists_the_requested_and_frequent_keywords_with_counts(nojs_driver, keyword_site, archive):
    entries = keyword_entries(nojs_driver, keyword_site)
    shown = {normalize(entry["keyword"]) for entry in entries}
    for keyword in KEYWORDS:
        assert normalize(keyword) in shown, f"--keyword {keyword!r} has no entry in keywords/index.html"
    assert len(entries) > len(KEYWORDS), "no frequent terms were added (--top-keywords defaults to 20)"
    for entry in entries:
        count = len(archive.search(entry["keyword"], "all"))
        assert re.search(rf"(?<!\d){count}(?!\d)", entry["text"]), f"{entry['keyword']!r} does not show its {count} posts"
        assert re.search(r"/keywords/[^/]+\.html$", entry["href"]), entry["href"]


def test_every_keyword_page_lists_its_posts_with_marks_without_javascript(nojs_driver, keyword_site, archive):
    entries = keyword_entries(nojs_driver, keyword_site)
    assert entries
    problems = []
    for entry in entries:
        keyword = entry["keyword"]
        words = [normalize(word) for word in keyword.split()]
        rows, pages = keyword_rows(nojs_driver, entry["href"])
        ids = [row["id"] for row in rows]
        expected = archive.in_listing_order(archive.search(keyword, "all"))
        if ids != expected:
            problems.append(f"{keyword!r}: rows {ids[:8]}… ({len(ids)}), expected {expected[:8]}… ({len(expected)})")
            continue
        notices = sum(1 for post_id in expected if archive.posts[post_id].post_type == "notice")
        front = min(len(expected) - notices, max(0, PAGE_SIZE - notices))
        assert pages == 1 + (len(expected) - notices - front + PAGE_SIZE - 1) // PAGE_SIZE
        marked_rows = 0
        for row in rows:
            post = archive.posts[row["id"]]
            if row["title"] != post.title or row["writer"] != post.writer:
                problems.append(f"{keyword!r}: post {post.post_id} shows title {row['title']!r} / writer {row['writer']!r}")
            if row["elementsInLink"]:
                problems.append(f"{keyword!r}: post {post.post_id} title holds elements other than <mark>")
            marks = (row["titleMarks"] or []) + (row["writerMarks"] or []) + (row["snippetMarks"] or [])
            bad = [mark for mark in marks if normalize(mark) not in words]
            if bad:
                problems.append(f"{keyword!r}: post {post.post_id} marks {bad}, not the keyword")
            for field, cell in (("title", "titleMarks"), ("writer", "writerMarks")):
                expected_marks = sum(count_occurrences(post.field(field), word) for word in words)
                if len(row[cell] or []) != expected_marks:
                    problems.append(f"{keyword!r}: post {post.post_id} has {len(row[cell] or [])} marks in its {field}, "
                                    f"expected {expected_marks}")
            if marks:
                marked_rows += 1
        if marked_rows != len(rows):
            problems.append(f"{keyword!r}: {len(rows) - marked_rows} of {len(rows)} rows have no <mark>")
    assert not problems, "keyword pages disagree with the oracle:\n" + "\n".join(problems[:30])


def test_xss_title_shows_as_text_on_its_keyword_page(driver, nojs_driver, keyword_site, archive):
    entries = {normalize(entry["keyword"]): entry for entry in keyword_entries(nojs_driver, keyword_site)}
    entry = entries.get("onerror")
    assert entry, "--keyword onerror has no page"
    xss = next(post.post_id for post in archive.posts.values() if post.title == XSS_TITLE)
    for browser in (nojs_driver, driver):
        browser.get(entry["href"])
        assert_no_dialog(browser, entry["href"])
        link = browser.find_element(By.CSS_SELECTOR, f'tr[data-post-id="{xss}"] .post-title a')
        assert link.text == XSS_TITLE
        assert [mark.text for mark in link.find_elements(By.TAG_NAME, "mark")] == ["onerror"]
        assert not browser.find_elements(By.CSS_SELECTOR, "img"), "post data became an <img> element"
