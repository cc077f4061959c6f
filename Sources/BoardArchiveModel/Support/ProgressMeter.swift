import Foundation
import Synchronization

/// Counts how far a long crawl or build has come, for a display the caller owns.
///
/// The library only counts: the crawler and the site builder update the meter they were given, and whoever made it
/// (the command line) reads ``snapshot`` whenever it wants to draw, on a terminal or as a plain line in CI. Updates
/// are cheap (one lock) and never wait on the display.
///
/// The share of the work done is counted in posts, not boards: on an archive where one board holds most posts, the
/// boards finished say little. Each board is *sized* once its post count is known (``sizeBoard(_:posts:)``: before the
/// build starts from the store, after a board's first page in a crawl), *credited* as its posts are handled
/// (``credit(_:posts:)``, never beyond its size, so a re-read does not count twice) and *finished* at the end
/// (``finishBoard(_:)``, which credits what an incremental read skipped).
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
        /// The boards whose post count is known (sized).
        public var boardsSized = 0
        /// The posts of the sized boards: the work the stage knows of.
        public var postsExpected = 0
        /// The posts of the sized boards handled so far (at most ``postsExpected``); a finished board counts whole.
        public var postsSettled = 0

        public init() {}

        /// The share of the work done, counted in posts, from 0 to 1; nil before any board is sized.
        ///
        /// Boards not sized yet are taken to hold as many posts as the sized ones do on average; a stage whose boards
        /// are all finished is done whatever the counts say.
        public var fractionDone: Double? {
            if boards > 0, boardsDone >= boards { return 1 }
            guard boardsSized > 0, boards > 0 else { return nil }
            let unsized = max(0, boards - boardsSized)
            let expected = Double(postsExpected) + Double(unsized) * Double(postsExpected) / Double(boardsSized)
            guard expected > 0 else { return Double(boardsDone) / Double(boards) }
            return min(1, Double(postsSettled) / expected)
        }
    }

    /// The snapshot and, per sized board, its size and the posts credited to it.
    private struct State {
        var snapshot = Snapshot()
        var sizes: [Int: (expected: Int, credited: Int)] = [:]
    }

    private let state = Mutex(State())
    /// Told of every board finished, after the count (the command line's test hook pauses there).
    private let boardFinished: @Sendable (Int) -> Void

    public convenience init() {
        self.init(boardFinished: { _ in })
    }

    /// A meter that tells `boardFinished` of every board finished.
    public init(boardFinished: @escaping @Sendable (Int) -> Void) {
        self.boardFinished = boardFinished
    }

    /// The counts now.
    public var snapshot: Snapshot { state.withLock { $0.snapshot } }

    /// Changes the counts.
    package func update(_ change: (inout Snapshot) -> Void) {
        state.withLock { change(&$0.snapshot) }
    }

    /// Records that board `board` holds `posts` posts; only its first size counts.
    package func sizeBoard(_ board: Int, posts: Int) {
        state.withLock { state in
            guard state.sizes[board] == nil else { return }
            state.sizes[board] = (max(0, posts), 0)
            state.snapshot.boardsSized += 1
            state.snapshot.postsExpected += max(0, posts)
        }
    }

    /// Credits `posts` handled posts to board `board`, up to its size; nothing for a board not sized.
    package func credit(_ board: Int, posts: Int) {
        state.withLock { state in
            guard let size = state.sizes[board], posts > 0 else { return }
            let credited = min(size.expected, size.credited + posts)
            state.snapshot.postsSettled += credited - size.credited
            state.sizes[board] = (size.expected, credited)
        }
    }

    /// Credits board `board` whole (posts an incremental read did not need to fetch) and counts it finished.
    package func finishBoard(_ board: Int) {
        state.withLock { state in
            if let size = state.sizes[board] {
                state.snapshot.postsSettled += size.expected - size.credited
                state.sizes[board] = (size.expected, size.expected)
            }
            state.snapshot.boardsDone += 1
        }
        boardFinished(board)
    }
}
