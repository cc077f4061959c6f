import Foundation
import Logging

/// Crawls every board of the API into the archive store.
///
/// Boards are crawled `concurrency` at a time, each paged sequentially with `offset`/`limit`; every page and its
/// checkpoint are stored in one transaction, so a killed crawl resumes where it stopped. A board ends on an empty
/// page or when `offset + count >= total`; a short page (`count < limit`) that disagrees with `total` is followed
/// by another request rather than trusted, so the three end rules seen in clients never lose posts.
/// Offset drift (posts inserted or deleted during the crawl) shows as a page that does not start with the previous
/// page's last post (pages overlap by one), a `total` that changes, or a unique count that differs from `total`:
/// the board is then crawled again, and posts missing from a consistent pass are marked gone; a board that never
/// settles is reported and nothing of it is marked gone. A board no longer listed, or listed but answering 404, is
/// marked gone with all its posts.
public struct Crawler: Sendable {
    let configuration: CrawlConfiguration
    let client: BoardAPIClient
    let store: ArchiveStore
    let logger: Logger
    let now: @Sendable () -> Date

    public init(
        configuration: CrawlConfiguration, transport: any HTTPTransport, store: ArchiveStore, logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            configuration: configuration,
            client: BoardAPIClient(
                baseURL: configuration.api, token: configuration.token, transport: transport, retryPolicy: configuration.retryPolicy,
                maxRequestsPerSecond: configuration.maxRequestsPerSecond, logger: logger),
            store: store, logger: logger, now: now)
    }

    init(configuration: CrawlConfiguration, client: BoardAPIClient, store: ArchiveStore, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.client = client
        self.store = store
        self.logger = logger
        self.now = now
    }

    /// Crawls everything and returns what changed; throws `CrawlError` or `StoreError`, leaving the run resumable.
    public func run() async throws -> CrawlReport {
        let started = ContinuousClock.now
        let (runId, resumed) = try store.beginRun(api: configuration.apiIdentity, pageSize: configuration.pageSize, at: now())
        var report = CrawlReport()
        report.resumed = resumed
        if resumed { logger.notice("Resuming an interrupted crawl run", metadata: ["run": "\(runId)"]) }
        do {
            let boards = uniqueBoards(try await client.fetchBoards().items)
            report.gone = try store.recordBoards(boards, run: runId, at: now())
            report.boards = boards.count
            let outcomes = try await crawlBoards(boards.map(\.item.boardId), run: runId)
            for outcome in outcomes {
                report.posts += outcome.present
                report.new += outcome.counts.new
                report.changed += outcome.counts.changed
                report.unchanged += outcome.counts.unchanged
                report.gone += outcome.gone
                if outcome.passes > 1 { report.reverifiedBoards.append(outcome.boardId) }
                if let mismatch = outcome.mismatch { report.mismatches.append(mismatch) }
            }
        } catch {
            try? store.finishRun(runId, status: "failed", summary: configuration.token.redact(error.localizedDescription), at: now())
            throw error
        }
        report.requests = await client.statistics.requests
        report.retries = await client.statistics.retries
        report.duration = ContinuousClock.now - started
        try store.finishRun(runId, status: "completed", summary: report.summary, at: now())
        return report
    }

    struct BoardOutcome: Sendable {
        var boardId: Int
        var present = 0
        var counts = RecordCounts()
        var gone = 0
        var passes = 0
        var mismatch: CrawlReport.Mismatch?
    }

    /// Crawls the boards at most `concurrency` at a time, in a stable order of results.
    private func crawlBoards(_ ids: [Int], run: Int64) async throws -> [BoardOutcome] {
        try await withThrowingTaskGroup(of: BoardOutcome.self) { group in
            var pending = ids.makeIterator()
            var outcomes: [BoardOutcome] = []
            for _ in 0..<max(1, configuration.concurrency) {
                guard let id = pending.next() else { break }
                group.addTask { try await crawlBoard(id, run: run) }
            }
            while let outcome = try await group.next() {
                outcomes.append(outcome)
                if let id = pending.next() { group.addTask { try await crawlBoard(id, run: run) } }
            }
            return outcomes.sorted { $0.boardId < $1.boardId }
        }
    }

    /// One board: pass after pass until a pass is consistent with the board's `total`, or the passes run out.
    func crawlBoard(_ boardId: Int, run: Int64) async throws -> BoardOutcome {
        var outcome = BoardOutcome(boardId: boardId)
        var pass = 1
        var start = PassStart()
        var everSeen: Set<Int> = []
        if let state = try store.crawlState(ofBoard: boardId, run: run) {
            everSeen = try store.postIDs(ofBoard: boardId, seenInRun: run)
            if state.completed {
                outcome.present = everSeen.count
                return outcome
            }
            pass = state.pass
            // Pass 1 resumes mid-board: what it saw is what this run stored. A later pass restarts from the top,
            // because the posts it saw cannot be told apart from those of pass 1.
            if pass == 1 {
                start = PassStart(
                    offset: state.nextOffset, anchor: state.anchor, firstTotal: state.firstTotal, headIDs: state.headIDs, seen: everSeen)
            }
        }
        while true {
            let result: PassResult
            do {
                result = try await crawlPass(boardId, pass: pass, from: start, run: run, into: &outcome.counts)
            } catch let error as CrawlError where error.reason == .notFound {
                // The board was listed but is gone now: keep its posts, mark it, carry on with the others.
                logger.warning("Board answered 404 after being listed; marked gone with its posts", metadata: ["board": "\(boardId)"])
                outcome.gone = try store.markBoardGone(boardId, at: now())
                return outcome
            }
            everSeen.formUnion(result.seen)
            outcome.passes = pass
            if result.consistent || pass >= configuration.maxPasses {
                if !result.consistent {
                    outcome.mismatch = CrawlReport.Mismatch(boardId: boardId, expected: result.total, found: result.seen.count)
                    logger.error(
                        "Board still moved or disagreed with its total after re-verification; nothing marked gone",
                        metadata: ["board": "\(boardId)", "total": "\(result.total)", "found": "\(result.seen.count)", "passes": "\(pass)"])
                }
                outcome.gone = try store.completeBoard(
                    boardId, run: run, passes: pass, present: result.consistent ? result.seen : nil, found: result.seen.count,
                    total: result.total, at: now())
                outcome.present = result.consistent ? result.seen.count : everSeen.count
                return outcome
            }
            logger.notice(
                "Posts moved while paging; re-verifying the board",
                metadata: ["board": "\(boardId)", "total": "\(result.total)", "found": "\(result.seen.count)", "pass": "\(pass + 1)"])
            pass += 1
            start = PassStart()
        }
    }

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
    }

    struct PassResult {
        var seen: Set<Int>
        var total: Int
        /// Nothing moved during the pass (every page started with the previous page's last post and `total` held),
        /// and the unique posts seen equal `total`.
        var consistent: Bool
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
    private func crawlPass(
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
            counts =
                counts
                + (try naming(request) {
                    try store.recordPage(
                        adopt(fresh, listedUnder: boardId, warn: pass == 1), board: boardId, pass: pass, offset: requestOffset,
                        count: page.items.count, lastPostId: page.items.last?.item.postId ?? anchor, total: page.total,
                        pageHash: page.contentHash, run: run, pageIDs: page.items.map(\.item.postId), at: now())
                })
            seen.formUnion(fresh.map(\.item.postId))
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
            if head.items.map(\.item.postId) != headIDs || head.total != total {
                moved = true
                counts =
                    counts
                    + (try naming("GET /boards/\(boardId)/posts?offset=0&limit=\(configuration.pageSize)") {
                        try store.recordPosts(adopt(head.items, listedUnder: boardId, warn: false), run: run, at: now())
                    })
            }
        }
        return PassResult(seen: seen, total: total, consistent: !moved && seen.count == total)
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
