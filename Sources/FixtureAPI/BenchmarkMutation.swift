import BoardArchive
import Foundation

/// A change to an existing archive store, for the rebuild benchmarks; the posts it picks depend only on the store's
/// content, the seed and the count.
public enum BenchmarkMutation: String, Sendable, CaseIterable {
    /// New posts, newer than every stored post, spread over the boards in proportion to their sizes; existing posts are
    /// not touched (a new reply answers an earlier new post of its board).
    case new
    /// Existing posts get a changed title and body, hence a new `contentHash`.
    case edit
    /// Existing posts are taken down, one `redact --post` each: the one way a post leaves the site (a crawl keeps
    /// the posts the API no longer serves, marked gone).
    case gone
    /// Existing posts vanish from the source: a crawl marks them gone (`goneSince`), as it marks posts the API no
    /// longer lists; the site marks them "deleted at the source".
    case vanish

    /// Applies the mutation to `count` posts and returns their ids, ascending. `now` is the new `lastSeen`; new posts
    /// are dated between the newest stored post and `now` (one second apart after the newest when `now` is not later).
    @discardableResult
    public func apply(to store: ArchiveStore, count: Int, seed: UInt64, now: Date = BenchmarkArchive.defaultNow) throws -> [Int] {
        guard count > 0 else { return [] }
        guard let newest = try store.newestPost() else {
            throw BenchmarkArchiveError(location: store.location, reason: .emptyStore)
        }
        let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
        switch self {
        case .new:
            return try addPosts(to: store, count: count, after: newest, seed: seed, now: nowSeconds)
        case .edit, .gone, .vanish:
            let ids = try store.postIDs()
            guard ids.count >= count else {
                throw BenchmarkArchiveError(location: store.location, reason: .notEnoughPosts(held: ids.count, asked: count))
            }
            var random = SeededRandom(seed: seed, key: "mutate-" + rawValue, index: count)
            let chosen = Self.sample(ids, count: count, &random)
            if self == .gone {
                for id in chosen { _ = try store.redact(RedactionRequest(target: .post(id), reason: "benchmark: gone"), at: now) }
            } else if self == .vanish {
                try store.markGoneAtSource(ids: chosen, at: now)
            } else {
                try edit(chosen, in: store, seed: seed, now: now)
            }
            return chosen
        }
    }

    /// `count` distinct ids, by a partial Fisher–Yates shuffle, ascending.
    static func sample(_ ids: [Int], count: Int, _ random: inout SeededRandom) -> [Int] {
        var ids = ids
        for index in 0..<count {
            ids.swapAt(index, index + Int(random.next() % UInt64(ids.count - index)))
        }
        return ids[0..<count].sorted()
    }

    private func edit(_ ids: [Int], in store: ArchiveStore, seed: UInt64, now: Date) throws {
        var edited: [RawItem<Post>] = []
        for id in ids {
            guard var post = try store.post(id: id) else { continue }
            var random = SeededRandom(seed: seed, key: "edit", index: id)
            post.title += " (수정)"
            post.contents += "\n\n_수정: " + BenchmarkVocabulary.shared.sentence(english: false, words: 6, &random) + "_"
            edited.append(RawItem(item: post, json: BenchmarkPostJSON.encode(post)))
        }
        try store.recordBulk(posts: edited, at: now)
    }

    private func addPosts(to store: ArchiveStore, count: Int, after newest: (postId: Int, created: Date), seed: UInt64, now: Int64) throws
        -> [Int]
    {
        let sizes = try store.postCountsByBoard()
        let boards = try store.boards().filter { sizes[$0.boardId, default: 0] > 0 }
        let weights = boards.map { Double(sizes[$0.boardId, default: 0]) }
        let newestSeconds = Int64(newest.created.timeIntervalSince1970)
        let span = now - newestSeconds
        var random = SeededRandom(seed: seed, key: "mutate-new", index: newest.postId)
        var skeletons: [BenchmarkPostFactory.Skeleton] = []
        var latest: [Int: Int] = [:]  // board id → index in skeletons of its latest new post
        for index in 0..<count {
            let board = boards[BenchmarkPlan.pick(weights, &random)]
            let id = newest.postId + 1 + index
            let created = span > Int64(count) ? newestSeconds + span * Int64(index + 1) / Int64(count) : newestSeconds + Int64(index + 1)
            var skeleton = BenchmarkPostFactory.Skeleton(
                postId: id, board: board, created: created, kind: .normal, anonymous: random.chance(BenchmarkPlan.anonymousRate),
                hasReply: false, parent: nil, textKey: id)
            let roll = random.nextUnit()
            if roll < BenchmarkPlan.noticeRate {
                skeleton.kind = .notice
            } else if roll < BenchmarkPlan.noticeRate + BenchmarkPlan.replyRate, let parent = latest[board.boardId] {
                skeleton.kind = .reply
                skeleton.parent = (skeletons[parent].postId, skeletons[parent].textKey)
                skeletons[parent].hasReply = true
            }
            latest[board.boardId] = skeletons.count
            skeletons.append(skeleton)
        }
        let factory = BenchmarkPostFactory(seed: seed, now: now, stream: "new")
        try store.recordBulk(posts: skeletons.map(factory.makeRaw), at: Date(timeIntervalSince1970: TimeInterval(now)))
        return skeletons.map(\.postId)
    }
}
