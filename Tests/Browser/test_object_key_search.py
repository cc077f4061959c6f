"""Search for words every JavaScript object inherits (constructor, __proto__, toString, …) in a real browser.

search.js once used plain objects as lookup tables: `seen['constructor']` was already truthy, so
search.html?q=constructor showed the empty-query prompt and `constructor huge` ignored its first word. The site
here is the demo store with such words written into some titles and bodies; every query must equal the
brute-force oracle, and random queries mixing them with the archive's own text must too.
"""

from __future__ import annotations

import datetime as dt
import random
import sqlite3

import pytest
from selenium.webdriver.common.by import By

from browser_support import TIME_ZONE, TIME_ZONE_NAME, Archive
from conftest import BuiltSite, run_boardarchive
from test_search import assert_results_match_oracle, open_search

OBJECT_KEYS = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "prototype", "__defineGetter__"]


@pytest.fixture(scope="module")
def key_site(demo_site, work_dir) -> BuiltSite:
    """The demo store with inherited names in titles and bodies, built into its own folder."""
    store = work_dir / "object-keys.sqlite"
    source = sqlite3.connect(f"file:{demo_site.store}?mode=ro", uri=True)
    target = sqlite3.connect(store)
    try:
        source.backup(target)
        ids = [row[0] for row in target.execute("SELECT postId FROM post ORDER BY postId LIMIT 8")]
        titles = ["constructor huge 안내", "__proto__ 설정", "toString 과 valueOf", "Constructor 모임", "huge 공지"]
        for post_id, title in zip(ids, titles):
            target.execute("UPDATE post SET title = ? WHERE postId = ?", (title, post_id))
        for post_id in ids[5:]:
            target.execute("UPDATE post SET contents = contents || ' hasOwnProperty prototype __defineGetter__' WHERE postId = ?", (post_id,))
        target.commit()
    finally:
        source.close()
        target.close()
    site = work_dir / "object-keys"
    run_boardarchive("build", "--store", str(store), "--out", str(site), "--timezone", TIME_ZONE_NAME)
    return BuiltSite(site, store, dt.datetime.now(TIME_ZONE).date())


@pytest.fixture(scope="module")
def key_archive(key_site) -> Archive:
    return Archive(key_site.store, key_site.root)


QUERIES = OBJECT_KEYS + ["constructor huge", "huge constructor", "__proto__ 설정", "CONSTRUCTOR", "proto", "__"]


@pytest.mark.parametrize("query", QUERIES)
def test_inherited_names_are_searched_like_any_word(driver, key_site, key_archive, query):
    ids = open_search(driver, key_site, query, "all")
    assert_results_match_oracle(ids, key_archive, query, "all")
    assert ids, f"{query!r} found nothing, though the site holds it"
    prompt = driver.find_element(By.ID, "search-app").get_attribute("data-s-prompt")
    status = driver.find_element(By.ID, "search-status").text
    assert prompt and status != prompt, f"{query!r} showed the empty-query prompt"


def test_random_queries_mixing_inherited_names_and_archive_text_equal_the_oracle(driver, key_site, key_archive):
    generator = random.Random(20261123)
    posts = sorted(key_archive.posts.values(), key=lambda post: post.post_id)
    for _ in range(12):
        post = generator.choice(posts)
        text = generator.choice([post.title, post.contents, post.writer]) or post.title
        start = generator.randrange(max(1, len(text)))
        piece = text[start:start + generator.randint(1, 3)].strip() or text[:2]
        query = " ".join(generator.sample([piece, generator.choice(OBJECT_KEYS)], 2)) if generator.random() < 0.5 else generator.choice(OBJECT_KEYS)
        target = generator.choice(["all", "title", "contents", "writer"])
        ids = open_search(driver, key_site, query, target)
        assert_results_match_oracle(ids, key_archive, query, target)
