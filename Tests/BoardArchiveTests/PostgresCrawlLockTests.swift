import BoardArchive
import Foundation
import Synchronization
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Several crawls of one PostgreSQL archive at once: runs and boards are locked with advisory locks, so two crawls never
/// interleave one board's pages and never take each other's run over, and together they lose nothing.
@Suite("PostgreSQL: crawls of one archive at once")
struct PostgresCrawlLockTests {
    typealias MemoryAPI = CrawlerTests.MemoryAPI

    static func crawl(_ api: MemoryAPI, into store: any ArchiveDatabase, logs: CapturedLogs = CapturedLogs()) async throws -> CrawlReport {
        let configuration = CrawlConfiguration(
            api: CrawlerTests.base, token: try #require(APIToken(testToken)), pageSize: 30, concurrency: 1, retryPolicy: fastRetries)
        return try await Crawler(configuration: configuration, transport: api.transport, store: store, logger: logs.logger()).run()
    }

    static func boards(_ count: Int, posts: Int) -> (boards: [Board], posts: [Int: [Post]]) {
        let boards = (1...count).map { Board(boardId: $0, displayName: "게시판 \($0)", orderNo: $0) }
        let lists = Dictionary(
            uniqueKeysWithValues: boards.map { board in
                (board.boardId, (1...posts).map { makePost(board.boardId * 1_000 + $0, board: board.boardId) })
            })
        return (boards, lists)
    }

    @Test func aBoardAnotherCrawlHoldsIsSkippedNamingTheHolderAndCrawledOnceFree() async throws {
        let test = try TestStore(.postgres)
        defer { test.remove() }
        let store = test.database
        let other = try test.secondConnection()
        let (boards, posts) = Self.boards(3, posts: 40)
        let api = MemoryAPI(boards: boards, posts: posts)
        #expect(try other.tryLock(.board(2)) == nil)
        // This process's connection already holds it: a second take is refused too.
        #expect(try other.tryLock(.board(2)) != nil)
        let logs = CapturedLogs()
        let report = try await Self.crawl(api, into: store, logs: logs)
        #expect(report.skippedBoards == [2])
        #expect(report.summary.contains("skipped board 2, which another crawl of this archive was crawling"))
        let line = try #require(report.boardSummaries.first { $0.boardId == 2 }?.line)
        #expect(line.contains("skipped") && line.contains("boardarchive pid \(getpid())"), "\(line)")
        #expect(logs.all.contains { $0.contains("Board skipped") && $0.contains("boardarchive pid") })
        #expect(try store.postCount(inBoard: 1) == 40 && store.postCount(inBoard: 3) == 40)
        #expect(try store.postCount(inBoard: 2) == 0, "no page of the held board was written")
        try other.unlock(.board(2))
        let again = try await Self.crawl(api, into: store)
        #expect(again.skippedBoards.isEmpty)
        #expect(try store.postCount(inBoard: 2) == 40)
    }

    @Test func aRunAnotherCrawlHoldsIsNeitherResumedNorAbandoned() async throws {
        let test = try TestStore(.postgres)
        defer { test.remove() }
        let store = test.database
        let other = try test.secondConnection()
        let (boards, posts) = Self.boards(2, posts: 10)
        let (held, resumedOther) = try other.beginRun(api: CrawlerTests.base.absoluteString, pageSize: 30, at: Date())
        #expect(!resumedOther)
        let report = try await Self.crawl(MemoryAPI(boards: boards, posts: posts), into: store)
        #expect(!report.resumed, "the run another crawl holds is not taken over")
        let status = try store.readOnly { db in try db.value("SELECT status FROM crawl_run WHERE runId = ?", [.init(held)]) }
        #expect(status == .text("running"))
        // Once its holder is gone (its backend ended, as a killed crawl's is), the next crawl resumes it.
        let pid = try other.readOnly { db in try db.value("SELECT pg_backend_pid()") }
        _ = try store.readOnly { db in try db.value("SELECT pg_terminate_backend(CAST(? AS integer))", [pid ?? .null]) }
        for _ in 0..<100 where try store.tryLock(.run(held)) != nil { try await Task.sleep(for: .milliseconds(50)) }
        try store.unlock(.run(held))
        let next = try await Self.crawl(MemoryAPI(boards: boards, posts: posts), into: store)
        #expect(next.resumed)
    }

    /// The crawl's board tasks share one connection: when it is lost, each of them sees it fail at once. They must make
    /// one new connection between them, holding the locks again; a second one would close the first, whose session
    /// the server ends a moment later, and find the locks still held by it (a CI run failed so).
    @Test func tasksThatLoseTheConnectionTogetherReconnectOnceAndKeepTheirLocks() async throws {
        let test = try TestStore(.postgres)
        defer { test.remove() }
        let base = try #require(test.database as? PostgresArchive)
        let logs = CapturedLogs()
        let connector = PostgresConnector(url: base.connector.url, password: base.connector.password, logger: logs.logger(level: .notice))
        let store = try PostgresArchive.open(connector, creating: false, reconnectWindow: .seconds(20))
        defer { store.close() }
        let other = try test.secondConnection()
        let locks: [ArchiveLock] = [.run(7), .board(2), .board(3)]
        for lock in locks { #expect(try store.tryLock(lock) == nil) }
        let pid = try store.readOnly { db in try db.value("SELECT pg_backend_pid()") }
        _ = try other.readOnly { db in try db.value("SELECT pg_terminate_backend(CAST(? AS integer))", [pid ?? .null]) }
        for _ in 0..<200 where !store.session.withLock({ $0.connection.isClosed }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(store.session.withLock { $0.connection.isClosed }, "the server ended the store's connection")
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                _ = try store.transact { db in try db.value("SELECT 1") }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [], "every task goes on after the reconnect")
        let reconnects = logs.all.filter { $0.contains("Reconnected to the PostgreSQL store") }
        #expect(reconnects.count == 1, "one new connection: \(logs.all)")
        for lock in locks {
            #expect(try other.tryLock(lock) != nil, "\(lock) is held again by the store")
        }
        let newPid = try store.readOnly { db in try db.value("SELECT pg_backend_pid()") }
        #expect(newPid != pid)
    }

    @Test func twoCrawlsOfOneArchiveAtOnceStoreEveryPostOnceAndShareTheBoards() async throws {
        let test = try TestStore(.postgres)
        defer { test.remove() }
        let first = test.database
        let second = try test.secondConnection()
        let (boards, posts) = Self.boards(6, posts: 90)
        // A slow source, so that the two crawls overlap.
        let api = MemoryAPI(boards: boards, posts: posts, requestLimit: 10_000) { _, _ in
            Thread.sleep(forTimeInterval: 0.01)
            return nil
        }
        async let a = Self.crawl(api, into: first)
        async let b = Self.crawl(api, into: second)
        let reports = try await [a, b]
        for board in boards {
            #expect(try first.postCount(inBoard: board.boardId) == 90)
            #expect(reports.contains { !$0.skippedBoards.contains(board.boardId) }, "board \(board.boardId) was crawled by one of them")
        }
        let rows = try first.readOnly { db in try db.row("SELECT COUNT(*), COUNT(DISTINCT postId) FROM post") }
        #expect(rows == [.integer(540), .integer(540)])
        let runs = try first.readOnly { db in try db.column("SELECT status FROM crawl_run ORDER BY runId") }
        #expect(runs == [.text("completed"), .text("completed")], "each crawl had a run of its own")
    }
}
