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

/// Crawler and client rules over the in-memory transport (no sockets, no sleeping).
@Suite("Crawler over an in-memory transport")
struct CrawlerTests {
    /// A minimal board API in memory: `/boards` and paged `/boards/{id}/posts`, with an optional fault hook.
    ///
    /// It answers at most `requestLimit` requests and fails every later one (as a transport error), so a crawl that
    /// loops ends with an error instead of hanging the test run.
    final class MemoryAPI: Sendable {
        struct RequestLimitReached: Error {}

        let boards: [Board]
        let posts: Mutex<[Int: [Post]]>
        /// The largest page the server returns, whatever `limit` asks (a server that caps `limit`).
        let cap: Int
        /// Added to every board's real post count in `total` (a server whose `total` claims more than it serves).
        let totalBias: Int
        let requestLimit: Int
        let requests = Mutex<[String]>([])
        let fault: @Sendable (_ requestNumber: Int, _ url: URL) -> HTTPResponse?

        init(
            boards: [Board], posts: [Int: [Post]], cap: Int = .max, totalBias: Int = 0, requestLimit: Int = 500,
            fault: @escaping @Sendable (Int, URL) -> HTTPResponse? = { _, _ in nil }
        ) {
            self.boards = boards
            self.posts = Mutex(posts)
            self.cap = cap
            self.totalBias = totalBias
            self.requestLimit = requestLimit
            self.fault = fault
        }

        var transport: InMemoryTransport {
            InMemoryTransport { url, headers in try self.answer(url, headers: headers) }
        }

        func answer(_ url: URL, headers: [String: String]) throws -> HTTPResponse {
            let number = requests.withLock { list in
                list.append(url.path + "?" + (url.query ?? ""))
                return list.count
            }
            guard number <= requestLimit else { throw RequestLimitReached() }
            if let response = fault(number, url) { return response }
            guard headers["Authorization"] == "Bearer \(testToken)" else { return HTTPResponse(status: 401) }
            let encoder = JSONEncoder()
            if url.path.hasSuffix("/boards") {
                return HTTPResponse(
                    status: 200, body: try encoder.encode(Envelope(value: boards, count: boards.count, offset: 0, limit: 30, total: boards.count)))
            }
            let parts = url.path.split(separator: "/")
            guard let boardId = Int(parts[parts.count - 2]), let list = posts.withLock({ $0[boardId] }) else { return HTTPResponse(status: 404) }
            let query = Dictionary(
                uniqueKeysWithValues: (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            let offset = Int(query["offset"] ?? "") ?? 0
            let limit = Int(query["limit"] ?? "") ?? 30
            let slice = Array(list.dropFirst(offset).prefix(min(limit, cap)))
            return HTTPResponse(
                status: 200,
                body: try encoder.encode(Envelope(value: slice, count: slice.count, offset: offset, limit: limit, total: list.count + totalBias)))
        }
    }

    /// The base URL of the in-memory API (a literal that always parses; built from components to avoid a force unwrap).
    static let base: URL = {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "api.test"
        components.path = "/api/v2"
        return components.url ?? URL(fileURLWithPath: "/")
    }()

    func crawl(
        _ api: MemoryAPI, store: any ArchiveDatabase, pageSize: Int = 30, full: Bool = false, logs: CapturedLogs = CapturedLogs()
    ) async throws -> CrawlReport {
        let configuration = CrawlConfiguration(
            api: Self.base, token: try #require(APIToken(testToken)), pageSize: pageSize, retryPolicy: fastRetries, readsEverything: full)
        return try await Crawler(configuration: configuration, transport: api.transport, store: store, logger: logs.logger()).run()
    }

    @Test(arguments: [
        // (offset, count, total, last page?)
        (0, 30, 125, false), (90, 30, 125, false), (120, 5, 125, true), (0, 0, 0, true), (30, 0, 30, true), (0, 30, 30, true),
        (0, 20, 125, false),  // a short page that disagrees with total: the server capped limit, keep going
        (125, 0, 125, true), (100, 30, 125, true),
    ])
    func pageEndRules(offset: Int, count: Int, total: Int, isLast: Bool) {
        #expect(Crawler.isLastPage(offset: offset, count: count, total: total) == isLast)
    }

    @Test(arguments: StoreBackend.allCases, [0, 1, 29, 30, 31, 60, 61, 125])
    func everyPostIsStoredOnceWhateverTheCount(backend: StoreBackend, count: Int) async throws {
        let posts = (1...max(count, 1)).prefix(count).map { makePost(1_000 + $0) }
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: posts])
        let storeStore = try TestStore(backend)
        defer { storeStore.remove() }
        let store = storeStore.database
        let report = try await crawl(api, store: store)
        #expect(try store.postCount(inBoard: 1) == count)
        #expect(report.posts == count)
        #expect(report.new == count)
        // One request for /boards, then the first page (30 posts), then pages that overlap the previous one by a
        // post, so each brings 29 new posts; a board of several pages ends by re-reading its first page.
        let pages = 1 + (max(count - 30, 0) + 28) / 29
        #expect(api.requests.withLock { $0.count } == 1 + pages + (pages > 1 ? 1 : 0))
    }

    @Test(arguments: StoreBackend.allCases)
    func aServerThatCapsLimitIsPagedToTheEnd(backend: StoreBackend) async throws {
        let posts = (1...95).map { makePost($0) }
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: posts], cap: 20)
        let storeStore = try TestStore(backend)
        defer { storeStore.remove() }
        let store = storeStore.database
        _ = try await crawl(api, store: store)
        #expect(try store.postCount(inBoard: 1) == 95)
        #expect(api.requests.withLock { $0.count } == 1 + 5 + 1)
    }

    @Test(arguments: StoreBackend.allCases)
    func fiveHundredsAreRetriedUntilTheyClear(backend: StoreBackend) async throws {
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: (1...40).map { makePost($0) }]) { number, _ in
            number <= 3 ? HTTPResponse(status: 503) : nil
        }
        let storeStore = try TestStore(backend)
        defer { storeStore.remove() }
        let store = storeStore.database
        let report = try await crawl(api, store: store)
        #expect(report.retries == 3)
        #expect(try store.postCount() == 40)
    }

    @Test(arguments: StoreBackend.allCases)
    func persistentFailureStopsWithTheRequestAndAttemptsNamed(backend: StoreBackend) async throws {
        let testStore = try TestStore(backend)
        defer { testStore.remove() }
        let api = MemoryAPI(boards: [Board(boardId: 7, displayName: "b", orderNo: 1)], posts: [7: (1...40).map { makePost($0, board: 7) }]) {
            _, url in
            url.query?.contains("offset=29") == true ? HTTPResponse(status: 503) : nil
        }
        await #expect {
            _ = try await crawl(api, store: testStore.database)
        } throws: { error in
            guard let error = error as? CrawlError, case .unexpectedStatus(503, let attempts, _) = error.reason else { return false }
            return attempts == fastRetries.maxAttempts && error.request == "GET /boards/7/posts?offset=29&limit=30"
                && error.localizedDescription.hasPrefix("GET /boards/7/posts?offset=29&limit=30 answered HTTP 503 8 times")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func unauthorizedStopsAtOnce(backend: StoreBackend) async throws {
        let testStore = try TestStore(backend)
        defer { testStore.remove() }
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: []]) { _, _ in HTTPResponse(status: 401) }
        await #expect {
            _ = try await crawl(api, store: testStore.database)
        } throws: { error in
            (error as? CrawlError)?.reason == .unauthorized
        }
        #expect(api.requests.withLock { $0.count } == 1)
    }

    @Test func tooManyRequestsWaitsForRetryAfter() async throws {
        let waits = Mutex<[Duration]>([])
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: [makePost(1)]]) { number, _ in
            number == 2 ? HTTPResponse(status: 429, headers: ["Retry-After": "3"]) : nil
        }
        let client = BoardAPIClient(
            baseURL: Self.base, token: try #require(APIToken(testToken)), transport: api.transport, retryPolicy: fastRetries,
            maxRequestsPerSecond: nil, logger: CapturedLogs().logger(), sleep: { delay in waits.withLock { $0.append(delay) } })
        _ = try await client.fetchBoards()
        let page = try await client.fetchPage(of: 1, offset: 0, limit: 30)
        #expect(page.items.count == 1)
        #expect(waits.withLock { $0 } == [.seconds(3)])
        #expect(await client.statistics.retries == 1)
    }

    @Test func backoffGrowsExponentiallyAndIsCapped() {
        let policy = RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .seconds(1))
        #expect(policy.backoff(afterAttempt: 1, random: 0.999) < .milliseconds(101))
        #expect(policy.backoff(afterAttempt: 3, random: 0.999) > .milliseconds(390))
        #expect(policy.backoff(afterAttempt: 10, random: 0.999) <= .seconds(1))
        #expect(policy.backoff(afterAttempt: 3, random: 0) >= .milliseconds(200))
        #expect(policy.retryAfter("7", now: Date()) == .seconds(7))
        #expect(policy.retryAfter("100000", now: Date()) == .seconds(120))
        #expect(policy.retryAfter("soon", now: Date()) == nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func aKilledCrawlResumesFromItsCheckpoints(backend: StoreBackend) async throws {
        let posts = (1...100).map { makePost($0) }
        let failing = Mutex(true)
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: posts]) { _, url in
            failing.withLock { $0 } && url.query?.contains("offset=58") == true ? HTTPResponse(status: 400) : nil
        }
        let storeStore = try TestStore(backend)
        defer { storeStore.remove() }
        let store = storeStore.database
        await #expect(throws: CrawlError.self) { _ = try await crawl(api, store: store) }
        #expect(try store.postCount() == 59)  // pages at offsets 0 and 29; the one at 58 failed (it has "offset=5")
        #expect(try store.lastRunStatus() == "failed")
        failing.withLock { $0 = false }
        api.requests.withLock { $0 = [] }
        let report = try await crawl(api, store: store)
        #expect(report.resumed)  // a failed run is resumed from its checkpoints, like a killed one
        #expect(try store.postCount() == 100)
        #expect(api.requests.withLock { $0.first { $0.contains("/posts") } } == "/api/v2/boards/1/posts?offset=58&limit=30")

        // Simulate a kill: a run left "running" with checkpoints for the first two pages.
        let killedStore = try TestStore(backend)
        defer { killedStore.remove() }
        let killed = killedStore.database
        let (run, _) = try killed.beginRun(api: Self.base.absoluteString, pageSize: 30, at: Date())
        for offset in [0, 29] {
            _ = try killed.recordPage(
                posts[offset..<offset + 30].map(RawItem.init), board: 1, pass: 1, offset: offset, count: 30, lastPostId: posts[offset + 29].postId,
                total: 100, pageHash: "", run: run, pageIDs: posts[offset..<offset + 30].map(\.postId), at: Date())
        }
        // The kill ends the process, and with it the run's lock (PostgreSQL drops a session's advisory locks).
        try killed.unlock(.run(run))
        api.requests.withLock { $0 = [] }
        let resumed = try await crawl(api, store: killed)
        #expect(resumed.resumed)
        #expect(try killed.postCount() == 100)
        #expect(
            api.requests.withLock { $0 } == [
                "/api/v2/boards?", "/api/v2/boards/1/posts?offset=58&limit=30", "/api/v2/boards/1/posts?offset=87&limit=30",
                "/api/v2/boards/1/posts?offset=0&limit=30",
            ])
    }

    @Test(arguments: StoreBackend.allCases)
    func aRunKilledDuringReverificationRestartsThatPassAndMarksNothingWrongly(backend: StoreBackend) async throws {
        let posts = (1...70).map { makePost($0) }
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: posts])
        let storeStore = try TestStore(backend)
        defer { storeStore.remove() }
        let store = storeStore.database
        // An earlier complete crawl archived all 70 posts.
        _ = try await crawl(api, store: store)
        // A later run was killed in pass 2, after its page at offset 29.
        let (run, _) = try store.beginRun(api: Self.base.absoluteString, pageSize: 30, at: Date())
        _ = try store.recordPage(
            posts[29..<59].map(RawItem.init), board: 1, pass: 2, offset: 29, count: 30, lastPostId: 59, total: 70, pageHash: "", run: run,
            at: Date())
        try store.unlock(.run(run))
        let report = try await crawl(api, store: store)
        #expect(report.resumed)
        #expect(report.gone == 0)
        #expect(try store.gonePostCount() == 0)
        #expect(report.posts == 70)
    }

    @Test(arguments: StoreBackend.allCases, [(2, 2), (1, 3)])
    func driftThatKeepsTheTotalIsStillCaught(backend: StoreBackend, change: (insert: Int, delete: Int)) async throws {
        let (insert, delete) = change
        let posts = (1...100).map { makePost(1_000 - $0, created: "2026-11-01T09:00:00Z") }
        let drifted = Mutex(false)
        let apiBox = Mutex<MemoryAPI?>(nil)
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: posts]) { _, url in
            // After the first page is served, delete posts 10…(10+delete) and insert new ones at the top.
            if url.query?.contains("offset=29") == true, !drifted.withLock({ $0 }) {
                drifted.withLock { $0 = true }
                apiBox.withLock { box in
                    box?.posts.withLock { lists in
                        var list = lists[1] ?? []
                        list.removeSubrange(10..<(10 + delete))
                        list.insert(contentsOf: (0..<insert).map { makePost(5_000 + $0) }, at: 0)
                        lists[1] = list
                    }
                }
            }
            return nil
        }
        apiBox.withLock { $0 = api }
        let storeStore = try TestStore(backend)
        defer { storeStore.remove() }
        let store = storeStore.database
        let report = try await crawl(api, store: store)
        let final = Set(api.posts.withLock { $0[1] ?? [] }.map(\.postId))
        #expect(report.reverifiedBoards == [1])
        #expect(report.posts == final.count)
        #expect(report.gone == delete)
        var live: Set<Int> = []
        for id in Set(posts.map(\.postId)).union(final) where try store.history(ofPost: id).map({ $0.goneSince == nil }) == true {
            live.insert(id)
        }
        #expect(live == final)
    }

    @Test(arguments: StoreBackend.allCases)
    func aBoardThatNeverSettlesIsReportedAndNothingIsMarkedGone(backend: StoreBackend) async throws {
        // A server that ignores offset past 30 (always the first page): the pass never agrees with total.
        let posts = (1...50).map { makePost($0) }
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: posts])
        let storeStore = try TestStore(backend)
        defer { storeStore.remove() }
        let store = storeStore.database
        _ = try await crawl(api, store: store)
        let broken = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: posts]) { _, url in
            guard url.path.hasSuffix("/posts"), url.query?.contains("offset=0") == false else { return nil }
            let page = Envelope(value: Array(posts.prefix(30)), count: 30, offset: 29, limit: 30, total: 50)
            return HTTPResponse(status: 200, body: (try? JSONEncoder().encode(page)) ?? Data())
        }
        let report = try await crawl(broken, store: store, full: true)
        #expect(report.mismatches.map(\.boardId) == [1])
        #expect(report.gone == 0)
        #expect(try store.gonePostCount() == 0)
    }

    @Test(arguments: StoreBackend.allCases)
    func aListedBoardThatAnswers404IsMarkedGoneAndTheOthersAreCrawled(backend: StoreBackend) async throws {
        let api = MemoryAPI(
            boards: [Board(boardId: 1, displayName: "a", orderNo: 1), Board(boardId: 2, displayName: "b", orderNo: 2)],
            posts: [1: (11...13).map { makePost($0, board: 1) }, 2: (1...5).map { makePost($0, board: 2) }])
        let storeStore = try TestStore(backend)
        defer { storeStore.remove() }
        let store = storeStore.database
        _ = try await crawl(api, store: store)
        api.posts.withLock { $0[1] = nil }  // board 1 is still listed but answers 404 now
        let report = try await crawl(api, store: store)
        #expect(report.posts == 5)
        #expect(report.gone == 3)
        #expect(try store.postCount(inBoard: 2) == 5)
        #expect(try store.postCount(inBoard: 1) == 3)  // kept, marked gone
        for id in 11...13 { #expect(try store.history(ofPost: id)?.goneSince != nil) }
        for id in 1...5 { #expect(try store.history(ofPost: id)?.goneSince == nil) }
    }

    @Test(arguments: StoreBackend.allCases)
    func anHTMLBodyIsADataErrorNotARetry(backend: StoreBackend) async throws {
        let testStore = try TestStore(backend)
        defer { testStore.remove() }
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: []]) { _, _ in
            HTTPResponse(status: 200, body: Data("<html><body>Gateway login</body></html>".utf8))
        }
        await #expect {
            _ = try await crawl(api, store: testStore.database)
        } throws: { error in
            guard let error = error as? CrawlError, case .undecodableBody(let detail) = error.reason else { return false }
            return detail.contains("not JSON") && detail.contains("<html>")
        }
        #expect(api.requests.withLock { $0.count } == 1)
    }

    @Test(arguments: StoreBackend.allCases)
    func unknownPostTypesAreLogged(backend: StoreBackend) async throws {
        let testStore = try TestStore(backend)
        defer { testStore.remove() }
        var odd = makePost(3)
        odd.unknownPostType = "poll"
        let logs = CapturedLogs()
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: [makePost(1), odd]])
        _ = try await crawl(api, store: testStore.database, logs: logs)
        #expect(logs.all.contains { $0.contains("Unknown postType") && $0.contains("poll") && $0.contains("\"post\": 3") })
    }

    @Test func aTokenWithALineBreakInsideIsRefusedBeforeAnyRequest() {
        #expect(APIToken("abc\ndef") == nil)
        #expect(APIToken("abc def") == nil)
        #expect(APIToken("  \n") == nil)
        #expect(APIToken("abc.def-ghi\n") != nil)
        #expect(APIToken.problem(with: "abc\tdef")?.contains("line breaks") == true)
    }

    @Test func retryAfterAsAnHTTPDateAndAbsurdValues() throws {
        let policy = RetryPolicy()
        let now = try #require(ArchiveDate.parse("2026-11-22T10:00:00Z"))
        #expect(policy.retryAfter("Sun, 22 Nov 2026 10:00:09 GMT", now: now) == .seconds(9))
        #expect(policy.retryAfter("Sun, 22 Nov 2026 09:00:00 GMT", now: now) == .zero)
        #expect(policy.retryAfter("1e30", now: now) == nil)
        #expect(policy.retryAfter("99999999999999999999", now: now) == .seconds(120))
        #expect(policy.retryAfter("-5", now: now) == nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func aCrawlOfSomeBoardsLeavesTheOthersAsTheyAre(backend: StoreBackend) async throws {
        let testStore = try TestStore(backend)
        defer { testStore.remove() }
        let store = testStore.database
        let boards = (1...3).map { Board(boardId: $0, displayName: "b\($0)", orderNo: $0) }
        let api = MemoryAPI(boards: boards, posts: [1: (1...10).map { makePost($0, board: 1) }, 2: (11...20).map { makePost($0, board: 2) }, 3: []])
        _ = try await crawl(api, store: store)
        // Board 2 loses its posts at the source, board 1 gains one; a crawl of boards 1 and 3 only.
        api.posts.withLock {
            $0[2] = []
            $0[1]?.insert(makePost(99, board: 1, created: "2026-11-02T09:00:00Z"), at: 0)
        }
        var configuration = CrawlConfiguration(api: Self.base, token: try #require(APIToken(testToken)), retryPolicy: fastRetries)
        configuration.onlyBoards = [1, 3, 7]
        let logs = CapturedLogs()
        api.requests.withLock { $0 = [] }
        let report = try await Crawler(configuration: configuration, transport: api.transport, store: store, logger: logs.logger()).run()
        #expect(report.boards == 2 && report.new == 1 && report.gone == 0)
        #expect(api.requests.withLock { $0 }.allSatisfy { !$0.contains("/boards/2/") }, "board 2 is not read")
        #expect(try store.postCount(inBoard: 2) == 10 && store.history(ofPost: 11)?.goneSince == nil, "board 2 is left as it was")
        #expect(try store.postCount(inBoard: 1) == 11)
        #expect(logs.all.contains { $0.contains("not listed by the API") && $0.contains("7") })
    }

    @Test(arguments: StoreBackend.allCases)
    func postsGoneUpstreamAreMarkedNotDeleted(backend: StoreBackend) async throws {
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: (1...10).map { makePost($0) }])
        let storeStore = try TestStore(backend)
        defer { storeStore.remove() }
        let store = storeStore.database
        _ = try await crawl(api, store: store)
        api.posts.withLock { $0[1]?.removeAll { $0.postId == 4 } }
        let report = try await crawl(api, store: store)
        #expect(report.gone == 1)
        #expect(try store.postCount() == 10)
        #expect(try store.history(ofPost: 4)?.goneSince != nil)
        #expect(try store.history(ofPost: 5)?.goneSince == nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func aChangedPostIsCountedAsChanged(backend: StoreBackend) async throws {
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: (1...10).map { makePost($0) }])
        let storeStore = try TestStore(backend)
        defer { storeStore.remove() }
        let store = storeStore.database
        _ = try await crawl(api, store: store)
        api.posts.withLock { $0[1]?[2].viewCount = 99 }
        let report = try await crawl(api, store: store)
        #expect(report.changed == 1)
        #expect(report.new == 0)
        #expect(report.unchanged == 9)
    }

    @Test(arguments: StoreBackend.allCases)
    func theTokenNeverReachesLogsOrErrors(backend: StoreBackend) async throws {
        let testStore = try TestStore(backend)
        defer { testStore.remove() }
        let logs = CapturedLogs()
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: (1...40).map { makePost($0) }]) { number, _ in
            number % 2 == 0 ? HTTPResponse(status: 503) : nil
        }
        _ = try await crawl(api, store: testStore.database, logs: logs)
        #expect(!logs.all.isEmpty)
        #expect(logs.all.allSatisfy { !$0.contains("SECRET-TEST-TOKEN") })
        let token = try #require(APIToken(testToken))
        #expect("\(token)" == "<redacted>")
        #expect(String(reflecting: token) == "<redacted>")
        #expect(!String(describing: CrawlConfiguration(api: Self.base, token: token)).contains("SECRET"))
        #expect(token.redact("error: Bearer \(testToken) refused") == "error: Bearer <redacted> refused")
    }
}

@Suite("Request pacing")
struct RateLimiterTests {
    /// Scheduled starts are one interval apart, also above 1000 per second (an interval shorter than a millisecond).
    @Test(arguments: [(50.0, Duration.milliseconds(20)), (4_000.0, Duration.microseconds(250))])
    func requestsAreScheduledAtLeastOneIntervalApart(rate: Double, interval: Duration) async throws {
        let limiter = RateLimiter(requestsPerSecond: rate)
        var starts: [ContinuousClock.Instant] = []
        for _ in 0..<6 { starts.append(try await limiter.acquire()) }
        for (earlier, later) in zip(starts, starts.dropFirst()) {
            #expect(later - earlier >= interval)
        }
    }

    @Test func theCrawlerHonoursMaxRequestsPerSecond() async throws {
        let api = CrawlerTests.MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: (1...90).map { makePost($0) }])
        let client = BoardAPIClient(
            baseURL: CrawlerTests.base, token: try #require(APIToken(testToken)), transport: api.transport, retryPolicy: fastRetries,
            maxRequestsPerSecond: 40, logger: CapturedLogs().logger())
        let limiter = try #require(client.rateLimiter)
        let before = ContinuousClock.now
        _ = try await client.fetchBoards()
        _ = try await client.fetchPage(of: 1, offset: 0, limit: 30)
        // The two requests took the first two slots (25 ms apart at 40 rps), so the next slot is two intervals on.
        let third = try await limiter.acquire()
        #expect(third - before >= .milliseconds(50))
        #expect(api.requests.withLock { $0.count } == 2)
    }
}
