import BoardArchive
import FixtureAPI
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The store seam's conformance: the same crawls, nightly changes and takedowns, done to a SQLite store and to a
/// PostgreSQL store, leave every row of every table the same (``ArchiveTable/all``, the tables `store copy` moves).
/// The crawler's own suite (``CrawlerTests``) runs each of its store tests against both backends too.
@Suite("Store conformance: SQLite and PostgreSQL")
struct StoreConformanceTests {
    /// Every row of every table of a store, by table, in key order; a crawl run's summary (which holds its duration)
    /// left out.
    static func contents(_ store: any ArchiveDatabase) throws -> [String: [[StoredValue]]] {
        var result: [String: [[StoredValue]]] = [:]
        for table in ArchiveTable.all {
            var rows = try store.readOnly { db in
                try db.rows(table.selectSQL(after: false, placeholders: [], limitPlaceholder: "1000000000"))
            }
            if let summary = table.columns.firstIndex(of: "summary") {
                for index in rows.indices { rows[index][summary] = .null }
            }
            result[table.name] = rows
        }
        return result
    }

    /// The differences between two stores' contents, table by table, for a failure message.
    static func differences(_ left: [String: [[StoredValue]]], _ right: [String: [[StoredValue]]]) -> [String] {
        ArchiveTable.all.compactMap { table in
            let (a, b) = (left[table.name] ?? [], right[table.name] ?? [])
            guard a != b else { return nil }
            let first = zip(a, b).first { $0 != $1 }.map { "first differing rows: \($0) vs \($1)" } ?? "row counts \(a.count) vs \(b.count)"
            return "\(table.name): \(first)"
        }
    }

    /// Crawls the fixture server into `store` with the clock at `time`.
    static func crawl(_ server: FixtureServer, into store: any ArchiveDatabase, at time: Date) async throws -> CrawlReport {
        let transport = testTransport()
        defer { Task { try? await transport.shutdown() } }
        let configuration = CrawlConfiguration(
            api: server.baseURL, token: try #require(APIToken(testToken)), pageSize: 7, concurrency: 3, retryPolicy: fastRetries)
        return try await Crawler(configuration: configuration, transport: transport, store: store, logger: CapturedLogs().logger(), now: { time })
            .run()
    }

    @Test func crawlsNightlyChangesAndTakedownsLeaveTheSameRowsInBothStores() async throws {
        let sqlite = try TestStore(.sqlite)
        let postgres = try TestStore(.postgres)
        defer { postgres.remove() }
        let stores = [sqlite.database, postgres.database]
        let server = try await FixtureServer.start(FixtureServerConfiguration(dataset: try FixtureDataset.bundledDemo(), token: testToken))
        defer { Task { await server.stop() } }
        let day = Date(timeIntervalSince1970: 1_795_000_000)

        func expectSame(_ step: String) throws {
            let (left, right) = (try Self.contents(stores[0]), try Self.contents(stores[1]))
            #expect(Self.differences(left, right).isEmpty, "after \(step): \(Self.differences(left, right))")
            #expect((left["post"] ?? []).count > 100, "after \(step): the stores hold the dataset")
        }

        // 1. The first crawl.
        for store in stores { _ = try await Self.crawl(server, into: store, at: day) }
        try expectSame("the first crawl")

        // 2. The source changes: a post edited, one deleted, one added; a nightly (incremental) crawl.
        var dataset = await server.dataset
        let boardId = try #require(dataset.posts.first?.boardId)
        let onBoard = dataset.posts.indices.filter { dataset.posts[$0].boardId == boardId }
        dataset.posts[onBoard[0]].title += " (고침)"
        dataset.posts.remove(at: onBoard[3])
        var added = dataset.posts[onBoard[0]]
        added.postId = (dataset.posts.map(\.postId).max() ?? 0) + 1
        added.createdDateTime = day
        dataset.posts.append(added)
        await server.replaceDataset(with: dataset)
        var reports: [CrawlReport] = []
        for store in stores { reports.append(try await Self.crawl(server, into: store, at: day + 86_400)) }
        #expect(reports[0].new == 1 && reports[1].new == 1)
        #expect(reports[0].gone == reports[1].gone && reports[0].changed == reports[1].changed)
        try expectSame("the nightly crawl")

        // 3. Takedowns: a writer anonymized, a post removed and purged, a board removed and then restored.
        let writer = try #require(dataset.posts.first { $0.boardId != boardId }?.writer.displayName)
        let purged = dataset.posts[onBoard[1]].postId
        for store in stores {
            try store.redact(RedactionRequest(target: .writer(writer), mode: .anonymize, reason: "asked"), at: day + 90_000)
            try store.redact(RedactionRequest(target: .post(purged), purge: true, reason: "court order"), at: day + 90_001)
            let board = try store.redact(RedactionRequest(target: .board(boardId), reason: "mistake"), at: day + 90_002)
            try store.undoRedaction(board.id, at: day + 90_003)
        }
        try expectSame("the takedowns")
        for store in stores {
            #expect(try store.redactions().map(\.postCount).prefix(2).allSatisfy { $0 > 0 })
            let row = try store.readOnly { db in try db.row("SELECT title, contents, raw FROM post WHERE postId = ?", [.init(purged)]) }
            #expect(row == [.text(""), .text(""), .text("{}")], "the purged post keeps no text")
        }

        // 4. A full crawl after the takedowns: the purged post is served again and never stored again.
        for store in stores { _ = try await Self.crawl(server, into: store, at: day + 172_800) }
        try expectSame("a crawl after the takedowns")
        let text = try stores[1].readOnly { db in try db.value("SELECT title FROM post WHERE postId = ?", [.init(purged)]) }
        #expect(text == .text(""))
    }

    @Test(arguments: StoreBackend.allCases)
    func aRedactionMadeDuringACrawlIsHonouredByItsLaterPages(backend: StoreBackend) async throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        let other = try test.secondConnection()
        // Board 2's posts are all by one writer; the redaction is made (on another connection: another machine) while
        // board 1 is being crawled, before any page of board 2.
        let posts: [Int: [Post]] = [
            1: (1...40).map { makePost($0, board: 1) },
            2: (41...80).map { id in
                var post = makePost(id, board: 2)
                post.writer = Writer(displayName: id == 41 ? "홍길동" : "작성자 \(id)")
                return post
            },
        ]
        let api = CrawlerTests.MemoryAPI(
            boards: [Board(boardId: 1, displayName: "a", orderNo: 1), Board(boardId: 2, displayName: "b", orderNo: 2)],
            posts: [1: posts[1] ?? [], 2: []])
        // The first crawl archives board 2's writer (so that the redaction has someone to name), then board 2 grows.
        api.posts.withLock { $0[2] = Array((posts[2] ?? []).prefix(1)) }
        let configuration = CrawlConfiguration(
            api: CrawlerTests.base, token: try #require(APIToken(testToken)), pageSize: 30, concurrency: 1, retryPolicy: fastRetries)
        _ = try await Crawler(configuration: configuration, transport: api.transport, store: store, logger: CapturedLogs().logger()).run()
        api.posts.withLock {
            $0[2] = (posts[2] ?? []).map { post in
                var post = post
                post.writer = Writer(displayName: "홍길동")
                return post
            }
        }
        let observe: @Sendable (CrawlEvent) -> Void = { event in
            if event == .boardFinished(board: 1) {
                _ = try? other.redact(RedactionRequest(target: .writer("홍길동"), reason: "asked during a crawl"), at: Date())
            }
        }
        _ = try await Crawler(
            configuration: configuration, transport: api.transport, store: store, logger: CapturedLogs().logger(), observe: observe
        ).run()
        let modes = try store.readOnly { db in try db.column("SELECT redactionMode FROM post WHERE boardId = 2 ORDER BY postId") }
        #expect(modes.count == 40)
        #expect(modes.allSatisfy { $0 == .text("remove") }, "every post of board 2 written after the redaction is redacted: \(modes)")
        #expect(try store.postCount(inBoard: 2) == 0)
        #expect(try store.postCount(inBoard: 1) == 40)
    }
}
