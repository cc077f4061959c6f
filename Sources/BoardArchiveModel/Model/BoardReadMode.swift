/// How a board was read in a crawl run, and why.
public enum BoardReadMode: String, Sendable, Equatable, CaseIterable {
    /// Read from the newest end until a page brought only posts the store already held and the board's `total`
    /// agreed with the store: nothing new, or only new posts at the top.
    case incremental
    /// The incremental read found the board's `total` disagreeing with the store (a post inserted below the top, or
    /// deleted), so the whole board was read again, drift-safe, and posts it no longer lists were marked gone.
    case fallback
    /// `--full`: the whole board was read, drift-safe.
    case full
}

/// What one board's crawl read and found, for the per-board summary line.
public struct BoardCrawlSummary: Sendable, Equatable {
    public var boardId: Int
    public var mode: BoardReadMode
    /// Why the board was read the way it was, in a few words (`2 new posts at the top`, `total 138 but the store holds 137`).
    public var reason: String
    /// Requests made for the board's pages (retries not counted), the rota's included.
    public var requests: Int
    /// The rota's part, in posts from the oldest end, when one was re-read.
    public var verified: Range<Int>?
    /// The posts the board lists now.
    public var total: Int
    public var new: Int
    public var changed: Int
    public var gone: Int
    /// The board finished in an earlier, interrupted attempt of this run and was not read again.
    public var resumedDone: Bool
    /// Who crawled the board instead (another crawl of the same archive held it), when it was skipped.
    public var skippedBecause: String?

    public init(
        boardId: Int, mode: BoardReadMode, reason: String = "", requests: Int = 0, verified: Range<Int>? = nil, total: Int = 0,
        new: Int = 0, changed: Int = 0, gone: Int = 0, resumedDone: Bool = false, skippedBecause: String? = nil
    ) {
        self.boardId = boardId
        self.mode = mode
        self.reason = reason
        self.requests = requests
        self.verified = verified
        self.total = total
        self.new = new
        self.changed = changed
        self.gone = gone
        self.resumedDone = resumedDone
        self.skippedBecause = skippedBecause
    }

    /// One line for people, e.g. `board 3: incremental (2 new posts at the top), 1 request; rota re-read posts 0–20 of
    /// 137 from the oldest; 2 new, 0 changed, 0 gone`.
    public var line: String {
        if resumedDone { return "board \(boardId): finished before the interruption, not read again" }
        if let skippedBecause { return "board \(boardId): skipped, another crawl of this archive is crawling it (\(skippedBecause))" }
        let label: String
        switch mode {
        case .incremental: label = "incremental"
        case .fallback: label = "fallback full pass"
        case .full: label = "full pass (--full)"
        }
        var text = "board \(boardId): \(label)" + (reason.isEmpty ? "" : " (\(reason))") + ", \(requests) request\(requests == 1 ? "" : "s")"
        if let verified {
            text += "; rota re-read posts \(verified.lowerBound)–\(verified.upperBound) of \(total) from the oldest"
        }
        return text + "; \(new) new, \(changed) changed, \(gone) gone"
    }
}
