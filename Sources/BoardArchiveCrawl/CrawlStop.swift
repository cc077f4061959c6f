import Synchronization

/// A request to stop a crawl politely: no new request starts, requests in flight finish and their pages are stored.
///
/// The command line requests it on `SIGINT` or `SIGTERM`; the crawler also requests it itself when one board fails, so
/// the other boards store the pages they are fetching and stop. Thread-safe.
public final class CrawlStop: Sendable {
    private let requested = Atomic<Bool>(false)

    public init() {}

    /// Asks the crawl to start no new request.
    public func request() {
        requested.store(true, ordering: .sequentiallyConsistent)
    }

    /// Whether a stop was requested.
    public var isRequested: Bool {
        requested.load(ordering: .sequentiallyConsistent)
    }
}

/// A point of a crawl a ``Crawler`` reports to its observer, for progress and for tests that stop the process there.
public enum CrawlEvent: Sendable, Equatable {
    /// `GET /boards` answered; nothing of it is stored yet.
    case boardsFetched
    /// Inside the store transaction of a page, after its posts are written and before it commits.
    case insidePageTransaction(board: Int, offset: Int)
    /// A page and its checkpoint were committed.
    case pageStored(board: Int, offset: Int)
    /// A board finished and was recorded as completed.
    case boardFinished(board: Int)
    /// A picture was fetched and its transaction committed.
    case pictureKept

    /// The event's name without its values: `boards-fetched`, `inside-page-transaction`, `page-stored`, `board-finished`.
    public var name: String {
        switch self {
        case .boardsFetched: return "boards-fetched"
        case .insidePageTransaction: return "inside-page-transaction"
        case .pageStored: return "page-stored"
        case .boardFinished: return "board-finished"
        case .pictureKept: return "picture-kept"
        }
    }
}
