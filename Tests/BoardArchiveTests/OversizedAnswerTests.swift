import BoardArchive
import FixtureAPI
import Foundation
import GRDB
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Answers that will never get better on a retry are reported as what they are, once, not as network failures; and a
/// store error is one plain sentence, without the SQL statement.
@Suite("Oversized answers and store failures")
struct OversizedAnswerTests {
    /// 1 MiB of zero bytes, gzip-compressed to about 1 kB: a ratio far above the client's limit of 20.
    static let gzipBomb =
        Data(
            base64Encoded:
                "H4sIAI/FA2sC/+3BMQEAAADCoPVPbQhfoAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAPgMc6jinAAAQAA=="
        ) ?? Data()

    @Test func aDecompressionBombIsReportedOnceAsABadBodyNotRetriedAsANetworkFailure() async throws {
        #expect(Self.gzipBomb.count > 500 && Self.gzipBomb.count < 2_000)
        let store = try ArchiveStore.inMemory()
        let listings = FixtureRawListings(boards: [HostileCrawlTests.board(1)], posts: [1: []], gzipPostsBody: Self.gzipBomb)
        let (result, logs) = try await HostileCrawlTests.crawl(listings, into: store)
        guard case .failure(let error as CrawlError) = result, case .undecodableBody(let detail) = error.reason else {
            Issue.record("expected a bad body, got \(result)")
            return
        }
        #expect(detail.contains("decompression bomb"), "\(detail)")
        #expect(error.localizedDescription.hasPrefix("GET /boards/1/posts?offset=0"))
        #expect(!logs.contains { $0.contains("Retrying request") }, "\(logs)")
    }

    @Test func aFullDiskIsOnePlainSentenceWithoutTheSQLStatement() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try ArchiveStore(path: folder.path("archive.sqlite"))
        let pages = try store.write { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
        // SQLite answers SQLITE_FULL ("database or disk is full") once the file would grow past this many pages.
        _ = try store.write { db in try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages + 2)") }
        let posts = (1...400).map { id in
            Post(
                postId: id, title: String(repeating: "글", count: 200), boardId: 1, writer: Writer(displayName: "w"),
                contents: String(repeating: "본문 ", count: 400), createdDateTime: Date(timeIntervalSince1970: 1_700_000_000))
        }
        let error = try #require(throws: StoreError.self) { try store.record(posts: posts, at: Date()) }
        let message = error.localizedDescription
        #expect(message.contains("database or disk is full"), "\(message)")
        #expect(!message.contains("INSERT") && !message.contains("SQLite error"), "\(message)")
        #expect(try store.postCount() == 0, "the failed transaction stored nothing")
    }
}
