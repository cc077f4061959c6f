#!/usr/bin/env python3
"""Hostile Markdown shapes for Benchmarks/hostile/run.sh: inputs that cmark-gfm 0.29.0.gfm.6 (Debian 12) parses in
super-linear time, and upstream's other pathological inputs, each a function of a target size in bytes.

  shapes.py list                         the shape names, one a line
  shapes.py body NAME BYTES              one body on stdout
  shapes.py dataset BYTES OUT.json [NAME...]  a fixture dataset (fixture-api --data): one board, a post per shape
  shapes.py random SEED BYTES            a random shape (the pieces of MarkdownBudgetPropertyTests)
  shapes.py list-odd                     the big and odd posts (issue 25 point 2; their sizes are fixed, BYTES unused)
"""
import json
import random
import sys


def rep(unit, n, head="", tail=""):
    return head + unit * max(1, (n - len(head) - len(tail)) // len(unit)) + tail


def backticks(n):
    out, i, size = [], 1, 0
    while size < n:
        piece = "e" + "`" * i
        out.append(piece)
        size += len(piece)
        i += 1
    return "".join(out)


def wide_table(n, cols=5000):
    header = "|" + "a|" * cols + "\n"
    return header + "|" + "-|" * cols + "\n" + header * max(1, (n - 2 * len(header)) // len(header))


def padded_table(n, cols=100):
    head = "|" + "a|" * cols + "\n|" + "-|" * cols + "\n"
    return head + "a\n" * ((n - len(head)) // 2)


def deep_then_lazy(n, opener):
    return opener * (n // 4 // len(opener)) + "a\n" + "b\n" * (n // 4)


# Name → generator. The first thirteen are super-linear (or, for `a@`, linear at 3.7 s per MB) in 0.29.0.gfm.6 (docs/hostile-posts.md has the times).
SHAPES = {
    "images_around_empty_links": lambda n: rep("![[]()", n),
    "unclosed_processing_instructions": lambda n: rep("<?", n, head="a"),
    "unclosed_declarations": lambda n: rep("<!A ", n, head="a"),
    "unclosed_cdata": lambda n: rep("<![CDATA[", n, head="a"),
    "nested_brackets": lambda n: "[" * (n // 2) + "a" + "]" * (n // 2),
    "unclosed_link_openers": lambda n: rep("[a", n),
    "table_5000_columns": wide_table,
    "deep_quotes_then_lazy_lines": lambda n: deep_then_lazy(n, "> "),
    "deep_list_items_then_lazy_lines": lambda n: deep_then_lazy(n, "- "),
    "wide_header_padding_short_rows": padded_table,
    "www_autolinks_with_underscores": lambda n: rep("www.a_", n),
    "email_autolinks_with_dots": lambda n: rep("a.a@", n),
    "email_autolink_candidates": lambda n: rep("a@", n),
    "nested_strong_emph": lambda n: "*a **a " * (n // 14) + "b" + " a** a*" * (n // 14),
    "emph_closers_without_openers": lambda n: rep("a_ ", n),
    "emph_openers_without_closers": lambda n: rep("_a ", n),
    "mismatched_emph": lambda n: rep("*a_ ", n),
    "link_openers_emph_closers": lambda n: rep("[ a_", n),
    "bracket_paren_pattern": lambda n: rep("[ (](", n),
    "backtick_runs": backticks,
    "unclosed_links_angle": lambda n: rep("[a](<b", n),
    "unclosed_links": lambda n: rep("[a](b", n),
    "unclosed_comments": lambda n: rep("<!--", n, head="</"),
    "nested_block_quotes": lambda n: rep("> ", n, tail="a"),
    "tables_cr_vt": lambda n: rep("aaa\rbbb\n-\v\n", n),
    "strikethrough_runs": lambda n: rep("~a~~ *", n),
    # Upstream's other pathological tests, linear in 0.29.0.gfm.6 (measured: 0.01-0.17 s per MB in cmark-gfm alone).
    "link_closers": lambda n: rep("a]", n),
    "emph_multiple_of_3": lambda n: rep("c* ", n, head="a**b"),
    "nested_indented_lists": lambda n: "".join("  " * (i % 500) + "* a\n" for i in range(max(1, n // 504))),
    "many_references": lambda n: "".join("[%d]: u\n" % i for i in range(n // 28)) + rep("[0] ", n // 2),
}

# Big and odd posts (BigOddPostTests at benchmark sizes): not super-linear, but far from ordinary. Sizes are fixed.
MARKS = "\u0301\u0302\u0323" * 20000
ODD = {
    "body_of_3_mb": lambda n: ("가나다 라마바 사아자 차카타 파하 " * 60000)[:1100000] + "마지막줄표지",
    "word_of_100002_characters": lambda n: "앞 " + "ab" * 50000 + "zq 뒤",
    "table_of_3000_columns": lambda n: "|" + "|".join("c%d" % i for i in range(1, 3001)) + "|\n|" + "-|" * 3000 + "\n|"
    + "|".join("c%d" % i for i in range(1, 3001)) + "|",
    "list_of_30000_items": lambda n: "\n".join("- 항목%d" % i for i in range(1, 30001)),
    "title_and_body_of_combining_marks": lambda n: MARKS,
}
TITLES = {"title_and_body_of_combining_marks": "x" + MARKS}

PIECES = [
    "[", "]", "![", "](", "(", ")", "[a](b ", "<", ">", "> ", "- ", "1. ", "  ", "*", "**", "_", "__", "~~", "~", "`", "```",
    "<?", "<!", "<!--", "-->", "<![CDATA[", "]]>", "<a b='", "'>", "|", "|-|", "\n|a|b|\n|-|-|\n", "www.", "http://", "a@b.", ":",
    "&#", ";", "\\", "\n", "\n\n", "a", "단어 ", "word ", "x",
]


def random_shape(seed, n):
    rng = random.Random(seed)
    motif = "".join(rng.choice(PIECES) for _ in range(1 + rng.randrange(6)))
    out, size = [], 0
    while size < n:
        piece = rng.choice(PIECES) if rng.randrange(8) == 0 else motif
        out.append(piece)
        size += len(piece.encode())
    return "".join(out)


def dataset(n, names):
    board = {"boardId": 1, "displayName": "hostile", "boardType": "normal", "isFavorite": False, "hasNewPost": False, "orderNo": 1,
             "capability": {"writable": True, "manageable": False}}
    posts = []
    for index, name in enumerate(names):
        posts.append({
            "postId": 1000 + index, "title": TITLES.get(name, name), "boardId": 1, "boardDisplayName": "hostile",
            "writer": {"displayName": "bench"}, "contents": {**SHAPES, **ODD}[name](n),
            "createdDateTime": "2026-01-%02dT00:00:00Z" % (1 + index % 28), "viewCount": 0, "postType": "normal",
            "isNewPost": False, "hasInlineImage": False, "commentsCount": 0, "attachmentsCount": 0, "isAnonymous": False,
            "isOwner": False, "hasReply": False, "parentPostId": None})
    return {"referenceDate": "2026-01-15T12:00:00Z", "boards": [board], "posts": posts}


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "list":
        print("\n".join(SHAPES))
    elif command == "list-odd":
        print("\n".join(ODD))
    elif command == "body":
        sys.stdout.write(SHAPES[sys.argv[2]](int(sys.argv[3])))
    elif command == "dataset":
        names = sys.argv[4:] or list(SHAPES)
        with open(sys.argv[3], "w", encoding="utf-8") as out:
            json.dump(dataset(int(sys.argv[2]), names), out, ensure_ascii=False)
    elif command == "random":
        sys.stdout.write(random_shape(int(sys.argv[2]), int(sys.argv[3])))
    else:
        sys.exit(__doc__)
