import BoardArchiveModel
import Foundation

/// Everything a crawl needs to know, resolved once by the command line.
public struct CrawlConfiguration: Sendable {
    /// The API base URL, e.g. `https://mp-dev.mail-server.kr/api/v2`; `/boards` is appended.
    public var api: URL
    /// The bearer token; never printed, logged or stored.
    public var token: APIToken
    /// Posts requested per page (`limit`), default 30 like the board apps; at least 2, because pages overlap by one post.
    public var pageSize: Int
    /// Boards crawled at the same time, hence requests in flight at most (default 4).
    public var concurrency: Int
    /// The most requests started per second, or nil for no cap.
    public var maxRequestsPerSecond: Double?
    /// Full passes over a board whose count disagrees with its `total` before the mismatch is reported (default 3).
    public var maxPasses: Int
    /// Retry, backoff and timeout rules.
    public var retryPolicy: RetryPolicy
    /// Read every board in full (`--full`) instead of incrementally from the newest end. Default false.
    public var readsEverything: Bool
    /// The share of every board re-read each run on the verification rota, 0…1 (default 1/7: a board is re-read in
    /// full once every 7 runs); 0 turns the rota off.
    public var verifyFraction: Double
    /// The boards to crawl (`--board`, `crawl.boards`), or nil for every board. The others are left as they are: not
    /// read, not marked gone; a board of the set that the API no longer lists is marked gone as always. Crawls of
    /// different boards of one PostgreSQL archive run at once on different machines.
    public var onlyBoards: Set<Int>?
    /// The pictures post bodies show: whether they are kept, from where, within which limits.
    public var media = MediaConfiguration()

    public init(
        api: URL, token: APIToken, pageSize: Int = 30, concurrency: Int = 4, maxRequestsPerSecond: Double? = nil, maxPasses: Int = 3,
        retryPolicy: RetryPolicy = RetryPolicy(), readsEverything: Bool = false, verifyFraction: Double = 1.0 / 7
    ) {
        precondition(pageSize >= 2, "pages overlap by one post, so the page size must be at least 2")
        self.api = api
        self.token = token
        self.pageSize = pageSize
        self.concurrency = concurrency
        self.maxRequestsPerSecond = maxRequestsPerSecond
        self.maxPasses = maxPasses
        self.retryPolicy = retryPolicy
        self.readsEverything = readsEverything
        self.verifyFraction = min(max(verifyFraction, 0), 1)
    }

    /// The API location as recorded in the store: scheme, host, port and path only (no user, password or query).
    var apiIdentity: String { BoardAPIClient.location(of: api) }
}

/// What a crawl did, for the summary line and the store.
public struct CrawlReport: Sendable, Equatable {
    /// A board whose unique posts never matched its `total`, even after re-verification.
    public struct Mismatch: Sendable, Equatable {
        public var boardId: Int
        public var expected: Int
        public var found: Int
    }

    public var boards = 0
    public var posts = 0
    public var new = 0
    public var changed = 0
    public var unchanged = 0
    public var gone = 0
    public var requests = 0
    public var retries = 0
    public var reverifiedBoards: [Int] = []
    public var mismatches: [Mismatch] = []
    public var resumed = false
    public var duration: Duration = .zero
    /// What each board's crawl read and why, by board id.
    public var boardSummaries: [BoardCrawlSummary] = []
    /// Posts re-read this run that the store already held (the incremental pages, the rota and full passes).
    public var verifiedPosts = 0
    /// Boards another crawl of the same archive held, so this one left them to it.
    public var skippedBoards: [Int] = []
    /// What the crawl did with pictures.
    public var media = MediaReport()

    /// How many boards were read in each mode.
    public var boardsByMode: [BoardReadMode: Int] {
        Dictionary(grouping: boardSummaries.filter { !$0.resumedDone && $0.skippedBecause == nil }, by: \.mode).mapValues(\.count)
    }

    /// The share of the archive's posts re-read this run, 0…1.
    public var verifiedShare: Double {
        posts == 0 ? 0 : min(1, Double(verifiedPosts) / Double(posts))
    }

    /// One line for people: `5 boards, 236 posts (236 new, 0 changed, 0 gone), 14 requests, 2 retries, 0.4 s`.
    public var summary: String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        var line =
            "\(boards) boards, \(posts) posts (\(new) new, \(changed) changed, \(gone) gone), \(requests) requests, \(retries) retries, "
            + String(format: "%.1f s", seconds)
        line += media.summary
        if resumed { line += ", resumed an interrupted run" }
        if !skippedBoards.isEmpty {
            line +=
                "; skipped board\(skippedBoards.count == 1 ? "" : "s") \(skippedBoards.map(String.init).joined(separator: ", ")), "
                + "which another crawl of this archive was crawling"
        }
        for mismatch in mismatches {
            line += "; board \(mismatch.boardId) still lists \(mismatch.expected) posts but \(mismatch.found) were found"
        }
        return line
    }
}
