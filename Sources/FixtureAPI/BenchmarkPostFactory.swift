import BoardArchive
import Foundation

/// Writes one benchmark post from its skeleton (id, board, date, kind) and a generator seeded for that post alone, so
/// any post can be made on its own, in any order, and always comes out the same.
struct BenchmarkPostFactory: Sendable {
    /// What ``make(_:)`` needs to know about a post beyond its text.
    struct Skeleton: Sendable {
        var postId: Int
        var board: Board
        var created: Int64
        var kind: BenchmarkPlan.Kind
        var anonymous: Bool
        var hasReply: Bool
        /// The id and the text key of the post a reply answers.
        var parent: (postId: Int, textKey: Int)?
        /// What seeds the post's text; the archive uses the post's index, a mutation its post id.
        var textKey: Int
    }

    let seed: UInt64
    /// The moment the archive is "as of": posts less than a day older are `isNewPost`.
    let now: Int64
    /// Distinguishes the texts of a generated archive from those a mutation adds.
    let stream: String
    /// The share (0…1) of posts whose body ends with generated pictures (``GeneratedPictures``), keyed by the text key;
    /// 0 leaves every post as it was before pictures existed.
    var imageShare: Double = 0

    /// The writer pool, most prolific first, with e-mail addresses.
    static let writers: [Writer] = BenchmarkVocabulary.shared.writers.words.enumerated().map {
        Writer(displayName: $0.element, emailAddress: "user\($0.offset + 1)@example.com")
    }

    /// Board names, largest board first; boards past the list reuse a name with a number.
    static let boardNames = [
        "자유게시판", "질문과 답변", "개발팀", "공지사항", "Design Review", "서울 지역 모임", "익명 게시판", "사진 게시판", "중고 장터",
        "동아리 소식", "채용 정보", "맛집 추천", "IT 뉴스", "스터디 모임", "보관함", "건의사항", "분실물 센터", "부산 지역 모임", "Release Notes",
        "운동 모임",
    ]

    /// The benchmark archive's `count` boards: ids from 10001, `orderNo` 1…, the first one a favourite.
    static func boards(_ count: Int) -> [Board] {
        (0..<max(0, count)).map { index in
            let name = boardNames[index % boardNames.count]
            return Board(
                boardId: 10_001 + index, displayName: index < boardNames.count ? name : "\(name) \(index / boardNames.count + 1)",
                boardType: "normal", isFavorite: index == 0, hasNewPost: true, orderNo: index + 1,
                capability: .init(writable: true, manageable: index % 3 == 0))
        }
    }

    /// The title a post has before any "[공지] " or "RE: " prefix, from its own generator.
    func baseTitle(textKey: Int) -> String {
        var random = SeededRandom(seed: seed, key: stream + "-title", index: textKey)
        return BenchmarkVocabulary.shared.title(english: random.chance(0.1), &random)
    }

    /// The post, with its text and counters drawn from a generator seeded by `seed`, `stream` and its text key.
    func make(_ skeleton: Skeleton) -> Post {
        var random = SeededRandom(seed: seed, key: stream, index: skeleton.textKey)
        let english = random.chance(0.1)
        let title: String
        switch skeleton.kind {
        case .notice: title = "[공지] " + baseTitle(textKey: skeleton.textKey)
        case .reply: title = "RE: " + baseTitle(textKey: skeleton.parent?.textKey ?? skeleton.textKey)
        case .normal: title = baseTitle(textKey: skeleton.textKey)
        }
        let writer = Self.writers[BenchmarkVocabulary.shared.writers.drawRank(&random)]
        let contents = BenchmarkBody.text(target: BenchmarkBody.targetLength(&random), english: english, &random)
        let attachments = random.chance(0.12) ? 1 + Int(random.next() % 4) : 0
        let views = Int(random.next() % 300) + (random.chance(0.05) ? Int(random.next() % 5_000) : 0)
        var post = Post(
            postId: skeleton.postId, title: title, boardId: skeleton.board.boardId, boardDisplayName: skeleton.board.displayName,
            writer: writer, contents: contents, createdDateTime: Date(timeIntervalSince1970: TimeInterval(skeleton.created)),
            viewCount: views, postType: skeleton.kind == .notice ? .notice : skeleton.kind == .reply ? .reply : .normal,
            isNewPost: now - skeleton.created < 86_400, hasInlineImage: random.chance(0.04),
            commentsCount: random.chance(0.35) ? 1 + Int(random.next() % 15) : 0, attachmentsCount: attachments,
            isAnonymous: skeleton.anonymous, isOwner: random.chance(0.03), hasReply: skeleton.hasReply,
            parentPostId: skeleton.parent?.postId, hasAttachment: attachments > 0)
        if imageShare > 0 {
            // A generator of its own, so the other fields draw exactly what they drew before pictures existed.
            let shown = GeneratedPictures(seed: seed, share: min(1, imageShare), stream: stream).pictures(forPost: skeleton.textKey)
            post.contents = GeneratedPictures.appending(shown, to: post.contents)
            post.hasInlineImage = !shown.isEmpty
        }
        return post
    }

    /// The post with the JSON the crawler would store for it.
    func makeRaw(_ skeleton: Skeleton) -> RawItem<Post> {
        let post = make(skeleton)
        return RawItem(item: post, json: BenchmarkPostJSON.encode(post))
    }
}
