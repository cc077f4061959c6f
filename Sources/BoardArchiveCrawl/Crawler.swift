import BoardArchiveModel
import BoardArchiveRender
import BoardArchiveStore
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
    let store: any ArchiveDatabase
    let logger: Logger
    let now: @Sendable () -> Date
    /// Told of each ``CrawlEvent`` as it happens (the command line's test hook stops the process at a named one).
    let observe: @Sendable (CrawlEvent) -> Void
    /// The thread the pages are written on, one at a time (see ``storing(_:_:)``).
    let storeQueue = DispatchQueue(label: "boardarchive.crawl.store")

    /// - Parameters:
    ///   - stop: Requested on `SIGINT`/`SIGTERM`: no new request starts, pages in flight are stored, the run is
    ///     recorded as interrupted and ``run()`` throws ``CrawlError/Reason/interrupted``.
    ///   - observe: Told of each ``CrawlEvent``; does nothing by default.
    ///   - progress: Counts boards, pages, posts, requests and retries as they happen, for the caller's display.
    public init(
        configuration: CrawlConfiguration, transport: any HTTPTransport, store: any ArchiveDatabase, logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }, stop: CrawlStop = CrawlStop(),
        observe: @escaping @Sendable (CrawlEvent) -> Void = { _ in }, progress: ProgressMeter = ProgressMeter()
    ) {
        self.init(
            configuration: configuration,
            client: BoardAPIClient(
                baseURL: configuration.api, token: configuration.token, transport: transport, retryPolicy: configuration.retryPolicy,
                maxRequestsPerSecond: configuration.maxRequestsPerSecond, logger: logger, stop: stop, progress: progress),
            store: store, logger: logger, now: now, observe: observe)
    }

    init(
        configuration: CrawlConfiguration, client: BoardAPIClient, store: any ArchiveDatabase, logger: Logger, now: @escaping @Sendable () -> Date,
        observe: @escaping @Sendable (CrawlEvent) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.client = client
        self.store = store
        self.logger = logger
        self.now = now
        self.observe = observe
    }

    /// Crawls everything and returns what changed; throws `CrawlError` or `StoreError`, leaving the run resumable.
    public func run() async throws -> CrawlReport {
        let started = ContinuousClock.now
        let lease = try store.leaseForCrawl(at: now())
        defer { lease.release() }
        let (runId, resumed) = try store.beginRun(api: configuration.apiIdentity, pageSize: configuration.pageSize, at: now())
        var report = CrawlReport()
        report.resumed = resumed
        if resumed { logger.notice("Resuming an interrupted crawl run", metadata: ["run": "\(runId)"]) }
        do {
            let boards = uniqueBoards(try await client.fetchBoards().items)
            observe(.boardsFetched)
            let crawled = boards.map(\.item.boardId).filter { configuration.onlyBoards?.contains($0) ?? true }
            if let only = configuration.onlyBoards, crawled.count < only.count {
                let unlisted = only.subtracting(crawled).sorted().map(String.init).joined(separator: ", ")
                logger.warning("Boards asked for are not listed by the API; nothing to crawl of them", metadata: ["boards": "\(unlisted)"])
            }
            client.statistics.meter.update { $0.boards = crawled.count }
            report.gone = try store.recordBoards(boards, run: runId, at: now())
            report.boards = crawled.count
            let outcomes = try await crawlBoards(crawled, run: runId)
            for outcome in outcomes {
                report.posts += outcome.present
                report.new += outcome.counts.new
                report.changed += outcome.counts.changed
                report.unchanged += outcome.counts.unchanged
                report.gone += outcome.gone
                if outcome.passes > 1 { report.reverifiedBoards.append(outcome.boardId) }
                if let mismatch = outcome.mismatch { report.mismatches.append(mismatch) }
                report.verifiedPosts += outcome.verified
                if let summary = outcome.summary { report.boardSummaries.append(summary) }
                if outcome.summary?.skippedBecause != nil { report.skippedBoards.append(outcome.boardId) }
            }
            report.media = try await keepPictures()
        } catch {
            let status = (error as? CrawlError)?.reason == .interrupted ? "interrupted" : "failed"
            try? store.finishRun(runId, status: status, summary: configuration.token.redact(error.localizedDescription), at: now())
            throw error
        }
        report.requests = await client.statistics.requests
        report.retries = await client.statistics.retries
        report.duration = ContinuousClock.now - started
        try store.finishRun(runId, status: "completed", summary: report.summary, at: now())
        return report
    }

    /// How the store reads the pictures of the posts this crawl writes: the renderer's own reading of a body, so the
    /// addresses kept are the ones the pages show. The first ``MediaConfiguration/maxImagesPerPost`` are recorded, and a
    /// post showing more is a warning. With `--media off`, none: a changed post's earlier addresses are forgotten, so
    /// the next crawl with pictures reads it again.
    var mediaReferencing: MediaReferencing {
        guard configuration.media.enabled else { return MediaReferencing { _ in [] } }
        let limit = configuration.media.maxImagesPerPost
        return MediaReferencing { [logger] post in
            let addresses = MarkdownRenderer().pictureAddresses(in: post.contents)
            guard addresses.count > limit else { return addresses }
            logger.warning(
                "Post shows more pictures than media.max-images-per-post; the others stay as their addresses",
                metadata: ["post": "\(post.postId)", "pictures": "\(addresses.count)", "kept": "\(limit)"])
            return Array(addresses.prefix(limit))
        }
    }

    /// Reads the stored posts for pictures once (an archive from before pictures were kept, or crawled with `--media
    /// off` since), then fetches the pictures due (``MediaFetcher``). With `--media off`, records that the posts written
    /// were not read for pictures.
    private func keepPictures() async throws -> MediaReport {
        guard configuration.media.enabled else {
            try store.forgetMediaScan()
            return MediaReport()
        }
        // Crawls of different boards of one PostgreSQL archive share its pictures: one fetches them, the others go on.
        if let holder = try store.tryLock(.media) {
            logger.notice("Pictures left to another crawl of this archive", metadata: ["holder": "\(holder)"])
            return MediaReport()
        }
        defer { try? store.unlock(.media) }
        var scanned = 0
        if !(try store.mediaScanned()) {
            scanned = try await storing("reading stored posts for pictures") { [store, mediaReferencing, now] in
                try store.referStoredPosts(media: mediaReferencing, at: now())
            }
        }
        var report = try await MediaFetcher(
            configuration: configuration.media, policy: MediaPolicy(api: configuration.api, configuration: configuration.media), client: client,
            store: store, concurrency: configuration.concurrency, logger: logger, now: now, observe: observe,
            storing: { request, body in try await storing(request, body) }
        ).run()
        report.postsScanned = scanned
        return report
    }

    struct BoardOutcome: Sendable {
        var boardId: Int
        var present = 0
        var counts = RecordCounts()
        var gone = 0
        var passes = 0
        var mismatch: CrawlReport.Mismatch?
        /// Posts of the board re-read this run.
        var verified = 0
        var summary: BoardCrawlSummary?
    }

    /// Crawls the boards at most `concurrency` at a time, in a stable order of results.
    ///
    /// When a board fails (or a stop is requested), no new request starts, but the boards whose requests are in flight
    /// store their pages before the first error is thrown: a failure never throws away a page already fetched.
    private func crawlBoards(_ ids: [Int], run: Int64) async throws -> [BoardOutcome] {
        try await withThrowingTaskGroup(of: BoardOutcome.self) { group in
            var pending = ids.makeIterator()
            var outcomes: [BoardOutcome] = []
            var firstError: (any Error)?
            for _ in 0..<max(1, configuration.concurrency) {
                guard let id = pending.next() else { break }
                group.addTask { try await crawlBoard(id, run: run) }
            }
            while let result = await group.nextResult() {
                switch result {
                case .success(let outcome):
                    outcomes.append(outcome)
                    observe(.boardFinished(board: outcome.boardId))
                    client.statistics.meter.finishBoard(outcome.boardId)
                    if firstError == nil, !client.stop.isRequested, let id = pending.next() {
                        group.addTask { try await crawlBoard(id, run: run) }
                    }
                case .failure(let error):
                    if firstError == nil {
                        firstError = error
                        client.stop.request()
                    }
                }
            }
            if let firstError { throw firstError }
            if client.stop.isRequested, pending.next() != nil { throw CrawlError(request: "the next board", reason: .interrupted) }
            return outcomes.sorted { $0.boardId < $1.boardId }
        }
    }

    /// One board, unless another crawl of the same archive holds it (``ArchiveLock/board(_:)``: two crawls never
    /// interleave one board's pages): then it is skipped here, with a warning naming the holder, and left to that crawl.
    func crawlBoard(_ boardId: Int, run: Int64) async throws -> BoardOutcome {
        if let holder = try store.tryLock(.board(boardId)) {
            logger.warning("Board skipped: another crawl of this archive is crawling it", metadata: ["board": "\(boardId)", "holder": "\(holder)"])
            var outcome = BoardOutcome(boardId: boardId)
            outcome.summary = BoardCrawlSummary(boardId: boardId, mode: .incremental, skippedBecause: holder)
            return outcome
        }
        do {
            let outcome = try await crawlHeldBoard(boardId, run: run)
            try store.unlock(.board(boardId))
            return outcome
        } catch {
            try? store.unlock(.board(boardId))
            throw error
        }
    }

    /// One board this crawl holds: an incremental read from the newest end (or a full pass with `--full`), then pass
    /// after pass until a pass is consistent with the board's `total`, or the passes run out.
    private func crawlHeldBoard(_ boardId: Int, run: Int64) async throws -> BoardOutcome {
        var outcome = BoardOutcome(boardId: boardId)
        var pass = 1
        var mode: BoardReadMode = configuration.readsEverything ? .full : .incremental
        var start = PassStart(incremental: mode == .incremental)
        var everSeen: Set<Int> = []
        if let state = try store.crawlState(ofBoard: boardId, run: run) {
            everSeen = try store.postIDs(ofBoard: boardId, seenInRun: run)
            mode = try store.mode(ofBoard: boardId, run: run) ?? mode
            if state.completed {
                outcome.present = try store.livePostCount(ofBoard: boardId)
                outcome.summary = BoardCrawlSummary(boardId: boardId, mode: mode, resumedDone: true)
                return outcome
            }
            pass = state.pass
            // Pass 1 resumes mid-board: what it saw is what this run stored. A later pass restarts from the top,
            // because the posts it saw cannot be told apart from those of pass 1.
            if pass == 1 {
                start = PassStart(
                    offset: state.nextOffset, anchor: state.anchor, firstTotal: state.firstTotal, headIDs: state.headIDs, seen: everSeen,
                    incremental: mode == .incremental)
            }
        } else {
            try store.recordMode(mode, ofBoard: boardId, run: run)
        }
        var summary = BoardCrawlSummary(boardId: boardId, mode: mode)
        while true {
            let result: PassResult
            do {
                result = try await crawlPass(boardId, pass: pass, from: start, run: run, into: &outcome.counts)
            } catch let error as CrawlError where error.reason == .notFound {
                return try boardAnswered404(boardId, mode: mode, outcome: outcome)
            }
            summary.requests += result.requests
            summary.total = result.total
            if result.stoppedEarly {
                do {
                    return try await finishIncremental(boardId, result: result, summary: summary, run: run, outcome: outcome)
                } catch let error as CrawlError where error.reason == .notFound {
                    return try boardAnswered404(boardId, mode: mode, outcome: outcome)
                }
            }
            if let reason = result.fellBack {
                summary.mode = .fallback
                summary.reason = reason
            } else if mode == .incremental, pass == 1 {
                // Read to its end without disagreeing with the store: a board the store did not hold yet, or one page.
                summary.mode = result.consistent ? .incremental : .fallback
                summary.reason =
                    result.consistent
                    ? (outcome.counts.new > 0 ? "\(outcome.counts.new) new, read to its end" : "nothing new")
                    : "the board moved while it was read"
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
                if result.consistent {
                    try store.recordVerified(board: boardId, fromOldest: 0, toOldest: result.total, total: result.total, run: run, at: now())
                    outcome.verified = result.total
                }
                outcome.present = result.consistent ? result.seen.count : everSeen.count
                summary.new = outcome.counts.new
                summary.changed = outcome.counts.changed
                summary.gone = outcome.gone
                outcome.summary = summary
                return outcome
            }
            logger.notice(
                "Posts moved while paging; re-verifying the board",
                metadata: ["board": "\(boardId)", "total": "\(result.total)", "found": "\(result.seen.count)", "pass": "\(pass + 1)"])
            pass += 1
            start = PassStart()
        }
    }

    /// The board was listed but answers 404 now: its posts are kept and marked gone with it, and the others go on.
    private func boardAnswered404(_ boardId: Int, mode: BoardReadMode, outcome: BoardOutcome) throws -> BoardOutcome {
        var outcome = outcome
        logger.warning("Board answered 404 after being listed; marked gone with its posts", metadata: ["board": "\(boardId)"])
        outcome.gone = try store.markBoardGone(boardId, at: now())
        outcome.summary = BoardCrawlSummary(boardId: boardId, mode: mode, reason: "listed but answered 404; marked gone", gone: outcome.gone)
        return outcome
    }

    /// Ends a board whose incremental read agreed with the store: re-reads its part of the rota, then records it done
    /// without marking anything gone from the pages it did not read.
    private func finishIncremental(
        _ boardId: Int, result: PassResult, summary: BoardCrawlSummary, run: Int64, outcome: BoardOutcome
    ) async throws -> BoardOutcome {
        var outcome = outcome
        var summary = summary
        summary.reason = outcome.counts.new > 0 ? "\(outcome.counts.new) new at the top" : "nothing new"
        let rota = try await verifyRotaPart(of: boardId, total: result.total, headRead: result.postsRead, run: run, into: &outcome.counts)
        summary.requests += rota.requests
        summary.verified = rota.part
        outcome.gone = rota.gone
        outcome.verified = min(result.total, result.postsRead + (rota.part?.count ?? 0))
        _ = try store.completeBoard(boardId, run: run, passes: 1, present: nil, found: result.total, total: result.total, at: now())
        outcome.present = try store.livePostCount(ofBoard: boardId)
        outcome.passes = 1
        summary.new = outcome.counts.new
        summary.changed = outcome.counts.changed
        summary.gone = outcome.gone
        outcome.summary = summary
        return outcome
    }
}
