"""A first query of several common words fills its first page (issue 29), on a generated archive large enough that
such a query paused with 7–21 rows before: the rows are the oracle's first 30 in listing order, and the index files
the query loaded stay within the first query's 150 kB."""

from __future__ import annotations

import datetime as dt

import pytest

from browser_support import Archive, assert_no_dialog, file_url
from conftest import BuiltSite, run_boardarchive
from test_search import require_search_page, result_ids, wait_ready

# Queries of two to four common words of the benchmark vocabulary, each word in 5–25 % of the posts, all of them
# together in about one post in a hundred or fewer (the generated archive: `bench-data --seed 42`).
# The last three paused at 21-25 rows before each post had a head (its record and first contents piece in one file).
QUERIES = [("회의실 예약", "all"), ("서버 배포 오류 확인", "all"), ("초안 검토", "all"), ("업데이트", "contents"),
           ("엘리베이터 서버", "all"), ("데이터베이스 release", "contents"), ("재시도 notes", "contents")]
NOW = "2026-01-15T12:00:00Z"


@pytest.fixture(scope="session")
def bench_site(work_dir) -> BuiltSite:
    """20,000 generated posts on 4 boards (10 search blocks), built without keyword pages."""
    store, site = work_dir / "bench.sqlite", work_dir / "bench-site"
    run_boardarchive("bench-data", "--posts", "20000", "--boards", "4", "--seed", "42", "--now", NOW, "--store", str(store))
    run_boardarchive("build", "--store", str(store), "--out", str(site), "--now", NOW, "--top-keywords", "0", "--quiet")
    return BuiltSite(site, store, dt.date(2026, 1, 15))


@pytest.fixture(scope="session")
def bench_archive(bench_site) -> Archive:
    return Archive(bench_site.store, bench_site.root)


def index_bytes(site: BuiltSite, shards: list[str]) -> int:
    return sum((site.root / "search" / f"{shard}.js").stat().st_size for shard in set(shards) | {"manifest"}
               if (site.root / "search" / f"{shard}.js").is_file())


@pytest.mark.parametrize("query,target", QUERIES)
def test_several_common_words_fill_the_first_page(driver, bench_site, bench_archive, query, target):
    expected = bench_archive.in_listing_order(bench_archive.search(query, target))
    assert len(expected) >= 60, f"{query!r} has {len(expected)} matches: too few to show a full page and more"
    driver.get(file_url(bench_site.page("search.html"), q=query, target=target))
    require_search_page(driver, bench_site)
    wait_ready(driver, what=f"the search for {query!r} ({target})")
    assert_no_dialog(driver, f"the results of {query!r}")
    shown = result_ids(driver)  # the first page, before any "more"
    run = driver.execute_script("return window.BoardArchiveSearch.lastRun")
    assert shown == expected[:30], f"{query!r} ({target}) showed {len(shown)} rows: {shown[:5]}… (the oracle's: {expected[:5]}…)"
    loaded = index_bytes(bench_site, run["shards"])
    assert loaded <= 150_000, f"{query!r} loaded {loaded} bytes of index files"
