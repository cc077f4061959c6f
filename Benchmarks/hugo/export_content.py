#!/usr/bin/env python3
"""Writes a Hugo site with the same content as a BoardArchive store, for the side-by-side build benchmark.

Usage: export_content.py --store archive.sqlite --out DIR

DIR gets a copy of Benchmarks/hugo/site (config and layouts) and content/: a section per board
(content/b<boardId>/_index.md, weight = orderNo) and a page per post (content/b<boardId>/<postId>.md) whose body
is the post's Markdown as stored. Front matter is JSON: title, date (UTC), writer (익명 for anonymous posts), postId,
notice (notices get weight 1, so Hugo's default order lists them first, then newest first, like a board page),
and parent (the root-relative URL of the post a reply answers, rewritten by relativeURLs). Reads only the store's
`board` and `post` tables, with the standard library's sqlite3.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import sys
from datetime import datetime, timezone
from pathlib import Path

SKELETON = Path(__file__).resolve().parent / "site"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True, help="the archive store (SQLite file)")
    parser.add_argument("--out", required=True, help="the Hugo site folder to (re)create")
    args = parser.parse_args()
    out = Path(args.out)
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(SKELETON, out)
    content = out / "content"
    content.mkdir()
    db = sqlite3.connect(f"file:{args.store}?mode=ro", uri=True)
    boards = {}
    for board_id, name, order in db.execute("SELECT boardId, displayName, orderNo FROM board ORDER BY orderNo, boardId"):
        boards[board_id] = name
        section = content / f"b{board_id}"
        section.mkdir()
        front = {"title": name, "weight": order if order is not None else 1_000_000}
        (section / "_index.md").write_text(json.dumps(front, ensure_ascii=False) + "\n", encoding="utf-8")
    board_of = dict(db.execute("SELECT postId, boardId FROM post"))
    posts = 0
    rows = db.execute(
        "SELECT postId, boardId, title, writerName, isAnonymous, contents, createdAt, postType, parentPostId FROM post")
    for post_id, board_id, title, writer, anonymous, contents, created, post_type, parent in rows:
        if board_id not in boards:
            continue
        front = {
            "title": title,
            "date": datetime.fromtimestamp(created, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "writer": "익명" if anonymous else writer,
            "postId": post_id,
        }
        if post_type == "notice":
            front["notice"] = True
            front["weight"] = 1
        if parent is not None and parent in board_of:
            front["parent"] = f"/b{board_of[parent]}/{parent}/"
        text = json.dumps(front, ensure_ascii=False) + "\n\n" + contents + "\n"
        (content / f"b{board_id}" / f"{post_id}.md").write_text(text, encoding="utf-8")
        posts += 1
    print(f"Exported {len(boards)} boards and {posts} posts into {content}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
