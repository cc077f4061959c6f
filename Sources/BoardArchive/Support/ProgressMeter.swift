import Foundation
import Synchronization

/// Counts how far a long crawl or build has come, for a display the caller owns.
///
/// The library only counts: the crawler and the site builder update the meter they were given, and whoever made it
/// (the command line) reads ``snapshot`` whenever it wants to draw, on a terminal or as a plain line in CI. Updates
/// are cheap (one lock) and never wait on the display.
public final class ProgressMeter: Sendable {
    /// What has been counted so far.
    public struct Snapshot: Sendable, Equatable {
        /// The boards to crawl or build, once known.
        public var boards = 0
        /// The boards finished.
        public var boardsDone = 0
        /// Pages of posts fetched and stored (crawl).
        public var pages = 0
        /// Posts fetched (crawl) or post pages considered (build).
        public var posts = 0
        /// HTTP requests started (crawl).
        public var requests = 0
        /// Requests retried (crawl).
        public var retries = 0
        /// Output files whose inputs changed and were rendered (build).
        public var filesRendered = 0
        /// Output files written because their bytes changed (build).
        public var filesWritten = 0

        public init() {}
    }

    private let state = Mutex(Snapshot())

    public init() {}

    /// The counts now.
    public var snapshot: Snapshot { state.withLock { $0 } }

    /// Changes the counts.
    func update(_ change: (inout Snapshot) -> Void) {
        state.withLock { change(&$0) }
    }
}
