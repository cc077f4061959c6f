import Foundation

/// A test-only hook: `BOARDARCHIVE_TEST_BUILD_PAUSE_MS=<n>` makes a build sleep n milliseconds once its first board is
/// finished, so that a test can let a crawl commit pages in the middle of a build's reads and check that the build
/// still publishes one snapshot. Read only here, in the command line; unset, it does nothing.
enum TestPauseHook {
    static let variable = "BOARDARCHIVE_TEST_BUILD_PAUSE_MS"

    /// The build meter's board observer for `environment`: one that pauses after the first board, or one that does nothing.
    static func observer(_ environment: [String: String]) -> @Sendable (Int) -> Void {
        guard let milliseconds = environment[variable].flatMap(Int.init), milliseconds > 0 else { return { _ in } }
        let finished = TestKillHook.Counter()
        return { _ in
            if finished.increment() == 1 { Thread.sleep(forTimeInterval: Double(milliseconds) / 1000) }
        }
    }
}
