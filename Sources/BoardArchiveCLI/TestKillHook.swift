import BoardArchive
import Foundation
import Synchronization

/// A test-only hook: `BOARDARCHIVE_TEST_KILL_AT=<event>[:<n>]` kills the process with `SIGKILL` at the n-th (default
/// first) ``CrawlEvent`` of that name (`boards-fetched`, `inside-page-transaction`, `page-stored`, `board-finished`), so
/// the kill tests can stop a crawl at a named point and check that the next run resumes. Read only here, in the
/// command line; unset, it does nothing.
enum TestKillHook {
    static let variable = "BOARDARCHIVE_TEST_KILL_AT"

    /// The crawl's observer for `environment`: one that kills at the named event, or one that does nothing.
    static func observer(_ environment: [String: String]) -> @Sendable (CrawlEvent) -> Void {
        guard let value = environment[variable], !value.isEmpty else { return { _ in } }
        let parts = value.split(separator: ":")
        let name = String(parts[0])
        let target = parts.count > 1 ? Int(parts[1]) ?? 1 : 1
        let counter = Counter()
        return { event in
            guard event.name == name else { return }
            if counter.increment() == target {
                kill(getpid(), SIGKILL)
                // SIGKILL cannot be caught; nothing runs after it.
            }
        }
    }

    /// A shareable counter of matching events (the build's pause hook counts with it too).
    final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func increment() -> Int { value.add(1, ordering: .sequentiallyConsistent).newValue }
    }
}
