import BoardArchive
import Foundation
import Logging
import Synchronization

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Collects every log line (message and metadata rendered as text) so tests can look for leaks.
final class CapturedLogs: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    /// The crawl's "Retrying request" lines, to say in a failed expectation why a faultless crawl retried.
    var retries: String { all.filter { $0.contains("Retrying request") }.joined(separator: "\n") }

    func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "test") { _ in CapturingHandler(sink: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    private struct CapturingHandler: LogHandler {
        let sink: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            sink.append("\(event.level) \(event.message) \(metadata.merging(event.metadata ?? [:]) { $1 })")
        }
    }
}

/// A fresh temporary folder, removed by the caller with `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("boardarchive-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A retry policy with millisecond delays, so retry tests run fast while still taking the real code paths.
///
/// The request timeout is long: no test relies on it, and on a loaded 2-core CI machine running the whole suite at
/// once a loopback request once took more than 10 s, so a faultless crawl counted retries (the stop of 2026-11-27).
let fastRetries = RetryPolicy(
    maxAttempts: 8, baseDelay: .milliseconds(2), maxDelay: .milliseconds(20), maxThrottledAttempts: 20, maxRetryAfter: .seconds(5),
    requestTimeout: .seconds(120))

/// The real transport as the crawl command wires it: its read timeout is the policy's request timeout. The fixture
/// server answers on the shared cooperative pool, which the suite's parallel builds can hold for tens of seconds on a
/// two-core CI machine; the transport's own 30 s default then failed first pages there and broke tests that expect
/// no retry (CI of 9411824: `offsetDriftLeavesNoDuplicateAndNoLoss`).
func testTransport() -> AsyncHTTPTransport { AsyncHTTPTransport(readTimeout: fastRetries.requestTimeout) }

let testToken = "eyJhbGciOiJIUzI1NiJ9.SECRET-TEST-TOKEN-7f3a9c.signature"

func makePost(_ id: Int, board: Int = 1, type: PostType = .normal, created: String = "2026-11-01T09:00:00Z") -> Post {
    Post(
        postId: id, title: "글 \(id)", boardId: board, boardDisplayName: "게시판 \(board)", writer: Writer(displayName: "작성자 \(id)"),
        contents: "본문 \(id)", createdDateTime: ArchiveDate.parse(created) ?? Date(timeIntervalSince1970: 0), postType: type)
}
