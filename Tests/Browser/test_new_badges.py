"""New badges stay true offline: the page script re-evaluates them against the reader's clock.

The "past" site is the demo store rebuilt with `--now` at the end of a day at least three days ago, so its
build-time badges (and HH:mm labels) are stale for the reader. With JavaScript the script must drop them and
relabel those dates yy-MM-dd; without JavaScript the build-time rendering stands.
"""

from __future__ import annotations

import datetime as dt

import pytest

from browser_support import TIME_ZONE, file_url, listing_rows, local_day, short_label, today


def pages_listing(site, post_ids: set[int]) -> list[str]:
    """Relative paths of the board pages and post pages that show any of `post_ids`, plus the home page."""
    markers = [f'data-post-id="{post_id}"' for post_id in post_ids]
    found = ["index.html"]
    for page in sorted(site.root.glob("boards/*/*.html")):
        text = page.read_text(encoding="utf-8")
        if any(marker in text for marker in markers):
            found.append(str(page.relative_to(site.root)))
    found.extend(f"posts/{post_id}.html" for post_id in sorted(post_ids))
    return found


def check_page(driver, site, relative: str, archive, day: dt.date) -> list[str]:
    """Problems on one page: rows whose badge or short date label disagree with `day` as "today"."""
    driver.get(file_url(site.page(relative)))
    problems = []
    rows = listing_rows(driver)
    if relative != "index.html":
        assert rows, f"{relative} shows no post rows"
    for row in rows:
        post = archive.posts[row["id"]]
        should_badge = local_day(post.created_at) == day
        if row["badge"] != should_badge:
            problems.append(f"{relative}: post {post.post_id} badge={row['badge']}, expected {should_badge}")
        if row["format"] == "short" and row["label"] != short_label(post.created_at, day):
            problems.append(
                f"{relative}: post {post.post_id} label {row['label']!r}, expected {short_label(post.created_at, day)!r}"
            )
    boards = driver.execute_script(
        """return Array.from(document.querySelectorAll('[data-board-id]')).map(function (row) {
             return {id: parseInt(row.getAttribute('data-board-id'), 10), badge: row.querySelector('.new-badge') !== null};
           });"""
    )
    for board in boards:
        should_badge = any(
            post.board_id == board["id"] and local_day(post.created_at) == day for post in archive.posts.values()
        )
        if board["badge"] != should_badge:
            problems.append(f"{relative}: board {board['id']} badge={board['badge']}, expected {should_badge}")
    return problems


def stale_posts(past_site, archive) -> set[int]:
    stale = archive.created_on(past_site.build_day)
    assert stale, f"no post was written on the past build day {past_site.build_day}"
    assert past_site.build_day < today() - dt.timedelta(days=1)
    return stale


def test_stale_badges_stand_without_javascript(nojs_driver, past_site, archive):
    stale = stale_posts(past_site, archive)
    problems = []
    for relative in pages_listing(past_site, stale):
        problems += check_page(nojs_driver, past_site, relative, archive, past_site.build_day)
    assert not problems, "build-time badges and labels changed without JavaScript:\n" + "\n".join(problems)


def test_stale_badges_are_removed_and_dates_relabelled_with_javascript(driver, past_site, archive):
    stale = stale_posts(past_site, archive)
    reader_day = today()
    pages = pages_listing(past_site, stale)
    problems = []
    for relative in pages:
        problems += check_page(driver, past_site, relative, archive, reader_day)
    if today() != reader_day:
        pytest.skip("the reader's day changed during the test (midnight in Asia/Seoul); run it again")
    assert not problems, "the page script left stale badges or labels:\n" + "\n".join(problems)


def test_badges_for_todays_posts_remain_on_the_fresh_site_with_javascript(driver, nojs_driver, demo_site, archive):
    reader_day = today()
    fresh = archive.created_on(reader_day)
    if reader_day != demo_site.build_day or not fresh:
        pytest.skip("no post of today in Asia/Seoul: the demo was built within minutes of midnight there")
    pages = pages_listing(demo_site, fresh)
    problems = []
    for relative in pages:
        problems += check_page(driver, demo_site, relative, archive, reader_day)
        problems += [f"without JavaScript: {problem}"
                     for problem in check_page(nojs_driver, demo_site, relative, archive, reader_day)]
    if today() != reader_day:
        pytest.skip("the reader's day changed during the test (midnight in Asia/Seoul); run it again")
    assert not problems, "badges of today's posts are wrong on the fresh site:\n" + "\n".join(problems)
    driver.get(file_url(demo_site.page(pages[1] if len(pages) > 1 else pages[0])))
    assert any(row["badge"] for row in listing_rows(driver)), "no new badge is shown for today's posts"


def test_search_rows_carry_the_badges_and_date_labels_of_the_board_pages(driver, past_site, archive):
    """search.js builds its rows' dates with site.js's date module: the same badges and labels, for the reader's day."""
    from selenium.webdriver.support.ui import WebDriverWait

    reader_day = today()
    driver.get(file_url(past_site.page("search.html")) + "?q=%EC%9D%B4&target=all")
    WebDriverWait(driver, 15).until(
        lambda browser: browser.find_element("id", "search-app").get_attribute("data-ready"),
        message="the search did not finish",
    )
    rows = [row for row in listing_rows(driver) if row["tag"] == "tr"]
    assert rows, "the search for 이 shows no rows"
    problems = []
    for row in rows:
        post = archive.posts[row["id"]]
        should_badge = local_day(post.created_at) == reader_day
        if row["badge"] != should_badge:
            problems.append(f"post {post.post_id} badge={row['badge']}, expected {should_badge}")
        if row["label"] != short_label(post.created_at, reader_day):
            problems.append(f"post {post.post_id} label {row['label']!r}, expected {short_label(post.created_at, reader_day)!r}")
    titles = driver.execute_script(
        "return Array.from(document.querySelectorAll('#search-results time')).map(function (t) { return t.title; });")
    for row, title in zip(rows, titles):
        created = dt.datetime.fromtimestamp(archive.posts[row["id"]].created_at, TIME_ZONE)
        if title != created.strftime("%Y-%m-%d %H:%M:%S"):
            problems.append(f"post {row['id']} title {title!r}, expected {created:%Y-%m-%d %H:%M:%S}")
    if today() != reader_day:
        pytest.skip("the reader's day changed during the test (midnight in Asia/Seoul); run it again")
    assert not problems, "search rows disagree with the board pages' dates:\n" + "\n".join(problems)
