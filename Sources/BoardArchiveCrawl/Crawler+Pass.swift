import BoardArchiveStore
import Foundation

extension Crawler {
    /// Where a pass starts: from the top, or where a killed run stopped.
    struct PassStart {
        /// The position of the next post not yet seen.
        var offset = 0
        /// The last post seen, which the next page must start with; nil at the top.
        var anchor: Int?
        /// The board's `total` when the pass began.
        var firstTotal: Int?
        /// The post ids of the pass's first page.
        var headIDs: [Int] = []
        var seen: Set<Int> = []
        /// Whether the pass may stop early (an incremental read): on the first page that brings posts the store
        /// already holds while the board's `total` agrees with the store.
        var incremental = false
    }

    struct PassResult {
        var seen: Set<Int>
        var total: Int
        /// Nothing moved during the pass (every page started with the previous page's last post and `total` held),
        /// and the unique posts seen equal `total`.
        var consistent: Bool
        /// The incremental read stopped early: the board agreed with the store.
        var stoppedEarly = false
        /// The incremental read found the board disagreeing with the store and went on to the end, as a full pass.
        var fellBack: String?
        /// Page requests made.
        var requests = 0
        /// Posts the pages brought (without the one-post overlaps).
        var postsRead = 0
    }

    /// Pages through a board once. After the first page, each request starts one post early (`offset - 1`): that
    /// post must be the last one of the previous page, otherwise posts were inserted or deleted above the cursor
    /// (offset drift) and the pass is not trusted. This catches every drift that shifts the pages, including an
    /// insert and a delete that leave `total` unchanged, for one post per page. A pass of several pages ends by
    /// reading the first page again: new posts arrive at the top, so a changed first page means posts arrived
    /// while paging even when a delete above the cursor hid the shift.
    ///
    /// Every pass ends: a page that does not move the cursor on (it holds only the anchor, say because `total`
    /// claims more posts than the server serves) ends it as inconsistent, and so does reaching ``requestCap(firstTotal:smallestPage:)``.
    func crawlPass(
        _ boardId: Int, pass: Int, from start: PassStart, run: Int64, into counts: inout RecordCounts
    ) async throws -> PassResult {
        var seen = start.seen
        var offset = start.offset
        var anchor = start.anchor
        var firstTotal = start.firstTotal
        var total = 0
        var moved = false
        var headIDs = start.headIDs
        var requests = 0
        var smallestPage = configuration.pageSize
        var incremental = start.incremental
        var fellBack: String?
        var postsRead = 0
        while true {
            let requestOffset = anchor == nil ? offset : offset - 1
            let page = try await client.fetchPage(of: boardId, offset: requestOffset, limit: configuration.pageSize)
            requests += 1
            if requestOffset == 0 { headIDs = page.items.map(\.item.postId) }
            if let firstTotal, firstTotal != page.total { moved = true }
            firstTotal = firstTotal ?? page.total
            total = page.total
            var fresh = page.items[...]
            if let anchor {
                if fresh.first?.item.postId == anchor { fresh = fresh.dropFirst() } else { moved = true }
            }
            for item in fresh where item.item.unknownPostType != nil {
                logger.warning(
                    "Unknown postType read as normal",
                    metadata: ["board": "\(boardId)", "post": "\(item.item.postId)", "postType": "\(item.item.unknownPostType ?? "")"])
            }
            let request = "GET /boards/\(boardId)/posts?offset=\(requestOffset)&limit=\(configuration.pageSize)"
            let (posts, lastPostId, pageIDs) = (
                adopt(fresh, listedUnder: boardId, warn: pass == 1), page.items.last?.item.postId ?? anchor, page.items.map(\.item.postId)
            )
            let pageCounts = try await storing(request) {
                [
                    store, observe, pass, offset = requestOffset, count = page.items.count, total = page.total, hash = page.contentHash, date = now(),
                    media = mediaReferencing
                ] in
                try store.recordPage(
                    posts, board: boardId, pass: pass, offset: offset, count: count, lastPostId: lastPostId, total: total,
                    pageHash: hash, run: run, pageIDs: pageIDs, at: date, media: media
                ) { observe(.insidePageTransaction(board: boardId, offset: offset)) }
            }
            client.statistics.meter.update { progress in
                progress.pages += 1
                progress.posts += fresh.count
            }
            // The board's first page sizes it for the ETA (only the first size counts); re-read posts are credited up to it.
            client.statistics.meter.sizeBoard(boardId, posts: page.total)
            client.statistics.meter.credit(boardId, posts: fresh.count)
            observe(.pageStored(board: boardId, offset: requestOffset))
            counts = counts + pageCounts
            seen.formUnion(fresh.map(\.item.postId))
            postsRead += fresh.count
            if incremental, !moved, pageCounts.unchanged + pageCounts.changed > 0 {
                // The page reached posts the store holds: the board agrees with the store or it does not.
                let held = try store.livePostCount(ofBoard: boardId)
                if held == page.total {
                    // The rest of the board is known: it counts as done for the ETA.
                    client.statistics.meter.credit(boardId, posts: page.total)
                    return PassResult(
                        seen: seen, total: page.total, consistent: false, stoppedEarly: true, requests: requests, postsRead: postsRead)
                }
                incremental = false
                let reason = "the board lists \(page.total) posts but the store holds \(held)"
                fellBack = reason
                try store.recordMode(.fallback, ofBoard: boardId, run: run)
                logger.notice(
                    "Board disagrees with the store; reading it in full",
                    metadata: ["board": "\(boardId)", "total": "\(page.total)", "stored": "\(held)"])
            }
            if Self.isLastPage(offset: requestOffset, count: page.items.count, total: page.total) { break }
            let next = requestOffset + page.items.count
            smallestPage = min(smallestPage, page.items.count)
            guard next > offset, requests < Self.requestCap(firstTotal: firstTotal ?? total, smallestPage: smallestPage) else {
                moved = true
                logger.warning(
                    next > offset ? "Board is not reaching its end; ending the pass" : "Page brought no new post before the end; ending the pass",
                    metadata: ["board": "\(boardId)", "offset": "\(requestOffset)", "total": "\(total)", "requests": "\(requests)"])
                break
            }
            offset = next
            anchor = page.items.last?.item.postId
        }
        if !moved, requests > 1 || start.offset > 0 {
            let head = try await client.fetchPage(of: boardId, offset: 0, limit: configuration.pageSize)
            requests += 1
            if head.items.map(\.item.postId) != headIDs || head.total != total {
                moved = true
                counts =
                    counts
                    + (try await storing("GET /boards/\(boardId)/posts?offset=0&limit=\(configuration.pageSize)") {
                        [store, posts = adopt(head.items, listedUnder: boardId, warn: false), date = now()] in
                        try store.recordPosts(posts, run: run, at: date, media: mediaReferencing)
                    })
            }
        }
        return PassResult(
            seen: seen, total: total, consistent: !moved && seen.count == total, fellBack: fellBack, requests: requests, postsRead: postsRead)
    }

    /// The most pages one pass requests: twice what a board of `firstTotal` posts needs when each page after the first
    /// brings `smallestPage - 1` new posts, plus slack, so a board that grows while it is paged still gets to its end
    /// but a server that never reaches its end does not keep the crawl forever.
    static func requestCap(firstTotal: Int, smallestPage: Int) -> Int {
        2 * (max(firstTotal, 0) / max(smallestPage - 1, 1) + 3)
    }

    /// The end rule: an empty page, or a page reaching `total`. A short page that does not reach `total` is not the
    /// end (a server may cap `limit`), so `count < limit`, `offset + count >= total` and the empty page agree.
    static func isLastPage(offset: Int, count: Int, total: Int) -> Bool {
        count == 0 || offset + count >= total
    }
}
