"""The search page's limits in a real browser over file://: the shared normaliser cases, a search that pauses on
its byte budget and, continued, still ends with exactly the oracle's results, and recent searches by keyboard."""

from __future__ import annotations

import json
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser_support import REPO_ROOT, assert_no_dialog, file_url
from test_search import (
    assert_results_match_oracle, clear_storage, open_search, ready_state, require_search_page, result_ids, wait_ready,
)

CASES = json.loads((REPO_ROOT / "Tests" / "Shared" / "normalizer-cases.json").read_text(encoding="utf-8"))


def test_normaliser_matches_swift_on_the_shared_cases(driver, demo_site):
    driver.get(file_url(demo_site.page("search.html")))
    require_search_page(driver, demo_site)
    got = driver.execute_script(
        "return arguments[0].map(function (pair) { return window.BoardArchiveSearch.normalize(pair[0]); });", CASES)
    assert len(CASES) >= 30
    wrong = [(source, expected, actual) for (source, expected), actual in zip(CASES, got) if actual != expected]
    assert not wrong, "search.js normalises differently from TextNormalizer: " + ", ".join(
        f"{source!r} → {actual!r} (Swift: {expected!r})" for source, expected, actual in wrong)


def submit(driver, query: str, target: str) -> None:
    before = ready_state(driver)
    driver.execute_script(
        "document.getElementById('search-query').value = arguments[0];"
        "document.getElementById('search-target').value = arguments[1];"
        "document.getElementById('search-form').requestSubmit();", query, target)
    wait_ready(driver, before, f"the search for {query!r}")


def continue_until_done(driver) -> tuple[list[int], list[str]]:
    """Clicks the button under the results ("more" or "search older posts") until it is hidden; returns every
    result and the status lines seen while the search was paused."""
    paused_statuses = []
    for _ in range(400):
        button = driver.find_element(By.ID, "search-more")
        if button.get_property("hidden") or not button.is_displayed():
            return result_ids(driver), paused_statuses
        if button.get_attribute("data-action") == "continue":
            paused_statuses.append(driver.find_element(By.ID, "search-status").text)
        before = ready_state(driver)
        button.click()
        wait_ready(driver, before, "'more' / 'search older posts'")
    raise AssertionError("the search never finished")


@pytest.mark.parametrize(("query", "target"), [("서울시청", "all"), ("서울", "contents"), ("없는검색어", "all")])
def test_a_search_over_its_budget_pauses_says_so_and_continues_to_the_oracle(driver, demo_site, archive, query, target):
    driver.get(file_url(demo_site.page("search.html")))
    require_search_page(driver, demo_site)
    # One byte: every run pauses at its first check after it loaded anything, so the demo index needs many runs.
    driver.execute_script("window.BoardArchiveSearch.setBudget(1);")
    submit(driver, query, target)
    assert_no_dialog(driver, f"the paused search for {query!r}")
    first = driver.find_element(By.ID, "search-more")
    assert first.is_displayed() and first.get_attribute("data-action") == "continue", "a 1-byte budget did not pause"
    assert first.text in ("이전 글 계속 검색", "Search older posts")
    ids, paused = continue_until_done(driver)
    assert paused, "no paused state was shown"
    assert all(query in status for status in paused), paused
    total = len(archive.posts)
    assert any(f"{total}개" in status for status in paused), f"the paused status does not say how many posts exist: {paused}"
    for status in paused:
        searched = re.search(r"(\d+)개(?:를|에서는)", status)
        assert searched, f"the paused status does not say how many posts were searched: {status}"
        assert 0 < int(searched.group(1)) <= total, status
    assert_results_match_oracle(ids, archive, query, target)
    status = driver.find_element(By.ID, "search-status").text
    if not ids:
        assert "없습니다" in status and query in status, status


def test_recent_searches_can_be_reached_by_keyboard_from_a_box_with_text(driver, demo_site):
    clear_storage(driver, demo_site)
    open_search(driver, demo_site, "서울", "title")
    box = driver.find_element(By.ID, "search-query")
    box.click()
    box.send_keys(" 모임")
    recent = driver.find_element(By.ID, "search-recent")
    assert recent.is_displayed(), "the recent searches are not shown while the box has focus"
    for _ in range(8):
        driver.switch_to.active_element.send_keys(Keys.TAB)
        active = driver.switch_to.active_element
        if active.get_attribute("class") == "recent-run":
            assert active.text.startswith("서울")
            break
        assert recent.is_displayed(), f"the list closed while focus moved to {active.tag_name}#{active.get_attribute('id')}"
    else:
        raise AssertionError("Tab never reached a recent search")
    before = ready_state(driver)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_ready(driver, before, "the recent search chosen by keyboard")
    assert "target=title" in driver.current_url


# Pieces a grapheme cluster can be made of: characters that stand alone (ASCII, tab, line feed, Hangul syllables) and
# ones that join (CR LF, conjoining jamo, combining marks, ZWJ emoji, flags, keycaps, a Devanagari conjunct, prepend).
GRAPHEME_PIECES = [
    "a", "Z", " ", "\n", "\r", "\r\n", "\t", "가", "각", "\u1100", "\u1161", "\u11a8", "e\u0301", "\u0301", "\u200d",
    "👨", "👩", "👧", "🇰", "🇷", "\ufe0f", "\u20e3", "#", "क", "\u094d", "ष", "é", "ﬁ", "Å", "\u0600", "😀", "·",
    "\u3000", "\u00a0",
]


def test_graphemes_split_text_as_the_browsers_segmenter_does(driver, demo_site):
    """search.js segments only the stretches around joining characters with Intl.Segmenter; on random text of
    characters that stand alone and ones that join, its clusters are the segmenter's own, everywhere."""
    driver.get(file_url(demo_site.page("search.html")))
    require_search_page(driver, demo_site)
    differences = driver.execute_script("""
        // Lone surrogates too (they cannot cross the WebDriver wire as text).
        var pieces = arguments[0].concat([String.fromCharCode(0xd800), String.fromCharCode(0xdc00)]), seed = 7, wrong = [];
        var segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
        function next(n) { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 16) % n; }
        for (var i = 0; i < 20000 && wrong.length < 5; i++) {
            var value = '', length = next(14);
            for (var k = 0; k < length; k++) { value += pieces[next(pieces.length)]; }
            var got = JSON.stringify(window.BoardArchiveSearch.graphemes(value));
            var want = JSON.stringify(Array.from(segmenter.segment(value), function (s) { return { start: s.index, text: s.segment }; }));
            if (got !== want) { wrong.push([value, got, want]); }
        }
        return wrong;""", GRAPHEME_PIECES)
    assert not differences, "search.js splits graphemes unlike Intl.Segmenter: " + "; ".join(
        f"{value!r}: {got} (segmenter: {want})" for value, got, want in differences)


def test_text_of_standalone_characters_is_marked_and_excerpted_as_by_the_segmenter(driver, demo_site):
    """Text of characters that stand alone skips the segment map (one character, one segment, A-Z lowered) and other
    text is segmented only around joining characters: marks and snippets equal those of the reference map (the
    segmenter over the whole text, normalize() of every segment), on random text of every printable ASCII character,
    tab, line feed and Hangul syllables, with and without a joining character."""
    driver.get(file_url(demo_site.page("search.html")))
    require_search_page(driver, demo_site)
    differences = driver.execute_script("""
        var api = window.BoardArchiveSearch, pieces = ['\\t', '\\n', '가', '서울', '힣', '각'], seed = 11, wrong = [];
        for (var c = 0x20; c <= 0x7e; c++) { pieces.push(String.fromCharCode(c)); }
        function next(n) { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 16) % n; }
        for (var i = 0; i < 4000 && wrong.length < 5; i++) {
            var value = '', length = next(160);
            for (var k = 0; k < length; k++) { value += pieces[next(pieces.length)]; }
            if (i % 2) { var at = next(value.length + 1); value = value.slice(0, at) + 'e\\u0301' + value.slice(at); }
            // Words from the text itself (normalised), so most of them match somewhere.
            var normal = api.normalize(value), words = [];
            for (var w = 0; w < 2 && normal.length; w++) { var from = next(normal.length); words.push(normal.slice(from, from + 1 + next(3)).trim() || 'a'); }
            var fast = JSON.stringify([api.matchRanges(value, words), api.snippet(value, words)]);
            var reference = JSON.stringify([api.matchRanges(value, words, true), api.snippet(value, words, true)]);
            if (fast !== reference) { wrong.push([value, words, fast, reference]); }
        }
        return wrong;""")
    assert not differences, "marks or snippets differ from the reference segment map: " + "; ".join(
        f"{value!r} {words}: {fast} (reference: {reference})" for value, words, fast, reference in differences)
