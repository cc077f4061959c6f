#!/usr/bin/env python3
"""Generates Sources/FixtureAPI/Resources/demo-dataset.json, BoardArchive's bundled demo dataset.

The output is deterministic (fixed seed, fixed reference date), so re-running the script
reproduces the committed file byte for byte:

    python3 tools/make-demo-dataset.py            # writes the resource
    python3 tools/make-demo-dataset.py --check    # exits 1 when the committed file is stale

Shape: {"referenceDate", "boards", "posts"} in the board API's JSON shapes (see
../shared/docs/board-api.md). The fixture server shifts every date by (now - referenceDate),
so the posts dated minutes before the reference date are "today" in the demo.

Boards: 공지사항 (12 posts, mostly notices), 자유게시판 (137 posts: replies, anonymous writers,
hostile HTML/Markdown), 개발팀 (exactly 31 posts, Markdown-heavy), 서울 지역 모임 (Korean words
with particles for substring search), 익명 게시판 (anonymous posts), 보관함 (empty).
"""

import json
import random
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "Sources" / "FixtureAPI" / "Resources" / "demo-dataset.json"
REFERENCE = datetime(2026, 1, 15, 12, 0, 0, tzinfo=timezone.utc)
rng = random.Random(20260115)

BOARDS = [
    (28478, "공지사항", 1, True, False),
    (28479, "자유게시판", 2, True, True),
    (28480, "개발팀", 3, True, False),
    (28481, "서울 지역 모임", 4, True, False),
    (28482, "익명 게시판", 5, True, False),
    (28483, "보관함", 6, False, False),
]

WRITERS = [
    ("홍길동", "gildong.hong@example.com"),
    ("김민준", "minjun.kim@example.com"),
    ("이서연", "seoyeon.lee@example.com"),
    ("박지훈", "jihoon.park@example.com"),
    ("최수아", "sua.choi@example.com"),
    ("정예준", "yejun.jung@example.com"),
    ("강하은", "haeun.kang@example.com"),
    ("윤도윤", "doyun.yoon@example.com"),
    ("Alice Kim", "alice@example.com"),
    ("관리자", "admin@example.com"),
]
HOSTILE_WRITER = ("김<b>철수</b>", "chulsoo@example.com")

TOPICS = [
    "점심 메뉴", "주간 회의", "사내 동호회", "주차장 이용", "택배 보관", "회의실 예약", "프린터 고장",
    "출장 보고", "신입 사원 환영", "연말 행사", "보안 교육", "재택 근무", "Swift 스터디", "SQLite 백업",
    "등산 모임", "커피 머신", "사무실 이전", "휴가 일정", "도서 추천", "운동 챌린지",
]
SENTENCES = [
    "안녕하세요. 오늘도 좋은 하루 보내세요.",
    "자세한 내용은 아래를 참고해 주세요.",
    "궁금한 점이 있으면 댓글로 남겨 주세요.",
    "지난주에 이야기한 내용을 정리했습니다.",
    "참석 가능한 분은 금요일까지 알려 주세요.",
    "사진은 첨부 파일로 올렸습니다.",
    "모두 수고 많으셨습니다!",
    "일정이 바뀌면 다시 공지하겠습니다.",
    "The meeting notes are attached; please review them before Friday.",
    "Thanks everyone for the quick feedback.",
    "회의록은 공유 드라이브에 있습니다.",
    "다음 달부터 새 규칙이 적용됩니다.",
]
COMMENTS = ["좋은 정보 감사합니다.", "저도 참여하고 싶어요!", "확인했습니다.", "동의합니다.", "+1", "언제까지인가요?"]

MARKDOWN_BODIES = [
    "## 이번 주 일정\n\n| 요일 | 내용 | 장소 |\n|---|---|---|\n| 월 | 주간 회의 | 3층 회의실 |\n| 수 | 코드 리뷰 | 온라인 |\n| 금 | 회고 | 카페 |\n\n"
    "- 회의록 작성\n- 발표 자료 준비\n  - 초안\n  - 최종본\n\n자세한 내용은 [위키](https://example.com/wiki)를 보세요.",
    "### 할 일\n\n- [x] 서버 점검\n- [x] 백업 확인\n- [ ] 모니터링 대시보드 정리\n- [ ] 문서 업데이트\n\n~~지난주 일정은 취소되었습니다.~~ 새 일정은 다음 주입니다.",
    "빌드 방법입니다.\n\n```sh\nswift build -c release\n.build/release/boardarchive crawl --api https://example.com/api/v2\n```\n\n"
    "그리고 Swift 코드 예시:\n\n```swift\nlet posts = try await client.fetchPage(of: board, offset: 0)\nprint(posts.count)\n```",
    "1. 첫째, 계정을 만듭니다.\n2. 둘째, **토큰**을 발급받습니다.\n3. 셋째, `BOARD_API_TOKEN` 환경 변수에 넣습니다.\n\n> 토큰은 절대 공유하지 마세요.\n\n참고: https://example.com/docs",
    "| 항목 | 수량 | 가격 |\n|:---|---:|---:|\n| 커피 | 12 | 54,000원 |\n| 샌드위치 | 8 | 48,000원 |\n| **합계** | 20 | **102,000원** |\n\n*영수증은 총무에게 제출해 주세요.*",
    "# 릴리스 노트 v1.2\n\n## 추가\n- 검색 기능\n- 다크 모드\n\n## 수정\n- ~~로그인 오류~~ → 해결됨\n- 긴 제목이 잘리는 문제\n\n```json\n{\"version\": \"1.2.0\", \"build\": 42}\n```",
]

SEOUL_BODIES = [
    ("서울은 지금 눈이 와요", "서울은 오늘 아침부터 눈이 많이 내렸습니다.\n출근길 조심하세요."),
    ("서울시청 앞 광장 행사", "이번 주말 서울시청 앞 광장에서 스케이트장이 열립니다.\n같이 가실 분?"),
    ("서울에서 부산까지 KTX", "서울에서 부산까지 KTX로 2시간 30분 걸렸어요."),
    ("학교에 다녀왔습니다", "아이 학교에 상담 다녀왔습니다. 학교에서 나눠준 안내문을 공유합니다."),
    ("서울 맛집 추천", "서울역 근처 국밥집 추천합니다. 서울 사람들은 다 아는 곳이에요."),
    ("Seoul Tech Meetup", "Seoul tech meetup this Thursday at 서울시청 근처 coworking space. All welcome!"),
    ("학교 앞 문구점", "학교 앞 문구점이 문을 닫는대요. 아쉽네요."),
    ("서울숲 산책 모임", "토요일 오전 10시 서울숲 입구에서 만나요.\n\n- 물\n- 모자\n- 편한 신발"),
]

HOSTILE = [
    # (title, contents)
    ("<img src=x onerror=alert(1)>", "제목에 HTML이 들어간 글입니다. 제목은 글자 그대로 보여야 합니다."),
    ("스크립트 테스트", "본문에 스크립트가 있습니다.\n\n<script>alert(1)</script>\n\n이 줄은 보여야 합니다."),
    ("링크 테스트", "이 링크는 눌러도 아무 일도 없어야 합니다: <a href=\"javascript:alert(1)\">x</a>\n\n그리고 마크다운 링크: [click](javascript:alert(1))"),
    ("이미지 테스트", "깨진 이미지입니다.\n\n<img src=x onerror=alert(2)>\n\n끝."),
]


def fmt(dt):
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


posts = []


def add(board, title, contents, created, *, post_type="normal", writer=None, anonymous=False,
        parent=None, comments=0, attachments=0, inline_image=False, owner=False, views=None):
    name, email = writer or rng.choice(WRITERS)
    post = {
        "postId": 0,  # assigned after sorting by creation time
        "title": title,
        "boardId": board[0],
        "boardDisplayName": board[1],
        "writer": {"displayName": name, "emailAddress": email},
        "contents": contents,
        "createdDateTime": created,
        "viewCount": views if views is not None else rng.randint(0, 400),
        "postType": post_type,
        "isNewPost": (REFERENCE - created) < timedelta(days=1),
        "hasInlineImage": inline_image,
        "commentsCount": comments,
        "attachmentsCount": attachments,
        "isAnonymous": anonymous,
        "isOwner": owner,
        "hasReply": False,
        "parentPostId": None,
        "_parent": parent,
    }
    posts.append(post)
    return post


def spread(count, oldest_days, newest_minutes=0):
    """`count` creation times between `oldest_days` ago and `newest_minutes` ago, oldest first."""
    span = oldest_days * 86400 - newest_minutes * 60
    offsets = sorted((rng.randint(0, span) for _ in range(count)), reverse=True)
    return [REFERENCE - timedelta(seconds=newest_minutes * 60 + o) for o in offsets]


def body():
    lines = rng.sample(SENTENCES, rng.randint(1, 4))
    if rng.random() < 0.15:
        return ""
    return "\n".join(lines)


board = {b[0]: b for b in BOARDS}
NOTICE, FREE, DEV, SEOUL, ANON, EMPTY = (board[b[0]] for b in BOARDS)

# 공지사항: 12 posts, 9 notices.
for i, created in enumerate(spread(12, 180, 90)):
    topic = TOPICS[i % len(TOPICS)]
    is_notice = i % 4 != 3
    add(NOTICE, f"[공지] {topic} 안내" if is_notice else f"{topic} 관련 문의", body() or "공지게시글입니다.\n\n안녕하세요. 만나서 반갑습니다.",
        created, post_type="notice" if is_notice else "normal", writer=WRITERS[9] if is_notice else None,
        attachments=rng.choice([0, 0, 1, 2]), views=rng.randint(50, 900))

# 자유게시판: 137 posts = 112 normal/notice + 21 replies + 4 hostile.
free_times = spread(112, 200, 300)
free_times[-5:] = [REFERENCE - timedelta(minutes=m) for m in (290, 130, 61, 25, 3)]
free_posts = []
for i, created in enumerate(free_times):
    topic = rng.choice(TOPICS)
    contents = MARKDOWN_BODIES[(i // 9) % len(MARKDOWN_BODIES)] if i % 9 == 0 else body()
    is_notice = i in (5, 40)
    anonymous = i % 13 == 4
    p = add(FREE, f"{topic} {rng.choice(['질문', '후기', '공유', '건의', '이야기'])}", contents, created,
            post_type="notice" if is_notice else "normal", anonymous=anonymous,
            writer=HOSTILE_WRITER if i == 77 else None,
            comments=rng.choice([0, 0, 0, 1, 2, 5, 12]), attachments=rng.choice([0, 0, 0, 0, 1, 3]),
            inline_image=i % 17 == 0, owner=i % 23 == 0)
    free_posts.append(p)
# Two posts with the same timestamp so the postId tie-break is visible.
free_posts[60]["createdDateTime"] = free_posts[61]["createdDateTime"]
for j in range(21):
    parent = free_posts[(j * 5 + 2) % 100]
    created = parent["createdDateTime"] + timedelta(minutes=rng.randint(5, 3000))
    if created >= REFERENCE:
        created = REFERENCE - timedelta(minutes=1 + j)
    add(FREE, f"RE: {parent['title']}", rng.choice(COMMENTS) + "\n\n" + body(), created, post_type="reply",
        parent=parent, anonymous=j % 6 == 5, comments=rng.choice([0, 1]))
for k, (title, contents) in enumerate(HOSTILE):
    add(FREE, title, contents, REFERENCE - timedelta(days=3 + k * 11, hours=k))

# 개발팀: exactly 31 posts, Markdown-heavy, with one reply chain.
dev_times = spread(30, 120, 25)
dev_posts = []
for i, created in enumerate(dev_times):
    contents = MARKDOWN_BODIES[(i // 2) % len(MARKDOWN_BODIES)] if i % 2 == 0 else body()
    dev_posts.append(add(DEV, rng.choice(["Swift 6 마이그레이션", "CI 빌드 시간", "코드 리뷰 규칙", "SQLite WAL 모드", "릴리스 체크리스트",
                                          "API 토큰 관리", "테스트 커버리지"]) + f" #{i + 1}", contents, created,
                         post_type="notice" if i == 3 else "normal", comments=rng.choice([0, 2, 4]),
                         attachments=rng.choice([0, 1])))
add(DEV, f"RE: {dev_posts[20]['title']}", "네, 확인했습니다.\n\n```swift\n// 수정한 부분\nlet limit = 30\n```", REFERENCE - timedelta(minutes=12),
    post_type="reply", parent=dev_posts[20])

# 서울 지역 모임: substring search material, some posts today.
seoul_times = spread(len(SEOUL_BODIES) * 2, 90, 40)
for i, created in enumerate(seoul_times):
    title, contents = SEOUL_BODIES[i % len(SEOUL_BODIES)]
    if i >= len(SEOUL_BODIES):
        title = f"{title} (2)"
    add(SEOUL, title, contents, created, comments=rng.choice([0, 3, 7]))
add(SEOUL, "오늘 서울은 맑음", "서울은 오늘 맑고 춥습니다. 학교에 가는 길에 귀마개 챙기세요.", REFERENCE - timedelta(minutes=7))

# 익명 게시판: every post anonymous.
anon_times = spread(15, 60, 180)
anon_times[-1] = REFERENCE - timedelta(minutes=95)
for i, created in enumerate(anon_times):
    add(ANON, rng.choice(["고민 상담", "회사 생활", "건의 사항", "칭찬합니다", "익명 질문"]) + f" {i + 1}", body() or "내용 없음",
        created, anonymous=True, comments=rng.choice([0, 1, 4]))

# Very recent posts (minutes before the reference date) so the demo always has "today" posts.
add(FREE, "방금 올린 글", "지금 막 올린 글입니다. 새 글 표시가 보여야 합니다.", REFERENCE - timedelta(minutes=2), comments=1)
posts.remove(free_posts[-1])  # keep 자유게시판 at exactly 137 posts
add(NOTICE, "[공지] 오늘 오후 점검 안내", "오늘 **오후 6시**부터 30분간 서버 점검이 있습니다.", REFERENCE - timedelta(minutes=30), post_type="notice",
    writer=WRITERS[9])
posts.remove(next(p for p in posts if p["boardId"] == NOTICE[0]))  # keep 공지사항 at 12 posts

# Ids in creation order, unique across boards; parents always older than their replies.
posts.sort(key=lambda p: (p["createdDateTime"], p["boardId"], p["title"]))
for n, p in enumerate(posts):
    p["postId"] = 1_590_001 + n * 7 + rng.randint(0, 5)
for p in posts:
    parent = p.pop("_parent")
    if parent is not None:
        p["parentPostId"] = parent["postId"]
        parent["hasReply"] = True
for p in posts:
    p["createdDateTime"] = fmt(p["createdDateTime"])

boards = [
    {"boardId": b[0], "displayName": b[1], "boardType": "normal", "isFavorite": b[3] and b[0] == 28479,
     "hasNewPost": any(p["boardId"] == b[0] and p["isNewPost"] for p in posts), "orderNo": b[2],
     "capability": {"writable": b[3], "manageable": b[4]}}
    for b in BOARDS
]
dataset = {"referenceDate": fmt(REFERENCE), "boards": boards, "posts": posts}
text = json.dumps(dataset, ensure_ascii=False, indent=1) + "\n"

if "--check" in sys.argv:
    sys.exit(0 if OUTPUT.read_text(encoding="utf-8") == text else 1)
OUTPUT.write_text(text, encoding="utf-8")
counts = {b[1]: sum(1 for p in posts if p["boardId"] == b[0]) for b in BOARDS}
print(f"wrote {OUTPUT.relative_to(ROOT)}: {len(posts)} posts, {len(text.encode())} bytes, {counts}")
