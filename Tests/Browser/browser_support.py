"""Shared helpers of the real-browser tests: file:// URLs, dialog checks, the archive store and the search oracle.

Everything here is independent of the Swift code under test: the store is read with sqlite3, days are computed
with zoneinfo, and the search oracle is a brute-force substring scan (see ../shared/docs/search-notes.md).
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlencode
from zoneinfo import ZoneInfo

from selenium.common.exceptions import NoAlertPresentException

REPO_ROOT = Path(__file__).resolve().parents[2]
BINARY = REPO_ROOT / ".build" / "debug" / "boardarchive"
TIME_ZONE_NAME = "Asia/Seoul"
TIME_ZONE = ZoneInfo(TIME_ZONE_NAME)
ANONYMOUS_LABEL = "익명"
XSS_TITLE = "<img src=x onerror=alert(1)>"
# Extra --keyword pages of the keyword site: the XSS title's word, two words, and mixed case.
KEYWORDS = ("onerror", "서울 모임", "Swift")


def file_url(path: Path, **params: str) -> str:
    """The file:// URL of `path`, with `params` as a percent-encoded query string."""
    url = path.resolve().as_uri()
    if params:
        url += "?" + urlencode(params, quote_via=quote)
    return url


def assert_no_dialog(driver, where: str) -> None:
    """Fails when a JavaScript dialog (alert, confirm, prompt) is open in the browser."""
    try:
        alert = driver.switch_to.alert
    except NoAlertPresentException:
        return
    text = alert.text
    alert.dismiss()
    raise AssertionError(f"a JavaScript dialog opened on {where}: {text!r}")


def local_day(epoch_seconds: float) -> dt.date:
    """The calendar day of an instant in the archive's time zone."""
    return dt.datetime.fromtimestamp(epoch_seconds, TIME_ZONE).date()


def today() -> dt.date:
    """The reader's (this machine's) calendar day in the archive's time zone."""
    return dt.datetime.now(TIME_ZONE).date()


def short_label(epoch_seconds: float, reference_day: dt.date) -> str:
    """The list date label rule: HH:mm on `reference_day`, yy-MM-dd on any other day."""
    local = dt.datetime.fromtimestamp(epoch_seconds, TIME_ZONE)
    if local.date() == reference_day:
        return local.strftime("%H:%M")
    return local.strftime("%y-%m-%d")


def normalize(text: str) -> str:
    """The oracle's normalisation: Unicode NFKC and case folding."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


@dataclass(frozen=True)
class StoredPost:
    """One post as the archive store holds it, with the writer as a listing shows it."""

    post_id: int
    board_id: int
    title: str
    writer: str
    contents: str
    created_at: int
    post_type: str

    def field(self, name: str) -> str:
        return {"title": self.title, "contents": self.contents, "writer": self.writer}[name]


class Archive:
    """The posts of the archive store that the site publishes (those with a post page)."""

    def __init__(self, store: Path, site: Path):
        connection = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
        try:
            rows = connection.execute(
                "SELECT postId, boardId, title, writerName, isAnonymous, contents, createdAt, postType FROM post"
            ).fetchall()
            self.boards = connection.execute("SELECT boardId, displayName FROM board ORDER BY orderNo").fetchall()
        finally:
            connection.close()
        self.posts = {}
        for post_id, board_id, title, writer, anonymous, contents, created_at, post_type in rows:
            if not (site / "posts" / f"{post_id}.html").is_file():
                continue
            self.posts[post_id] = StoredPost(
                post_id, board_id, title, ANONYMOUS_LABEL if anonymous else writer, contents, int(created_at), post_type
            )

    def search(self, query: str, target: str, board: int | None = None) -> set[int]:
        """The brute-force oracle: every query word must occur (normalised) in one of the target's fields."""
        fields = ["title", "writer", "contents"] if target == "all" else [target]
        words = [normalize(word) for word in query.split()]
        words = [word for word in words if word]
        found = set()
        for post in self.posts.values():
            if board is not None and post.board_id != board:
                continue
            texts = [normalize(post.field(name)) for name in fields]
            if words and all(any(word in text for text in texts) for word in words):
                found.add(post.post_id)
        return found

    def in_listing_order(self, post_ids) -> list[int]:
        """`post_ids` in the order every listing uses: notices first, then newest first, ties by postId descending."""
        posts = [self.posts[post_id] for post_id in post_ids]
        posts.sort(key=lambda post: (post.post_type != "notice", -post.created_at, -post.post_id))
        return [post.post_id for post in posts]

    def created_on(self, day: dt.date) -> set[int]:
        """The posts created on `day` in the archive's time zone."""
        return {post.post_id for post in self.posts.values() if local_day(post.created_at) == day}


# One round trip per page: every listing row (or post article) with its badge and date label.
ROWS_SCRIPT = """
return Array.from(document.querySelectorAll('[data-post-id]')).map(function (row) {
  var time = row.querySelector('time[datetime]');
  return {
    id: parseInt(row.getAttribute('data-post-id'), 10),
    type: row.getAttribute('data-post-type'),
    tag: row.tagName.toLowerCase(),
    badge: row.querySelector('.new-badge') !== null,
    label: time ? time.textContent.trim() : null,
    format: time ? time.getAttribute('data-format') : null
  };
});
"""


# Every <mark> of every row, by cell: title link, snippet, writer; and the plain text of those cells.
MARKS_SCRIPT = """
return Array.from(document.querySelectorAll('tr[data-post-id]')).map(function (row) {
  function marks(selector) {
    var node = row.querySelector(selector);
    return node ? Array.from(node.querySelectorAll('mark')).map(function (m) { return m.textContent; }) : null;
  }
  function text(selector) { var node = row.querySelector(selector); return node ? node.textContent : null; }
  return {
    id: parseInt(row.getAttribute('data-post-id'), 10),
    title: text('.post-title a'), titleMarks: marks('.post-title a'),
    snippet: text('.search-snippet'), snippetMarks: marks('.search-snippet'),
    writer: text('.post-writer'), writerMarks: marks('.post-writer'),
    elementsInLink: row.querySelectorAll('.post-title a *:not(mark)').length
  };
});
"""


def count_occurrences(text: str, word: str) -> int:
    """Non-overlapping occurrences of the normalised `word` in the normalised `text`."""
    return normalize(text).count(normalize(word)) if word else 0


def listing_rows(driver) -> list[dict]:
    """The post rows of the current page (articles of post pages included), as ROWS_SCRIPT reads them."""
    return driver.execute_script(ROWS_SCRIPT)
