import BoardArchive
import Foundation

extension FixtureDataset {
    /// A synthetic dataset for benchmarks and tests, fully determined by its arguments.
    ///
    /// `boards` boards (ids from 10001, `orderNo` 1…) with `postsPerBoard` posts each (ids from 1000001, unique across
    /// boards). Titles and bodies mix Korean (with particles, e.g. 서울은, 학교에) and English words, some bodies are
    /// Markdown; about 1 % of the posts are notices, 1 in 7 a reply to an older post of the same board (whose `hasReply` is
    /// set), 8 % anonymous. Dates spread over the year before `now`; the newest post of each board is 1 to 30 minutes old.
    /// The same arguments always give the same dataset; 100,000 posts take well under 2 s.
    ///
    /// With `imageShare` above 0, that share (0…1) of the posts end their body with one or two Markdown images of
    /// generated pictures, `![사진 1](/media/gen/<k>.png)`, which the fixture server serves on the same origin; about one
    /// reference in twenty shows a picture another post shows too (``GeneratedPictures``). Then `hasInlineImage` is
    /// `true` exactly for those posts. At 0 (the default) the dataset is the same as before pictures existed.
    public static func generated(boards: Int, postsPerBoard: Int, seed: UInt64, now: Date, imageShare: Double = 0) -> FixtureDataset {
        var random = SeededRandom(seed: seed)
        let pictures = GeneratedPictures(seed: seed, share: min(1, max(0, imageShare)), stream: "generated")
        let boardCount = max(0, boards)
        let perBoard = max(0, postsPerBoard)
        let nowSeconds = now.timeIntervalSince1970.rounded(.down)
        let interval = max(60, 365 * 86_400 / max(1, perBoard))
        var boardList: [Board] = []
        var posts: [Post] = []
        posts.reserveCapacity(boardCount * perBoard)
        for boardIndex in 0..<boardCount {
            let board = Board(
                boardId: 10_001 + boardIndex,
                displayName: "\(GeneratedText.boardNames[boardIndex % GeneratedText.boardNames.count]) \(boardIndex + 1)",
                boardType: "normal", isFavorite: boardIndex == 0, hasNewPost: perBoard > 0, orderNo: boardIndex + 1,
                capability: .init(writable: true, manageable: boardIndex % 3 == 0))
            boardList.append(board)
            let base = posts.count
            let newestAge = 60 + Int(random.next() % 1_740)
            for index in 0..<perBoard {
                let jitter = Int(random.next() % UInt64(interval / 2))
                let age = (perBoard - 1 - index) * interval + newestAge + (index == perBoard - 1 ? 0 : jitter)
                var post = Post(
                    postId: 1_000_001 + boardIndex * perBoard + index, title: GeneratedText.title(&random), boardId: board.boardId,
                    boardDisplayName: board.displayName, writer: GeneratedText.writer(&random), contents: GeneratedText.body(&random),
                    createdDateTime: Date(timeIntervalSince1970: nowSeconds - Double(age)), viewCount: Int(random.next() % 500),
                    postType: .normal, isNewPost: age < 86_400, hasInlineImage: random.chance(0.03),
                    commentsCount: random.chance(0.3) ? Int(random.next() % 12) + 1 : 0,
                    attachmentsCount: random.chance(0.1) ? Int(random.next() % 3) + 1 : 0, isAnonymous: random.chance(0.08),
                    isOwner: random.chance(0.05), hasReply: false, parentPostId: nil)
                if pictures.share > 0 {
                    let shown = pictures.pictures(forPost: boardIndex * perBoard + index)
                    post.contents = GeneratedPictures.appending(shown, to: post.contents)
                    post.hasInlineImage = !shown.isEmpty
                }
                if index % 97 == 0 {
                    post.postType = .notice
                    post.title = "[공지] " + post.title
                } else if index >= 3, index % 7 == 3 {
                    let parentIndex = base + index - 2 - Int(random.next() % UInt64(min(index - 1, 40)))
                    post.postType = .reply
                    post.parentPostId = posts[parentIndex].postId
                    post.title = "RE: " + posts[parentIndex].title
                    posts[parentIndex].hasReply = true
                }
                posts.append(post)
            }
        }
        return FixtureDataset(referenceDate: Date(timeIntervalSince1970: nowSeconds), boards: boardList, posts: posts)
    }
}

/// Word lists for ``FixtureDataset/generated(boards:postsPerBoard:seed:now:imageShare:)``.
private enum GeneratedText {
    static let boardNames = ["자유게시판", "공지사항", "개발팀", "Design Review", "서울 지역 모임", "질문과 답변", "익명 게시판"]
    static let nouns = ["서울", "학교", "회의", "점심", "프로젝트", "일정", "보고서", "여행", "사진", "질문", "커피", "주차장", "도서관", "버스", "서울시청"]
    static let particles = ["은", "는", "에", "에서", "의", "을", "", "으로"]
    static let english = ["Swift", "release", "build", "cache", "search", "Archive", "update", "meeting", "SQLite", "deploy"]
    static let endings = ["안내", "공유합니다", "질문 있어요", "후기", "정리", "요청", "확인 부탁드립니다"]
    static let sentences = [
        "안녕하세요. 오늘도 좋은 하루 보내세요.", "자세한 내용은 아래를 참고해 주세요.", "궁금한 점이 있으면 댓글로 남겨 주세요.",
        "서울은 오늘 비가 온다고 합니다.", "학교에 가는 길에 들렀습니다.", "서울에서 열리는 행사에 참석했습니다.",
        "The build is green again after the cache fix.", "Please review the release notes before Friday.",
        "회의실은 3층입니다.", "첨부 파일을 확인해 주세요.",
    ]
    static let markdown = [
        "\n\n| 항목 | 값 |\n|---|---|\n| 상태 | 완료 |\n| 담당 | 김민준 |", "\n\n- [x] 준비\n- [ ] 검토\n- [ ] 배포",
        "\n\n```swift\nlet answer = 42\n```", "\n\n자세히: [문서](https://example.com/docs) ~~초안~~",
    ]
    static let writers: [Writer] = [
        "홍길동", "김민준", "이서연", "박지훈", "최수아", "정예준", "강하은", "윤도윤", "Alice Kim", "Bob Lee", "관리자", "한지민",
    ].enumerated().map { Writer(displayName: $0.element, emailAddress: "user\($0.offset + 1)@example.com") }

    static func pick<T>(_ list: [T], _ random: inout SeededRandom) -> T {
        list[Int(random.next() % UInt64(list.count))]
    }

    static func title(_ random: inout SeededRandom) -> String {
        pick(nouns, &random) + pick(particles, &random) + " " + pick(english, &random) + " " + pick(endings, &random)
    }

    static func writer(_ random: inout SeededRandom) -> Writer {
        pick(writers, &random)
    }

    static func body(_ random: inout SeededRandom) -> String {
        var text = pick(sentences, &random)
        for _ in 0..<Int(random.next() % 3) {
            text += "\n" + pick(sentences, &random)
        }
        if random.chance(0.2) {
            text += pick(markdown, &random)
        }
        return text
    }
}
