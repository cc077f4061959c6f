"""The build issue in a real browser over file://: home, board pages, pager, post bodies, and every link."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser_support import assert_no_dialog, file_url, listing_rows

PAGE_SIZE = 30


def board_order(archive, board_id: int) -> list[int]:
    """The listing order of a board: notices first, then newest first, ties by postId descending."""
    posts = [post for post in archive.posts.values() if post.board_id == board_id]
    posts.sort(key=lambda post: (post.post_type != "notice", -post.created_at, -post.post_id))
    return [post.post_id for post in posts]


def board_page_path(board_id: int, archive_page=None) -> str:
    """The front page (None) or archive page c (0-based from the oldest), which is the file page-<c+2>.html."""
    return f"boards/{board_id}/index.html" if archive_page is None else f"boards/{board_id}/page-{archive_page + 2}.html"


def listing_pages(archive, board_id: int):
    """The board's pages in reading order as (archive page or None, expected rows): the front page shows the notices and
    the newest posts, 30 in all; archive pages are cut from the oldest end, 30 each but the newest (docs/how-it-works.md, "Pages that
    stay put")."""
    order = board_order(archive, board_id)
    notices = sum(1 for post_id in order if archive.posts[post_id].post_type == "notice")
    others = len(order) - notices
    front = min(others, max(0, PAGE_SIZE - notices))
    rest = others - front
    count = (rest + PAGE_SIZE - 1) // PAGE_SIZE
    pages = [(None, order[: notices + front])]
    for page in range(count - 1, -1, -1):
        low, high = page * PAGE_SIZE, min(rest, page * PAGE_SIZE + PAGE_SIZE)
        # Positions counted from the oldest → listing positions (newest first).
        pages.append((page, order[notices + others - high: notices + others - low]))
    return pages


def test_home_lists_every_board_in_order_with_its_post_count(driver, demo_site, archive):
    driver.get(file_url(demo_site.page("index.html")))
    entries = driver.execute_script(
        """return Array.from(document.querySelectorAll('[data-board-id]')).map(function (row) {
             var link = row.querySelector('a[href]');
             return {id: parseInt(row.getAttribute('data-board-id'), 10), name: link ? link.textContent.trim() : null,
                     text: row.textContent};
           });"""
    )
    assert [entry["id"] for entry in entries] == [board_id for board_id, _ in archive.boards]
    for entry, (board_id, name) in zip(entries, archive.boards):
        assert entry["name"] == name, f"board {board_id} is listed as {entry['name']!r}"
        count = sum(1 for post in archive.posts.values() if post.board_id == board_id)
        assert re.search(rf"(?<!\d){count}(?!\d)", entry["text"]), f"board {board_id} row does not show {count} posts"
    assert any(count == 0 for count in (sum(1 for p in archive.posts.values() if p.board_id == b) for b, _ in archive.boards)), \
        "the demo dataset should include an empty board (it is listed too)"


def test_board_pages_hold_their_rows_in_listing_order(driver, demo_site, archive):
    checked_full_page = False
    for board_id, name in archive.boards:
        expected = board_order(archive, board_id)
        if not expected:
            driver.get(file_url(demo_site.page(board_page_path(board_id))))
            assert driver.find_elements(By.CSS_SELECTOR, ".empty-state"), f"empty board {name} shows no empty state"
            assert not listing_rows(driver), f"empty board {name} lists rows"
            continue
        pages = listing_pages(archive, board_id)
        seen = []
        for index, (page, rows_expected) in enumerate(pages):
            driver.get(file_url(demo_site.page(board_page_path(board_id, page))))
            rows = [row["id"] for row in listing_rows(driver)]
            assert rows == rows_expected, f"{name} page {page}: rows differ"
            if page is not None and index > 1:
                assert len(rows) == PAGE_SIZE, f"{name} archive page {page} has {len(rows)} rows"
                checked_full_page = True
            seen.extend(rows)
        assert seen == expected, f"{name}: rows across pages are not notices first, then newest first"
        assert not demo_site.page(board_page_path(board_id, len(pages) - 1)).exists()
    assert checked_full_page, "the demo dataset should have a board with a full archive page"


def current_page_label(driver):
    current = driver.find_elements(By.CSS_SELECTOR, '.pager [aria-current="page"]')
    assert len(current) <= 1, f"expected at most one aria-current page link, found {len(current)}"
    return current[0].text.strip() if current else None


def test_pager_links_navigate_and_mark_the_current_page(driver, demo_site, archive):
    board_id = max((board for board, _ in archive.boards), key=lambda board: len(board_order(archive, board)))
    count = len(listing_pages(archive, board_id)) - 1
    assert count >= 3, "the largest demo board should have at least three archive pages"
    driver.get(file_url(demo_site.page(board_page_path(board_id))))
    assert current_page_label(driver) is None, "the front page is not a numbered page"

    # Older: the newest archive page, numbered `count` from the oldest.
    driver.find_element(By.CSS_SELECTOR, ".pager .pager-next a").click()
    assert driver.current_url.endswith(f"/boards/{board_id}/page-{count + 1}.html")
    assert current_page_label(driver) == str(count)

    driver.find_element(By.CSS_SELECTOR, ".pager .pager-next a").click()
    assert driver.current_url.endswith(f"/boards/{board_id}/page-{count}.html")
    assert current_page_label(driver) == str(count - 1)
    assert len(listing_rows(driver)) == PAGE_SIZE

    driver.find_element(By.CSS_SELECTOR, ".pager .pager-previous a").click()
    assert driver.current_url.endswith(f"/boards/{board_id}/page-{count + 1}.html")

    driver.find_element(By.CSS_SELECTOR, ".pager .pager-last a").click()
    assert driver.current_url.endswith(f"/boards/{board_id}/page-2.html")
    assert current_page_label(driver) == "1"

    driver.find_element(By.CSS_SELECTOR, ".pager .pager-first a").click()
    assert driver.current_url.endswith(f"/boards/{board_id}/index.html")

    driver.back()
    assert driver.current_url.endswith(f"/boards/{board_id}/page-2.html")


def test_post_page_shows_its_body_with_a_rendered_gfm_table(driver, demo_site, archive):
    with_table = [post for post in archive.posts.values() if re.search(r"^\|?\s*:?-{3,}:?\s*\|", post.contents, re.M)]
    assert with_table, "the demo dataset should have a post with a GFM table"
    post = min(with_table, key=lambda post: post.post_id)
    driver.get(file_url(demo_site.page(f"posts/{post.post_id}.html")))
    body = driver.find_element(By.CSS_SELECTOR, ".post-body")
    header_cells = body.find_elements(By.CSS_SELECTOR, "table thead th")
    data_cells = body.find_elements(By.CSS_SELECTOR, "table tbody td")
    assert header_cells and data_cells, "the post body has no rendered table"
    first_table_line = next(line for line in post.contents.splitlines() if line.strip().startswith("|"))
    expected_headers = [cell.strip() for cell in first_table_line.strip().strip("|").split("|")]
    assert [cell.text.strip() for cell in header_cells[: len(expected_headers)]] == expected_headers
    assert "|---" not in body.text and "| ---" not in body.text, "table source shows as text"
    assert post.title in driver.find_element(By.TAG_NAME, "h1").text


def test_every_link_of_the_home_page_resolves_when_clicked(driver, demo_site):
    home = file_url(demo_site.page("index.html"))
    driver.get(home)
    count = len(driver.find_elements(By.CSS_SELECTOR, "a[href]"))
    assert count >= 7, "the home page should link to itself and to every board"
    for index in range(count):
        driver.get(home)
        link = driver.find_elements(By.CSS_SELECTOR, "a[href]")[index]
        label, href = link.get_attribute("textContent"), link.get_attribute("href")
        if "skip-link" in (link.get_attribute("class") or ""):
            # Off-screen until focused: reached by keyboard (test_accessibility), it moves to the page's main.
            link.send_keys(Keys.ENTER)
            assert driver.current_url == home + "#main"
            continue
        link.click()
        assert_no_dialog(driver, driver.current_url)
        assert driver.current_url.startswith("file://"), f"{label!r} left file:// for {driver.current_url}"
        if href.endswith(".xml"):
            assert "http://www.w3.org/2005/Atom" in driver.page_source, f"{label!r} ({href}) opened no Atom feed"
            continue
        assert driver.find_elements(By.CSS_SELECTOR, "main"), f"{label!r} ({href}) opened no archive page"
        assert "아카이브" in driver.title, f"{label!r} ({href}) opened {driver.title!r}, not an archive page"


def local_path(url: str) -> Path:
    return Path(unquote(urlsplit(url).path))


def test_every_page_opens_without_a_dialog_and_every_link_resolves(driver, demo_site):
    """Opens every page of the demo site (hostile posts included) and resolves every href/src it holds."""
    pages = sorted(demo_site.root.rglob("*.html"))
    assert len(pages) > 200
    broken = []
    for page in pages:
        driver.get(file_url(page))
        assert_no_dialog(driver, str(page.relative_to(demo_site.root)))
        found = driver.execute_script(
            """return {
                 main: document.querySelector('main') !== null,
                 urls: Array.from(document.querySelectorAll('[href], [src]')).map(function (node) {
                   return node.href || node.src || ''; })
               };"""
        )
        assert found["main"], f"{page} has no <main>"
        for url in found["urls"]:
            if not url.startswith("file://"):
                broken.append((str(page.relative_to(demo_site.root)), url))
                continue
            target = local_path(url)
            if not target.is_file() or demo_site.root not in target.parents:
                broken.append((str(page.relative_to(demo_site.root)), url))
    assert not broken, f"links that do not resolve to a file of the site: {broken[:10]}"
