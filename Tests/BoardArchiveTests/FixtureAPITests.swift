import AsyncHTTPClient
import BoardArchive
import FixtureAPI
import Foundation
import Testing

/// The fixture API server over real HTTP on 127.0.0.1:0: the contract, then every fault option.
@Suite("Fixture API server")
struct FixtureAPITests {
    // MARK: Contract

    @Test func boardsComeInOrderNoOrderInsideTheExactEnvelope() async throws {
        try await withFixture { fixture in
            let answer = try await fixture.get("/boards")
            #expect(answer.status == 200)
            let keys = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]).keys
            #expect(Set(keys) == ["value", "count", "offset", "limit", "total"])
            let envelope = try answer.decode(Envelope<Board>.self)
            #expect(envelope.count == 6 && envelope.total == 6 && envelope.value.count == 6)
            #expect(envelope.value.map(\.orderNo) == [1, 2, 3, 4, 5, 6])
            #expect(envelope.value.first?.displayName == "공지사항")
        }
    }

    @Test(arguments: [
        // (query, expected offset, limit, count)
        ("", 0, 30, 30), ("?offset=&limit=", 0, 30, 30), ("?offset=0&limit=30", 0, 30, 30), ("?offset=60&limit=30", 60, 30, 30),
        ("?offset=120&limit=30", 120, 30, 17), ("?offset=137", 137, 30, 0), ("?offset=500&limit=10", 500, 10, 0), ("?limit=7", 0, 7, 7),
    ])
    func pagingEdges(query: String, offset: Int, limit: Int, count: Int) async throws {
        try await withFixture { fixture in
            let envelope = try await fixture.get("/boards/28479/posts" + query).decode(Envelope<Post>.self)
            #expect(envelope.offset == offset)
            #expect(envelope.limit == limit)
            #expect(envelope.count == count)
            #expect(envelope.value.count == count)
            #expect(envelope.total == 137)
        }
    }

    @Test func pagesConcatenateToTheBoardNewestFirstWithoutForcingNotices() async throws {
        try await withFixture { fixture in
            var ids: [Int] = []
            var posts: [Post] = []
            for offset in stride(from: 0, to: 137, by: 30) {
                let page = try await fixture.get("/boards/28479/posts?offset=\(offset)&limit=30").decode(Envelope<Post>.self)
                posts += page.value
                ids += page.value.map(\.postId)
            }
            let expected = try FixtureDataset.bundledDemo().posts(inBoard: 28479).map(\.postId)
            #expect(ids == expected)
            #expect(Set(ids).count == 137)
            let ordered = zip(posts, posts.dropFirst()).allSatisfy { newer, older in
                newer.createdDateTime > older.createdDateTime
                    || (newer.createdDateTime == older.createdDateTime && newer.postId > older.postId)
            }
            #expect(ordered)
            #expect(posts.first?.postType != .notice)
            #expect(posts.contains { $0.postType == .notice })
        }
    }

    @Test func emptyBoardAnswersAnEmptyPage() async throws {
        try await withFixture { fixture in
            let envelope = try await fixture.get("/boards/28483/posts").decode(Envelope<Post>.self)
            #expect(envelope.value.isEmpty && envelope.count == 0 && envelope.total == 0)
        }
    }

    @Test(arguments: [
        ("서울은", "title", ["오늘 서울은 맑음", "서울은 지금 눈이 와요", "서울은 지금 눈이 와요 (2)"]),
        ("SEOUL", "title", ["Seoul Tech Meetup", "Seoul Tech Meetup (2)"]),
        ("서울시청", "contents", ["Seoul Tech Meetup", "Seoul Tech Meetup (2)", "서울시청 앞 광장 행사", "서울시청 앞 광장 행사 (2)"]),
        ("서울시청", "all", ["Seoul Tech Meetup", "Seoul Tech Meetup (2)", "서울시청 앞 광장 행사", "서울시청 앞 광장 행사 (2)"]),
        ("학교에", "all", ["오늘 서울은 맑음", "학교에 다녀왔습니다", "학교에 다녀왔습니다 (2)"]),
    ])
    func searchMatchesCaseInsensitiveSubstringsPerTarget(text: String, target: String, titles: [String]) async throws {
        try await withFixture { fixture in
            let path = try searchPath(board: 28481, text: text, target: target)
            let envelope = try await fixture.get(path).decode(Envelope<Post>.self)
            #expect(envelope.value.map(\.title).sorted() == titles.sorted())
            #expect(envelope.total == titles.count)
        }
    }

    @Test func searchByWriterMatchesTheDisplayNameOnly() async throws {
        try await withFixture { fixture in
            let path = try searchPath(board: 28479, text: "alice", target: "writer", limit: 200)
            let envelope = try await fixture.get(path).decode(Envelope<Post>.self)
            let expected = try FixtureDataset.bundledDemo().posts(inBoard: 28479).filter { $0.writer.displayName == "Alice Kim" }
            #expect(!expected.isEmpty)
            #expect(envelope.value.map(\.postId) == expected.map(\.postId))
            let nothing = try await fixture.get(try searchPath(board: 28479, text: "alice", target: "title")).decode(Envelope<Post>.self)
            #expect(nothing.total == 0)
        }
    }

    @Test(arguments: [nil, "", "Bearer ", "Basic abc", "Bearer wrong-token"] as [String?])
    func missingOrWrongTokenAnswers401WithAJSONBody(header: String?) async throws {
        try await withFixture(token: "right-token") { fixture in
            let answer = try await fixture.get("/boards", authorization: header)
            #expect(answer.status == 401)
            let body = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            #expect(body["status"] as? Int == 401)
            #expect((body["message"] as? String)?.isEmpty == false)
            let accepted = try await fixture.get("/boards", authorization: "Bearer right-token")
            #expect(accepted.status == 200)
        }
    }

    @Test(arguments: ["/boards/999/posts", "/boards/abc/posts", "/boards/28479", "/nothing"])
    func unknownBoardsAndPathsAnswer404(path: String) async throws {
        try await withFixture { fixture in
            let answer = try await fixture.get(path)
            #expect(answer.status == 404)
        }
    }

    @Test(arguments: ["?offset=-1", "?offset=x", "?limit=0", "?limit=-5", "?limit=abc", "?limit=1001", "?search=a&searchTarget=body"])
    func badQueriesAnswer400(query: String) async throws {
        try await withFixture { fixture in
            let answer = try await fixture.get("/boards/28479/posts" + query)
            #expect(answer.status == 400)
        }
    }

    // MARK: Faults

    @Test func tooManyRequestsEveryNthCarriesRetryAfter() async throws {
        try await withFixture(faults: FixtureFaults(tooManyRequestsEvery: 3, retryAfterSeconds: 7)) { fixture in
            var statuses: [Int] = []
            var retryAfter: [String] = []
            for _ in 0..<6 {
                let answer = try await fixture.get("/boards")
                statuses.append(answer.status)
                retryAfter += answer.headers.values(named: "Retry-After")
            }
            #expect(statuses == [200, 200, 429, 200, 200, 429])
            #expect(retryAfter == ["7", "7"])
            #expect(await fixture.server.statusCounts[429] == 2)
        }
    }

    @Test func failureRateAnswers5xxDeterministically() async throws {
        let always = try await withFixture(faults: FixtureFaults(failureRate: 1, seed: 3)) { fixture in
            try await fixture.statuses(of: (0..<10).map { "/boards/28479/posts?offset=\($0)" })
        }
        #expect(always.allSatisfy { $0 == 500 || $0 == 503 })
        #expect(Set(always).count == 2)
        let paths = (0..<40).map { "/boards/28479/posts?offset=\($0)" }
        let half = try await withFixture(faults: FixtureFaults(failureRate: 0.5, seed: 3)) { try await $0.statuses(of: paths) }
        let again = try await withFixture(faults: FixtureFaults(failureRate: 0.5, seed: 3)) { try await $0.statuses(of: paths) }
        #expect(half == again)
        #expect(half.contains(200) && half.contains { $0 >= 500 })
    }

    @Test(arguments: [nil, 500, 503])
    func errorBurstFailsTheFirstRequestsOfEachPath(status: Int?) async throws {
        let faults = status.map { FixtureFaults(errorBurst: 2, errorBurstStatus: $0) } ?? FixtureFaults(errorBurst: 2)
        let expected = status ?? 503  // the default
        try await withFixture(faults: faults) { fixture in
            let statuses = try await fixture.statuses(of: ["/boards", "/boards", "/boards/28480/posts", "/boards", "/boards/28480/posts"])
            #expect(statuses == [expected, expected, expected, 200, expected])
            let later = try await fixture.get("/boards/28480/posts")
            #expect(later.status == 200)
        }
    }

    @Test func truncatedBodyIsA200ThatDoesNotParse() async throws {
        try await withFixture(faults: FixtureFaults(truncatedJSONRate: 1)) { fixture in
            let answer = try await fixture.get("/boards/28479/posts")
            #expect(answer.status == 200)
            #expect(answer.body.count > 100)
            #expect(throws: (any Error).self) { try answer.decode(Envelope<Post>.self) }
            #expect(await fixture.server.truncatedResponseCount == 1)
        }
    }

    @Test func droppedConnectionGetsNoResponse() async throws {
        try await withFixture(faults: FixtureFaults(dropConnectionRate: 1)) { fixture in
            await #expect(throws: (any Error).self) { try await fixture.get("/boards") }
            #expect(await fixture.server.droppedConnectionCount >= 1)
        }
    }

    @Test func unauthorizedAfterNRequests() async throws {
        try await withFixture(faults: FixtureFaults(unauthorizedAfter: 2)) { fixture in
            let statuses = try await fixture.statuses(of: ["/boards", "/boards/28479/posts", "/boards", "/boards"])
            #expect(statuses == [200, 200, 401, 401])
            #expect(await fixture.server.requestCount == 4)
        }
    }

    @Test func latencyDelaysButDoesNotChangeTheAnswer() async throws {
        try await withFixture(faults: FixtureFaults(latency: 20)) { fixture in
            let envelope = try await fixture.get("/boards/28480/posts").decode(Envelope<Post>.self)
            #expect(envelope.total == 31 && envelope.count == 30)
        }
    }

    @Test func offsetDriftInsertsAndDeletesAfterTheFirstPage() async throws {
        let original = try FixtureDataset.bundledDemo().posts(inBoard: 28480)
        let drift = FixtureFaults.OffsetDrift(boardId: 28480, insert: 2, delete: 3)
        try await withFixture(faults: FixtureFaults(offsetDrift: drift)) { fixture in
            let first = try await fixture.get("/boards/28480/posts?offset=0&limit=10").decode(Envelope<Post>.self)
            #expect(first.total == 31)
            #expect(first.value.map(\.postId) == original.prefix(10).map(\.postId))
            let second = try await fixture.get("/boards/28480/posts?offset=10&limit=10").decode(Envelope<Post>.self)
            #expect(second.total == 30)
            #expect(second.value.first?.postId == original[11].postId)  // original[10] slid onto the first page: a naive crawl misses it
            let now = await fixture.server.dataset.posts(inBoard: 28480)
            let deleted = Set(original[7..<10].map(\.postId))
            let maxId = try #require(try FixtureDataset.bundledDemo().posts.map(\.postId).max())
            #expect(now.count == 30)
            #expect(now.prefix(2).map(\.postId) == [maxId + 2, maxId + 1])
            #expect(Set(now.map(\.postId)) == Set(original.map(\.postId)).subtracting(deleted).union([maxId + 1, maxId + 2]))
            let third = try await fixture.get("/boards/28480/posts?offset=0&limit=10").decode(Envelope<Post>.self)
            #expect(third.total == 30)  // drift happens once
        }
    }
}

// MARK: - Harness

/// A running fixture server and an HTTP client, both shut down by ``withFixture(token:faults:_:)``.
private struct Fixture {
    struct Answer {
        var status: Int
        var headers: [String: [String]]
        var body: Data

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try JSONDecoder().decode(type, from: body)
        }
    }

    let server: FixtureServer
    let client: HTTPClient

    /// GETs `path` under the base URL; `authorization` is the whole header value, `nil` for none.
    func get(_ path: String, authorization: String? = "Bearer fixture-test-token") async throws -> Answer {
        var request = HTTPClientRequest(url: server.baseURL.absoluteString + path)
        if let authorization {
            request.headers.add(name: "Authorization", value: authorization)
        }
        // Long: a loaded 2-core machine running the whole suite once took more than 10 s for this loopback request.
        let response = try await client.execute(request, timeout: .seconds(120))
        let buffer = try await response.body.collect(upTo: 10 << 20)
        var headers: [String: [String]] = [:]
        for header in response.headers {
            headers[header.name, default: []].append(header.value)
        }
        return Answer(status: Int(response.status.code), headers: headers, body: Data(buffer.readableBytesView))
    }

    /// The statuses of GETs of `paths`, one after the other.
    func statuses(of paths: [String]) async throws -> [Int] {
        var statuses: [Int] = []
        for path in paths {
            statuses.append(try await get(path).status)
        }
        return statuses
    }
}

extension [String: [String]] {
    fileprivate func values(named name: String) -> [String] {
        first { $0.key.lowercased() == name.lowercased() }?.value ?? []
    }
}

/// Starts the demo dataset on 127.0.0.1:0, runs `body`, and stops the client and the server on every path.
private func withFixture<T>(
    token: String? = nil, faults: FixtureFaults = .none, _ body: (Fixture) async throws -> T
) async throws -> T {
    let dataset = try FixtureDataset.bundledDemo()
    let server = try await FixtureServer.start(FixtureServerConfiguration(dataset: dataset, faults: faults, token: token))
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    do {
        let result = try await body(Fixture(server: server, client: client))
        try await client.shutdown()
        await server.stop()
        return result
    } catch {
        try? await client.shutdown()
        await server.stop()
        throw error
    }
}

private func searchPath(board: Int, text: String, target: String, limit: Int = 30) throws -> String {
    var components = URLComponents()
    components.path = "/boards/\(board)/posts"
    components.queryItems = [
        URLQueryItem(name: "search", value: text), URLQueryItem(name: "searchTarget", value: target),
        URLQueryItem(name: "offset", value: "0"), URLQueryItem(name: "limit", value: String(limit)),
    ]
    return try #require(components.string)
}
