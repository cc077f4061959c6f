"""The search issue in a real browser over file://: search.html against the brute-force oracle.

The oracle (browser_support.Archive.search) reads the store with sqlite3 and scans every published post:
NFKC + case folding, every query word required, in any field of the target. The page is driven through its
URL (search.html?q=…&target=…&board=…), "more" is clicked until every result shows.
"""

from __future__ import annotations

import shutil
import unicodedata

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browser_support import (
    MARKS_SCRIPT, REPO_ROOT, TIME_ZONE_NAME, XSS_TITLE, assert_no_dialog, count_occurrences, file_url, normalize,
)
from conftest import BuiltSite, run_boardarchive

TARGET_LABELS = {"all": "전체", "title": "제목", "contents": "내용", "writer": "작성자"}
RECENT_KEY = "boardarchive.recentSearches"


def ready_state(driver):
    return driver.find_element(By.ID, "search-app").get_attribute("data-ready")


def wait_ready(driver, previous=None, what="the search"):
    """Waits until search.js marks a finished run (or "more") with a data-ready value other than `previous`."""
    def finished(browser):
        value = ready_state(browser)
        return value if value and value != previous else False
    return WebDriverWait(driver, 15).until(finished, message=f"{what} did not finish (no new #search-app[data-ready])")


def result_ids(driver) -> list[int]:
    return [int(value) for value in driver.execute_script(
        "return Array.from(document.querySelectorAll('#search-results tr[data-post-id]'))"
        ".map(function (row) { return row.getAttribute('data-post-id'); });")]


def show_all(driver) -> list[int]:
    """Clicks "more" until it is hidden; returns every result's post id in page order."""
    for _ in range(100):
        more = driver.find_element(By.ID, "search-more")
        if more.get_property("hidden") or not more.is_displayed():
            return result_ids(driver)
        before, shown = ready_state(driver), len(result_ids(driver))
        more.click()
        wait_ready(driver, before, "'more'")
        assert len(result_ids(driver)) > shown, "'more' added no rows"
    raise AssertionError("'more' never ran out")


def require_search_page(driver, site):
    """Fails at once (instead of timing out) when the build wrote no search page."""
    page = site.page("search.html")
    assert page.is_file(), f"the build wrote no {page.name} (the search phase is not part of the build)"
    assert driver.find_elements(By.ID, "search-app"), f"{driver.current_url} has no #search-app"


def open_search(driver, site, query: str, target: str = "all", board: int | None = None) -> list[int]:
    params = {"q": query, "target": target}
    if board is not None:
        params["board"] = str(board)
    driver.get(file_url(site.page("search.html"), **params))
    assert_no_dialog(driver, f"search.html?q={query}")
    require_search_page(driver, site)
    wait_ready(driver, what=f"the search for {query!r} ({target})")
    assert_no_dialog(driver, f"the results of {query!r}")
    return show_all(driver)


def board_named(archive, name: str) -> int:
    return next(board_id for board_id, board_name in archive.boards if board_name == name)


def assert_results_match_oracle(ids, archive, query, target, board=None):
    expected = archive.search(query, target, board)
    missing, extra = expected - set(ids), set(ids) - expected
    assert not missing and not extra, (
        f"{query!r} ({target}, board {board}): missing {sorted(missing)} "
        f"{[archive.posts[i].title for i in sorted(missing)][:5]}, unexpected {sorted(extra)}"
    )
    assert len(ids) == len(set(ids)), f"{query!r} ({target}): a post is listed twice"
    assert ids == archive.in_listing_order(ids), f"{query!r} ({target}): not notices first, then newest first"


NFD_SEOUL = unicodedata.normalize("NFD", "서울")
# (test id, query, target, board name or None for all boards)
CASES = [
    ("seoul-all", "서울", "all", None), ("seoul-title", "서울", "title", None),
    ("seoul-contents", "서울", "contents", None), ("seoul-writer-none", "서울", "writer", None),
    ("seoul-city-hall-all", "서울시청", "all", None), ("seoul-eun-title", "서울은", "title", None),
    ("two-words-all", "서울 모임", "all", None), ("seoul-one-board", "서울", "all", "서울 지역 모임"),
    ("share-all-two-pages", "공유", "all", None), ("share-contents", "공유", "contents", None),
    ("one-syllable-all-many-pages", "이", "all", None), ("upper-swift-title", "SWIFT", "title", None),
    ("swift-contents", "swift", "contents", None), ("kim-hangul-writer", "김", "writer", None),
    ("kim-latin-writer", "KIM", "writer", None), ("anonymous-writer", "익명", "writer", None),
    ("anonymous-title", "익명", "title", None), ("nfd-seoul-all", NFD_SEOUL, "all", None),
    ("fullwidth-sqlite-title", "ＳＱＬｉｔｅ", "title", None),
]


@pytest.mark.parametrize(("query", "target", "board_name"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_every_target_returns_exactly_the_oracle_in_listing_order(driver, demo_site, archive, query, target, board_name):
    board = board_named(archive, board_name) if board_name else None
    ids = open_search(driver, demo_site, query, target, board)
    assert_results_match_oracle(ids, archive, query, target, board)


def test_korean_substring_query_finds_words_with_particles_and_compounds(driver, demo_site, archive):
    ids = open_search(driver, demo_site, "서울", "title")
    titles = [archive.posts[post_id].title for post_id in ids]
    assert any("서울은" in title for title in titles), f"서울 did not find 서울은 in {titles}"
    assert any("서울시청" in title for title in titles), f"서울 did not find 서울시청 in {titles}"
    assert any("서울에서" in title for title in titles), f"서울 did not find 서울에서 in {titles}"
    narrower = open_search(driver, demo_site, "서울시청", "title")
    assert set(narrower) < set(ids), "서울시청 should narrow the 서울 results"


def test_targets_narrow_the_results(driver, demo_site, archive):
    everything = set(open_search(driver, demo_site, "서울", "all"))
    for target in ("title", "contents", "writer"):
        narrowed = set(open_search(driver, demo_site, "서울", target))
        assert narrowed <= everything, f"{target} found posts that 'all' did not"
    titles, contents = archive.search("서울", "title"), archive.search("서울", "contents")
    assert titles != contents, "the dataset should tell title and contents matches apart"


@pytest.mark.parametrize(("query", "target"), [("서울", "title"), ("SWIFT", "all"), ("김", "writer"),
                                               ("공유", "contents"), ("서울 모임", "title")],
                         ids=["seoul-title", "upper-swift-all", "kim-writer", "share-contents", "two-words-title"])
def test_highlights_mark_exactly_the_matched_text(driver, demo_site, archive, query, target):
    ids = open_search(driver, demo_site, query, target)
    assert ids, f"{query!r} ({target}) found nothing"
    words = [normalize(word) for word in query.split()]
    rows = driver.execute_script(MARKS_SCRIPT)
    for row in rows:
        post = archive.posts[row["id"]]
        assert row["title"] == post.title, f"post {post.post_id}: the title text changed to {row['title']!r}"
        assert row["writer"] == post.writer, f"post {post.post_id}: the writer text changed to {row['writer']!r}"
        assert row["elementsInLink"] == 0, f"post {post.post_id}: the title holds elements other than <mark>"
        for cell in ("titleMarks", "writerMarks", "snippetMarks"):
            for mark in row[cell] or []:
                assert normalize(mark) in words, f"post {post.post_id}: <mark>{mark}</mark> is not a query word"
        for field, cell in (("title", "titleMarks"), ("writer", "writerMarks")):
            expected = sum(count_occurrences(post.field(field), word) for word in words)
            assert len(row[cell]) == expected, (
                f"post {post.post_id}: {len(row[cell])} marks in the {field} {post.field(field)!r}, expected {expected}"
            )
        if target in ("title", "writer"):
            assert row["titleMarks" if target == "title" else "writerMarks"], f"post {post.post_id}: nothing marked"
        if target == "contents":
            assert row["snippetMarks"], f"post {post.post_id}: a contents match shows no marked snippet"
            assert any(normalize(word) in normalize(row["snippet"]) for word in words)


def test_xss_title_shows_as_text_in_results_and_no_dialog_opens(driver, demo_site, archive):
    xss = [post.post_id for post in archive.posts.values() if post.title == XSS_TITLE]
    assert xss
    for query, target in (("onerror", "all"), ("<img", "title"), ("img src", "all")):
        ids = open_search(driver, demo_site, query, target)
        assert xss[0] in ids, f"{query!r} did not find the XSS post"
        link = driver.find_element(By.CSS_SELECTOR, f'#search-results tr[data-post-id="{xss[0]}"] .post-title a')
        assert link.text == XSS_TITLE
        assert not driver.find_elements(By.CSS_SELECTOR, "#search-results img, img[src='x']"), "data became an <img>"
        assert_no_dialog(driver, f"the results of {query!r}")
    link.click()
    assert driver.current_url.endswith(f"/posts/{xss[0]}.html")
    assert_no_dialog(driver, "the XSS post opened from the results")


def status_text(driver) -> str:
    return driver.find_element(By.ID, "search-status").text.strip()


def test_no_results_message_names_the_query_and_the_target(driver, demo_site, archive):
    for query, target in (("없는검색어", "writer"), ("서울", "writer"), ("zzqx", "all")):
        assert not archive.search(query, target)
        assert open_search(driver, demo_site, query, target) == []
        message = status_text(driver)
        assert query in message, f"the no-result message {message!r} does not name {query!r}"
        assert TARGET_LABELS[target] in message, f"the no-result message {message!r} does not name the target"
        assert driver.find_element(By.ID, "search-table").get_property("hidden"), "an empty result table shows"


def recent_entries(driver) -> list[tuple[str, str]]:
    """The recent searches the page shows: (query, target label), top first."""
    return [tuple(entry) for entry in driver.execute_script(
        """return Array.from(document.querySelectorAll('#search-recent-list li')).map(function (item) {
             var run = item.querySelector('.recent-run'), label = item.querySelector('.recent-target');
             var query = run ? run.firstChild.textContent.trim() : item.textContent.trim();
             return [query, label ? label.textContent.trim() : ''];
           });""")]


def clear_storage(driver, site):
    driver.get(file_url(site.page("index.html")))
    driver.execute_script("window.localStorage.clear();")


def open_empty_search(driver, site):
    driver.get(file_url(site.page("search.html")))
    assert_no_dialog(driver, "search.html with no query")
    require_search_page(driver, site)
    recent = driver.find_element(By.ID, "search-recent")
    assert not recent.get_property("hidden") and recent.is_displayed(), "recent searches hidden with an empty box"


def test_empty_query_shows_a_prompt_then_the_recent_searches(driver, demo_site):
    clear_storage(driver, demo_site)
    open_empty_search(driver, demo_site)
    assert status_text(driver), "no prompt when there is no query and no recent search"
    assert result_ids(driver) == [] and recent_entries(driver) == []
    assert driver.find_element(By.ID, "search-table").get_property("hidden")

    open_search(driver, demo_site, "서울", "title")
    open_empty_search(driver, demo_site)
    assert recent_entries(driver) == [("서울", "제목")]
    assert result_ids(driver) == []


def test_recent_searches_survive_a_reload_and_can_be_deleted_and_cleared(driver, demo_site, archive):
    clear_storage(driver, demo_site)
    for query, target in (("서울", "title"), ("공유", "all"), ("김", "writer"), ("서울", "title")):
        open_search(driver, demo_site, query, target)
    open_empty_search(driver, demo_site)
    expected = [("서울", "제목"), ("김", "작성자"), ("공유", "전체")]
    assert recent_entries(driver) == expected, "not most recent first, de-duplicated"
    driver.refresh()
    assert recent_entries(driver) == expected, "recent searches did not survive a reload"

    items = driver.find_elements(By.CSS_SELECTOR, "#search-recent-list li")
    items[1].find_element(By.CSS_SELECTOR, ".recent-remove").click()
    assert recent_entries(driver) == [expected[0], expected[2]], "removing one search removed the wrong ones"
    driver.refresh()
    assert recent_entries(driver) == [expected[0], expected[2]], "a removed search came back after a reload"

    # Selecting one runs it.
    before = ready_state(driver)
    driver.find_elements(By.CSS_SELECTOR, "#search-recent-list li .recent-run")[1].click()
    wait_ready(driver, before, "the recent search")
    assert "q=%EA%B3%B5%EC%9C%A0" in driver.current_url or "q=공유" in driver.current_url
    assert_results_match_oracle(show_all(driver), archive, "공유", "all")

    open_empty_search(driver, demo_site)
    driver.find_element(By.ID, "search-recent-clear").click()
    assert recent_entries(driver) == []
    driver.refresh()
    assert recent_entries(driver) == [], "cleared searches came back after a reload"
    assert driver.execute_script(f"return JSON.parse(localStorage.getItem('{RECENT_KEY}') || '[]').length") == 0


def test_recent_searches_keep_at_most_ten(driver, demo_site):
    clear_storage(driver, demo_site)
    queries = [f"검색{number}" for number in range(12)]
    open_search(driver, demo_site, queries[0], "title")
    for query in queries[1:]:  # through the page's own form (history.pushState, no reload)
        box, before = driver.find_element(By.ID, "search-query"), ready_state(driver)
        box.clear()
        box.send_keys(query, Keys.ENTER)
        wait_ready(driver, before, f"the search for {query!r}")
    open_empty_search(driver, demo_site)
    assert [query for query, _ in recent_entries(driver)] == list(reversed(queries))[:10]


def test_the_back_button_returns_to_the_previous_search(driver, demo_site, archive):
    open_search(driver, demo_site, "서울", "all")
    box = driver.find_element(By.ID, "search-query")
    box.clear()
    before = ready_state(driver)
    box.send_keys("공유", Keys.ENTER)
    wait_ready(driver, before, "the submitted search")
    assert "target=all" in driver.current_url
    assert_results_match_oracle(show_all(driver), archive, "공유", "all")
    before = ready_state(driver)
    driver.back()
    wait_ready(driver, before, "the search after 'back'")
    assert_results_match_oracle(show_all(driver), archive, "서울", "all")


@pytest.mark.parametrize("page", ["index.html", "boards/{board}/page-2.html", "posts/{post}.html"],
                         ids=["home", "board-page-2", "post"])
def test_the_search_box_of_every_page_leads_to_the_search_page(driver, demo_site, archive, page):
    busiest = max((board for board, _ in archive.boards),
                  key=lambda board: sum(1 for post in archive.posts.values() if post.board_id == board))
    relative = page.format(board=busiest, post=min(archive.posts))
    driver.get(file_url(demo_site.page(relative)))
    box = driver.find_element(By.ID, "site-search")
    assert demo_site.page("search.html").is_file(), "the build wrote no search.html"
    box.send_keys("서울", Keys.ENTER)
    wait_ready(driver, what=f"the search started from {relative}")
    assert driver.current_url.split("?")[0] == demo_site.page("search.html").resolve().as_uri()
    assert_results_match_oracle(show_all(driver), archive, "서울", "all")


def test_the_search_page_links_to_the_keyword_page_of_its_query(driver, demo_site):
    assert demo_site.page("keywords/index.html").is_file(), "the build wrote no keywords/index.html"
    driver.get(file_url(demo_site.page("keywords/index.html")))
    keyword_links = driver.find_elements(By.CSS_SELECTOR, ".keyword-entry a")
    assert keyword_links, "keywords/index.html lists no keyword"
    keyword = keyword_links[0].text.strip()
    open_search(driver, demo_site, keyword, "all")
    box = driver.find_element(By.ID, "search-keyword")
    assert not box.get_property("hidden"), f"no keyword-page link for the query {keyword!r}"
    link = box.find_element(By.TAG_NAME, "a")
    link.click()
    assert "/keywords/" in driver.current_url and driver.current_url.endswith(".html")
    assert driver.find_element(By.CSS_SELECTOR, "h1").text.strip() == keyword


ROW_MARKUP_SCRIPT = """
return Array.from(document.querySelectorAll(arguments[0])).map(function (row) {
  return [row.getAttribute('data-post-id'), row.outerHTML.replace(/href="(\\.\\.\\/)?posts\\//g, 'href="posts/')];
});"""


def rows_compared_with_keyword_pages(driver, site, keywords_tried: int = 3) -> int:
    """Compares each result row of a keyword's search with the same post's row on the keyword's page; returns how
    many rows were on both (links aside, which are relative to each page)."""
    driver.get(file_url(site.page("keywords/index.html")))
    keywords = [link.text.strip() for link in driver.find_elements(By.CSS_SELECTOR, ".keyword-entry a")]
    assert keywords, "keywords/index.html lists no keyword"
    compared = 0
    for keyword in keywords[:keywords_tried]:
        driver.find_element(By.LINK_TEXT, keyword).click()
        # Both pages refresh dates and "new" badges against the reader's clock (site.js) once loaded.
        expected = dict(driver.execute_script(ROW_MARKUP_SCRIPT, "table.keyword-results tr[data-post-id]"))
        open_search(driver, site, keyword, "all")
        shown = driver.execute_script(ROW_MARKUP_SCRIPT, "#search-results tr[data-post-id]")
        assert shown, f"the search for {keyword!r} shows no row"
        for post_id, markup in shown:
            if post_id in expected:
                assert markup == expected[post_id], f"post {post_id} for {keyword!r}:\n{markup}\n!=\n{expected[post_id]}"
                compared += 1
        driver.get(file_url(site.page("keywords/index.html")))
    return compared


def test_a_result_row_is_the_keyword_pages_row_of_the_same_post(driver, demo_site):
    """One row partial: search.js fills the <template> the build rendered from partials/post-row, so a result row is
    the markup of the same post's row on the keyword page of the query (links aside, which are relative to each page)."""
    compared = rows_compared_with_keyword_pages(driver, demo_site)
    assert compared >= 10, f"only {compared} rows were on both pages"


def test_a_section_on_a_number_shows_for_zero_as_the_build_shows_it(driver, demo_site, work_dir):
    """swift-mustache shows a section on 0 (only false and a missing value are falsy): a row partial with
    {{#commentsCount}} prints the count of a post without comments on keyword pages, and search.js must too."""
    templates = work_dir / "zero-count-templates"
    if not templates.exists():
        shutil.copytree(REPO_ROOT / "templates", templates)
        row = templates / "partials" / "post-row.mustache"
        text = row.read_text(encoding="utf-8")
        assert "{{#hasComments}}" in text, "the row partial no longer has the section this test changes"
        row.write_text(text.replace("{{#hasComments}}", "{{#commentsCount}}").replace("{{/hasComments}}", "{{/commentsCount}}"), encoding="utf-8")
    site = BuiltSite(work_dir / "zero-count-site", demo_site.store, demo_site.build_day)
    run_boardarchive(
        "build", "--store", str(demo_site.store), "--out", str(site.root), "--templates", str(templates), "--timezone", TIME_ZONE_NAME)
    driver.get(file_url(site.page("keywords/index.html")))
    driver.find_elements(By.CSS_SELECTOR, ".keyword-entry a")[0].click()
    zero = driver.execute_script(
        "return Array.from(document.querySelectorAll('table.keyword-results .comment-count')).filter(function (c) {"
        " return c.textContent.trim() === '[0]'; }).length;")
    assert zero > 0, "no keyword row shows a comment count of 0: the template change did not take"
    compared = rows_compared_with_keyword_pages(driver, site)
    assert compared >= 10, f"only {compared} rows were on both pages"
