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

/// The real client and crawler against the real fixture server on 127.0.0.1:0, over real HTTP, into both stores
/// (SQLite and PostgreSQL).
@Suite("Crawl over HTTP against the fixture API")
struct CrawlOverHTTPTests {
    /// Starts a fixture server, runs `body`, and stops the server and the transport on every path.
    func withServer<T>(
        dataset: FixtureDataset? = nil, faults: FixtureFaults = .none, _ body: (FixtureServer, AsyncHTTPTransport) async throws -> T
    ) async throws -> T {
        let server = try await FixtureServer.start(
            FixtureServerConfiguration(dataset: try dataset ?? FixtureDataset.bundledDemo(), faults: faults, token: testToken))
        let transport = testTransport()
        do {
            let result = try await body(server, transport)
            try await transport.shutdown()
            await server.stop()
            return result
        } catch {
            try? await transport.shutdown()
            await server.stop()
            throw error
        }
    }

    func configuration(_ server: FixtureServer, pageSize: Int = 30) throws -> CrawlConfiguration {
        CrawlConfiguration(api: server.baseURL, token: try #require(APIToken(testToken)), pageSize: pageSize, retryPolicy: fastRetries)
    }

    /// The store's live (not gone) posts must be exactly the server's posts, field for field.
    func expectStoreHolds(_ dataset: FixtureDataset, store: any ArchiveDatabase & ArchiveSource) throws {
        var stored: [Int: Post] = [:]
        for post in try store.publishedPosts().values where try store.history(ofPost: post.postId)?.goneSince == nil {
            stored[post.postId] = post
        }
        #expect(stored.count == dataset.posts.count)
        for post in dataset.posts {
            #expect(stored[post.postId] == post, "post \(post.postId) differs")
        }
        #expect(try store.snapshot(pseudonyms: nil).boards().map(\.boardId).sorted() == dataset.boards.map(\.boardId).sorted())
    }

    @Test(arguments: StoreBackend.allCases)
    func theStoreHoldsExactlyTheDataset(backend: StoreBackend) async throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        let logs = CapturedLogs()
        let (report, dataset) = try await withServer { server, transport in
            let report = try await Crawler(
                configuration: try configuration(server), transport: transport, store: store, logger: logs.logger()
            ).run()
            return (report, await server.dataset)
        }
        try expectStoreHolds(dataset, store: store)
        #expect(report.boards == dataset.boards.count)
        #expect(report.new == dataset.posts.count)
        #expect(report.retries == 0, "\(logs.retries)")
        #expect(report.mismatches.isEmpty)
    }

    @Test(arguments: StoreBackend.allCases)
    func aFlakyThrottlingServerStillYieldsEveryPost(backend: StoreBackend) async throws {
        // 20 % of requests fail with 503 and every 10th request answers 429 with Retry-After: 1.
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        let faults = FixtureFaults(failureRate: 0.2, failureStatuses: [503], tooManyRequestsEvery: 10, retryAfterSeconds: 1, seed: 42)
        let (report, dataset, statuses) = try await withServer(faults: faults) { server, transport in
            let report = try await Crawler(
                configuration: try configuration(server), transport: transport, store: store, logger: CapturedLogs().logger()
            ).run()
            return (report, await server.dataset, await server.statusCounts)
        }
        try expectStoreHolds(dataset, store: store)
        #expect((statuses[429] ?? 0) > 0)
        #expect((statuses[503] ?? 0) > 0)
        #expect(statuses[500] == nil)
        #expect(report.retries == (statuses[429] ?? 0) + (statuses[503] ?? 0))
    }

    @Test(arguments: StoreBackend.allCases)
    func droppedConnectionsAndTruncatedBodiesAreRetried(backend: StoreBackend) async throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        let faults = FixtureFaults(dropConnectionRate: 0.15, truncatedJSONRate: 0.15, seed: 7)
        let (report, dataset, dropped, truncated) = try await withServer(faults: faults) { server, transport in
            let report = try await Crawler(
                configuration: try configuration(server), transport: transport, store: store, logger: CapturedLogs().logger()
            ).run()
            return (report, await server.dataset, await server.droppedConnectionCount, await server.truncatedResponseCount)
        }
        try expectStoreHolds(dataset, store: store)
        #expect(dropped > 0)
        #expect(truncated > 0)
        #expect(report.retries >= dropped + truncated)
    }

    @Test(arguments: StoreBackend.allCases, [(5, 0), (0, 4), (3, 2), (2, 2)])
    func offsetDriftLeavesNoDuplicateAndNoLoss(backend: StoreBackend, drift: (insert: Int, delete: Int)) async throws {
        let (insert, delete) = drift
        // Board 28479 holds 137 posts: the drift happens after its first page, mid-crawl.
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        let faults = FixtureFaults(offsetDrift: .init(boardId: 28_479, insert: insert, delete: delete))
        let logs = CapturedLogs()
        let (report, final, original) = try await withServer(faults: faults) { server, transport in
            let original = await server.dataset
            let report = try await Crawler(
                configuration: try configuration(server), transport: transport, store: store, logger: logs.logger()
            ).run()
            return (report, await server.dataset, original)
        }
        try expectStoreHolds(final, store: store)
        // A retried first page would be answered after the drift and hide it; say so if it ever happens.
        #expect(report.retries == 0, "\(logs.retries)")
        #expect(report.reverifiedBoards == [28_479])
        #expect(report.mismatches.isEmpty)
        #expect(report.gone == delete)
        // The deleted posts are kept in the archive, marked gone.
        let deleted = Set(original.posts.map(\.postId)).subtracting(final.posts.map(\.postId))
        #expect(deleted.count == delete)
        for id in deleted { #expect(try store.history(ofPost: id)?.goneSince != nil) }
        #expect(try store.postCount() == original.posts.count + insert)
    }

    @Test(arguments: StoreBackend.allCases)
    func unauthorizedMidCrawlStopsAndAResumedRunFinishes(backend: StoreBackend) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // On SQLite a store file: the failed run must let its crawl lease go for the resumed one.
        let test = try TestStore(backend, sqlitePath: folder.path("archive.sqlite"))
        defer { test.remove() }
        let store = test.database
        await #expect {
            try await withServer(faults: FixtureFaults(unauthorizedAfter: 4)) { server, transport in
                _ = try await Crawler(configuration: try configuration(server), transport: transport, store: store, logger: CapturedLogs().logger())
                    .run()
            }
        } throws: { error in
            (error as? CrawlError)?.reason == .unauthorized && (error as? CrawlError)?.localizedDescription.contains("401") == true
        }
        #expect(try store.lastRunStatus() == "failed")
        let dataset = try await withServer { server, transport in
            _ = try await Crawler(configuration: try configuration(server), transport: transport, store: store, logger: CapturedLogs().logger()).run()
            return await server.dataset
        }
        try expectStoreHolds(dataset, store: store)
        #expect(try store.lastRunStatus() == "completed")
    }

    @Test(arguments: StoreBackend.allCases)
    func theTokenIsAbsentFromLogsAndFromTheStore(backend: StoreBackend) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let logs = CapturedLogs()
        let path = folder.path("archive.sqlite")
        let test = try TestStore(backend, sqlitePath: path)
        defer { test.remove() }
        try await withServer(faults: FixtureFaults(failureRate: 0.3, tooManyRequestsEvery: 7, retryAfterSeconds: 0, seed: 3)) { server, transport in
            _ = try await Crawler(configuration: try configuration(server), transport: transport, store: test.database, logger: logs.logger()).run()
        }
        #expect(logs.all.contains { $0.contains("Retrying") })
        #expect(logs.all.allSatisfy { !$0.contains("SECRET-TEST-TOKEN") })
        // No stored value of any table holds the token, and the store does hold the crawled data (the search is
        // meaningful).
        let texts = try StoreConformanceTests.contents(test.database).values.joined().joined().compactMap(\.string)
        #expect(texts.allSatisfy { !$0.contains("SECRET-TEST-TOKEN") })
        #expect(texts.contains { $0.contains("boardDisplayName") })
        guard backend == .sqlite else { return }
        // On SQLite, no byte of the store file, its WAL or shared memory either.
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) where name.hasPrefix("archive.sqlite") {
            let bytes = try Data(contentsOf: folder.url.appendingPathComponent(name))
            #expect(bytes.range(of: Data("SECRET-TEST-TOKEN".utf8)) == nil, "token found in \(name)")
            checked += 1
        }
        #expect(checked >= 1)
        // The store does hold the crawled data (the byte scan above is meaningful).
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data()
        #expect(bytes.range(of: Data("boardDisplayName".utf8)) != nil || wal.range(of: Data("boardDisplayName".utf8)) != nil)
    }
}
