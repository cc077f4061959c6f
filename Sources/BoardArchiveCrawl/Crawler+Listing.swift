import BoardArchiveModel
import BoardArchiveStore
import Foundation

extension Crawler {
    /// The boards of `GET /boards`, each id once, in the order first listed.
    ///
    /// A board listed twice is crawled once (crawling it twice would count its posts twice in the summary); the
    /// repeat is logged as a warning naming the board.
    func uniqueBoards(_ items: [RawItem<Board>]) -> [RawItem<Board>] {
        var seen: Set<Int> = []
        var unique: [RawItem<Board>] = []
        for item in items {
            guard seen.insert(item.item.boardId).inserted else {
                logger.warning("GET /boards lists this board more than once; crawled once", metadata: ["board": "\(item.item.boardId)"])
                continue
            }
            unique.append(item)
        }
        return unique
    }

    /// The posts of a page, each stored under the board that lists it.
    ///
    /// A post whose `boardId` names another board than the one listing it would otherwise be stored under a board
    /// that may not exist or not list it, and vanish from the site; the listing board wins, and a warning names the
    /// post and both boards (`warn` is false when the same page is read again). The post's raw JSON keeps the
    /// `boardId` the API sent.
    func adopt(_ items: some Collection<RawItem<Post>>, listedUnder boardId: Int, warn: Bool = true) -> [RawItem<Post>] {
        items.map { item in
            guard item.item.boardId != boardId else { return item }
            if warn {
                logger.warning(
                    "Post names another board than the one listing it; stored under the listing board",
                    metadata: ["post": "\(item.item.postId)", "listedUnder": "\(boardId)", "postBoardId": "\(item.item.boardId)"])
            }
            var adopted = item
            adopted.item.boardId = boardId
            return adopted
        }
    }

    /// Records a page through `record`, naming the request in a ``CrawlError/Reason/postInTwoBoards(post:first:second:)``.
    ///
    /// The write runs on the crawl's store thread (``storeQueue``), never on Swift's cooperative threads: a PostgreSQL
    /// store waits for the server's answers on the calling thread, and board tasks waiting there held the cooperative
    /// threads (two on two cores) that fetch and decode the other boards' pages meanwhile.
    func storing<T: Sendable>(_ request: String, _ record: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                storeQueue.async { continuation.resume(with: Result { try record() }) }
            }
        } catch let error as CrawlError where error.request.isEmpty {
            throw CrawlError(request: request, reason: error.reason)
        }
    }
}
