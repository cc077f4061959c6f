import BoardArchive
import Foundation

/// The mutable side of a ``FixtureServer``: request counters and the (possibly drifting) boards and posts.
actor FixtureState {
    /// What the server knows about one request when it arrives.
    struct Ticket: Sendable {
        /// 1-based position among all requests.
        var number: Int
        /// How many requests for the same path and query arrived before this one (0 for the first).
        var attempt: Int
    }

    /// One page of posts, or why there is none.
    enum PageResult: Sendable {
        case page(Envelope<Post>)
        case unknownBoard
    }

    private(set) var requestCount = 0
    /// Every request's path and query, in arrival order.
    private(set) var targets: [String] = []
    private(set) var statusCounts: [Int: Int] = [:]
    private(set) var droppedConnectionCount = 0
    private(set) var truncatedResponseCount = 0
    /// Every `/media/` request, in arrival order; kept apart from the API's counters.
    private(set) var mediaRequests: [FixtureMediaRequest] = []
    private var attemptsByTarget: [String: Int] = [:]
    private var boards: [Board]
    private var postsByBoard: [Int: [Post]]
    private var referenceDate: Date
    private var drift: FixtureFaults.OffsetDrift?

    init(dataset: FixtureDataset, drift: FixtureFaults.OffsetDrift?) {
        (boards, postsByBoard) = Self.arranged(dataset)
        referenceDate = dataset.referenceDate
        self.drift = drift
    }

    /// Serves `dataset` from now on (tests change the source between two crawls); counters are kept.
    func replace(with dataset: FixtureDataset) {
        (boards, postsByBoard) = Self.arranged(dataset)
        referenceDate = dataset.referenceDate
    }

    /// The boards in `orderNo` order and each board's posts in the server's order.
    private static func arranged(_ dataset: FixtureDataset) -> ([Board], [Int: [Post]]) {
        let boards = dataset.boards.enumerated().sorted { lhs, rhs in
            switch (lhs.element.orderNo, rhs.element.orderNo) {
            case let (left?, right?) where left != right: return left < right
            case (.some, nil): return true
            case (nil, .some): return false
            default: return lhs.offset < rhs.offset
            }
        }.map(\.element)
        var grouped = Dictionary(grouping: dataset.posts, by: \.boardId)
        for board in dataset.boards where grouped[board.boardId] == nil {
            grouped[board.boardId] = []
        }
        return (boards, grouped.mapValues { $0.sorted(by: FixtureDataset.serverOrder) })
    }

    /// Counts a request and returns its place in the sequence.
    func admit(target: String) -> Ticket {
        requestCount += 1
        targets.append(target)
        let attempt = attemptsByTarget[target, default: 0]
        attemptsByTarget[target] = attempt + 1
        return Ticket(number: requestCount, attempt: attempt)
    }

    /// Counts an answered status, a dropped connection or a truncated body.
    func record(status: Int, truncated: Bool = false) {
        statusCounts[status, default: 0] += 1
        if truncated {
            truncatedResponseCount += 1
        }
    }

    func recordDroppedConnection() {
        droppedConnectionCount += 1
    }

    /// Notes a `/media/` request; it does not count in ``requestCount`` or any other API counter.
    func recordMedia(_ request: FixtureMediaRequest) {
        mediaRequests.append(request)
    }

    /// The boards in `orderNo` order.
    func boardEnvelope() -> Envelope<Board> {
        Envelope(value: boards, count: boards.count, offset: 0, limit: boards.count, total: boards.count)
    }

    /// One page of a board, optionally filtered by a search; serving the first plain page may trigger offset drift.
    func page(boardId: Int, offset: Int, limit: Int, search: FixtureSearch?) -> PageResult {
        guard let all = postsByBoard[boardId] else { return .unknownBoard }
        let matching = search.map { search in all.filter(search.matches) } ?? all
        let start = min(offset, matching.count)
        let end = min(matching.count, start + limit)
        let slice = Array(matching[start..<end])
        let envelope = Envelope(value: slice, count: slice.count, offset: offset, limit: limit, total: matching.count)
        if search == nil, offset == 0, let drift, drift.boardId == boardId {
            applyDrift(drift, servedLimit: limit)
        }
        return .page(envelope)
    }

    /// The data as it is now, after any drift.
    func currentDataset() -> FixtureDataset {
        let posts = boards.flatMap { postsByBoard[$0.boardId] ?? [] }
        return FixtureDataset(referenceDate: referenceDate, boards: boards, posts: posts)
    }

    private func applyDrift(_ drift: FixtureFaults.OffsetDrift, servedLimit: Int) {
        self.drift = nil
        var posts = postsByBoard[drift.boardId] ?? []
        let firstPageEnd = min(servedLimit, posts.count)
        let deleteCount = min(max(0, drift.delete), firstPageEnd)
        posts.removeSubrange((firstPageEnd - deleteCount)..<firstPageEnd)
        let insertCount = max(0, drift.insert)
        if insertCount > 0 {
            let nextId = (postsByBoard.values.lazy.flatMap { $0 }.map(\.postId).max() ?? 0) + 1
            let newest = posts.first?.createdDateTime ?? referenceDate
            let boardName = boards.first { $0.boardId == drift.boardId }?.displayName
            let inserted = (0..<insertCount).reversed().map { index in
                Post(
                    postId: nextId + index, title: "새 글 \(index + 1) (drift)", boardId: drift.boardId, boardDisplayName: boardName,
                    writer: Writer(displayName: "드리프트", emailAddress: "drift@example.com"),
                    contents: "크롤링 도중에 추가된 글입니다. Inserted while a crawl was paging.",
                    createdDateTime: newest.addingTimeInterval(Double(index + 1)), isNewPost: true)
            }
            posts.insert(contentsOf: inserted, at: 0)
        }
        postsByBoard[drift.boardId] = posts
    }
}

/// A search request: a case-insensitive substring and the fields it looks in.
struct FixtureSearch: Sendable, Equatable {
    enum Target: String, Sendable {
        case all, title, contents, writer
    }

    /// The lowercased search text.
    var text: String
    var target: Target

    init(text: String, target: Target) {
        self.text = text.lowercased()
        self.target = target
    }

    func matches(_ post: Post) -> Bool {
        switch target {
        case .title: return post.title.lowercased().contains(text)
        case .contents: return post.contents.lowercased().contains(text)
        case .writer: return post.writer.displayName.lowercased().contains(text)
        case .all:
            return post.title.lowercased().contains(text) || post.contents.lowercased().contains(text)
                || post.writer.displayName.lowercased().contains(text)
        }
    }
}
