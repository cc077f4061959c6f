import Foundation
import Logging

/// Crawls every board of the API into the archive store.
///
/// Boards are crawled `concurrency` at a time, each paged sequentially with `offset`/`limit`; every page and its
/// checkpoint are stored in one transaction, so a killed crawl resumes where it stopped. A board ends on an empty
/// page or when `offset + count >= total`; a short page (`count < limit`) that disagrees with `total` is followed
/// by another request rather than trusted, so the three end rules seen in clients never lose posts.
/// Offset drift (posts inserted or deleted during the crawl) shows as a `total` that changes between pages or a
/// unique count that differs from `total`: the board is then crawled again, and posts missing from a consistent
/// pass are marked gone; a remaining mismatch is reported, not hidden.
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
            let boards = try await client.fetchBoards()
            try store.recordBoards(boards.items, run: runId, at: now())
            report.boards = boards.items.count
            let outcomes = try await crawlBoards(boards.items.map(\.item.boardId), run: runId)
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
            try? store.finishRun(runId, status: "failed", summary: "\(error.localizedDescription)", at: now())
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
        var resumeOffset = 0
        var seen: Set<Int> = []
        if let state = try store.crawlState(ofBoard: boardId, run: run) {
            if state.completed {
                outcome.present = try store.postIDs(ofBoard: boardId, seenInRun: run).count
                return outcome
            }
            pass = state.pass
            resumeOffset = state.nextOffset
            if pass == 1 { seen = try store.postIDs(ofBoard: boardId, seenInRun: run) }
        }
        var everSeen = seen
        while true {
            let result = try await crawlPass(boardId, pass: pass, from: resumeOffset, seen: seen, run: run, into: &outcome.counts)
            everSeen.formUnion(result.seen)
            outcome.passes = pass
            if result.consistent || pass >= configuration.maxPasses {
                let present = result.consistent ? result.seen : everSeen
                if !result.consistent {
                    outcome.mismatch = CrawlReport.Mismatch(boardId: boardId, expected: result.total, found: result.seen.count)
                    logger.error(
                        "Board still disagrees with its total after re-verification",
                        metadata: ["board": "\(boardId)", "total": "\(result.total)", "found": "\(result.seen.count)", "passes": "\(pass)"])
                }
                outcome.gone = try store.completeBoard(boardId, run: run, passes: pass, present: present, total: result.total, at: now())
                outcome.present = present.count
                return outcome
            }
            logger.notice(
                "Posts moved while paging; re-verifying the board",
                metadata: ["board": "\(boardId)", "total": "\(result.total)", "found": "\(result.seen.count)", "pass": "\(pass + 1)"])
            pass += 1
            resumeOffset = 0
            seen = []
        }
    }

    struct PassResult {
        var seen: Set<Int>
        var total: Int
        /// The total never changed during the pass and equals the number of unique posts seen.
        var consistent: Bool
    }

    private func crawlPass(
        _ boardId: Int, pass: Int, from startOffset: Int, seen initial: Set<Int>, run: Int64, into counts: inout RecordCounts
    ) async throws -> PassResult {
        var seen = initial
        var offset = startOffset
        var firstTotal: Int?
        var total = 0
        var totalChanged = false
        while true {
            let page = try await client.fetchPage(of: boardId, offset: offset, limit: configuration.pageSize)
            if let firstTotal, firstTotal != page.total { totalChanged = true }
            firstTotal = firstTotal ?? page.total
            total = page.total
            counts = counts
                + (try store.recordPage(
                    page.items, board: boardId, pass: pass, offset: offset, total: page.total, pageHash: page.contentHash, run: run, at: now()))
            seen.formUnion(page.items.map(\.item.postId))
            if Self.isLastPage(offset: offset, count: page.items.count, total: page.total) { break }
            offset += page.items.count
        }
        return PassResult(seen: seen, total: total, consistent: !totalChanged && seen.count == total)
    }

    /// The end rule: an empty page, or a page reaching `total`. A short page that does not reach `total` is not the
    /// end (a server may cap `limit`), so `count < limit`, `offset + count >= total` and the empty page agree.
    static func isLastPage(offset: Int, count: Int, total: Int) -> Bool {
        count == 0 || offset + count >= total
    }
}
