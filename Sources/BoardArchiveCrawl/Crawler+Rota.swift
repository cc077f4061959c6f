import BoardArchiveModel
import BoardArchiveStore
import Foundation

extension Crawler {
    /// What the rota re-read of one board.
    struct RotaResult {
        /// The part re-read, in posts from the oldest end; nil when none was.
        var part: Range<Int>?
        var requests = 0
        /// Posts marked gone because the API no longer listed them between neighbours it still lists.
        var gone = 0
    }

    /// Re-reads the board's next part on the verification rota, after an incremental read that stopped early.
    ///
    /// The API has no "changed since", so edits and deletions below the pages read from the top only show when those
    /// pages are read again. A board is cut into ⌈1 / `verifyFraction`⌉ parts counted from its oldest end (new posts
    /// arrive at the other end, so the parts do not move); each run re-reads the part after the one read last, with one
    /// neighbour on each side, and starts over once it reaches the posts read from the top. Edited posts are stored as
    /// changed; a stored post the API no longer lists between two neighbours it still lists is marked gone (only when
    /// the pages agree with each other and come in the server's order: newest first, then higher id first). A part
    /// that moves while it is read is not recorded as verified, so the next run reads it again.
    func verifyRotaPart(of boardId: Int, total: Int, headRead: Int, run: Int64, into counts: inout RecordCounts) async throws -> RotaResult {
        let headFrom = max(0, total - headRead)
        guard configuration.verifyFraction > 0, total > 0 else { return RotaResult() }
        guard headFrom > 0 else {
            try store.recordVerified(board: boardId, fromOldest: 0, toOldest: total, total: total, run: run, at: now())
            return RotaResult()
        }
        let parts = Int((1 / configuration.verifyFraction).rounded(.up))
        var from = try store.verificationCursor(ofBoard: boardId)
        if from >= headFrom { from = 0 }
        let to = min(headFrom, from + max(1, (total + parts - 1) / parts))
        var result = RotaResult()
        guard
            let listed = try await readStretch(
                of: boardId, offsets: max(0, total - to - 1)..<min(total, total - from + 1), total: total, run: run, result: &result, counts: &counts)
        else {
            logger.notice("Board moved while its rota part was read; the part is read again next run", metadata: ["board": "\(boardId)"])
            return result
        }
        if let newest = listed.first, let oldest = listed.last, listed.count > 1, Self.inServerOrder(listed) {
            result.gone = try store.markGone(
                ofBoard: boardId, between: (Self.seconds(newest), newest.postId), and: (Self.seconds(oldest), oldest.postId),
                listed: Set(listed.map(\.postId)), at: now())
        }
        try store.recordVerified(board: boardId, fromOldest: from, toOldest: to, total: total, run: run, at: now())
        result.part = from..<to
        return result
    }

    /// Reads the posts at `offsets` (newest first), pages overlapping by one; nil when the pages disagree with each
    /// other or with `total`. Every post read is stored.
    private func readStretch(
        of boardId: Int, offsets: Range<Int>, total: Int, run: Int64, result: inout RotaResult, counts: inout RecordCounts
    ) async throws -> [Post]? {
        var listed: [Post] = []
        var offset = offsets.lowerBound
        var anchor: Int?
        while true {
            let requestOffset = anchor == nil ? offset : offset - 1
            let page = try await client.fetchPage(of: boardId, offset: requestOffset, limit: configuration.pageSize)
            result.requests += 1
            var fresh = page.items[...]
            if let anchor {
                guard fresh.first?.item.postId == anchor else { return nil }
                fresh = fresh.dropFirst()
            }
            guard page.total == total else { return nil }
            counts =
                counts
                + (try await storing("GET /boards/\(boardId)/posts?offset=\(requestOffset)&limit=\(configuration.pageSize)") {
                    [store, posts = adopt(fresh, listedUnder: boardId, warn: false), date = now()] in
                    try store.recordPosts(posts, run: run, at: date, media: mediaReferencing)
                })
            listed.append(contentsOf: fresh.map(\.item))
            let next = requestOffset + page.items.count
            if Self.isLastPage(offset: requestOffset, count: page.items.count, total: total) || next >= offsets.upperBound || next <= offset {
                return listed
            }
            offset = next
            anchor = page.items.last?.item.postId
        }
    }

    /// Whether posts come newest first, then higher id first, each strictly after the one before.
    static func inServerOrder(_ posts: [Post]) -> Bool {
        zip(posts, posts.dropFirst()).allSatisfy { newer, older in
            (seconds(newer), newer.postId) > (seconds(older), older.postId)
        }
    }

    /// A post's creation time in whole seconds, as the store keeps it.
    static func seconds(_ post: Post) -> Int64 {
        Int64(post.createdDateTime.timeIntervalSince1970.rounded(.down))
    }
}
