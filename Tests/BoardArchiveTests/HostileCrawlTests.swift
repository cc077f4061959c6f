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

/// Hostile and malformed listings over real HTTP (the fixture server sends the exact item JSON given): nothing is lost
/// silently, nothing crashes, and every refusal names the post, the field or the boards; on both stores (SQLite and
/// PostgreSQL).
@Suite("Hostile listings over HTTP")
struct HostileCrawlTests {
    static func board(_ id: Int, _ name: String = "게시판") -> String {
        #"{"boardId":\#(id),"displayName":"\#(name)","boardType":"normal","orderNo":\#(id)}"#
    }

    static func post(_ id: Int, board: Int, title: String = "제목", extra: String = "") -> String {
        #"{"postId":\#(id),"boardId":\#(board),"title":"\#(title)","writer":{"displayName":"홍길동"},"#
            + #""contents":"본문","createdDateTime":"2024-01-0\#(id % 9 + 1)T00:00:00Z"\#(extra)}"#
    }

    /// Crawls `listings` from a fixture server into `store`; returns the report or the error, and the logs.
    static func crawl(
        _ listings: FixtureRawListings, into store: any ArchiveDatabase, concurrency: Int = 4
    ) async throws -> (Result<CrawlReport, any Error>, [String]) {
        let server = try await FixtureServer.start(
            FixtureServerConfiguration(dataset: try FixtureDataset.bundledDemo(), faults: FixtureFaults(rawListings: listings), token: testToken))
        let transport = testTransport()
        let logs = CapturedLogs()
        let configuration = CrawlConfiguration(
            api: server.baseURL, token: try #require(APIToken(testToken)), pageSize: 2, concurrency: concurrency, retryPolicy: fastRetries)
        let crawler = Crawler(configuration: configuration, transport: transport, store: store, logger: logs.logger())
        let result: Result<CrawlReport, any Error>
        do { result = .success(try await crawler.run()) } catch { result = .failure(error) }
        try await transport.shutdown()
        await server.stop()
        return (result, logs.all)
    }

    // MARK: Defect 2: a post listed under another board than its boardId

    @Test(arguments: StoreBackend.allCases)
    func aPostListedUnderAnotherBoardIsStoredUnderTheListingBoardWithAWarning(backend: StoreBackend) async throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        let listings = FixtureRawListings(
            boards: [Self.board(1), Self.board(2)],
            posts: [1: [Self.post(11, board: 1), Self.post(12, board: 2), Self.post(13, board: 99)], 2: [Self.post(21, board: 2)]])
        let (result, logs) = try await Self.crawl(listings, into: store)
        let report = try result.get()
        #expect(report.posts == 4)
        #expect(try store.publishedPosts(inBoard: 1).map(\.postId).sorted() == [11, 12, 13])
        #expect(try store.publishedPosts(inBoard: 2).map(\.postId) == [21])
        #expect(try store.postCount() == 4)
        for (post, named) in [(12, 2), (13, 99)] {
            #expect(
                logs.contains {
                    $0.hasPrefix("warning") && $0.contains("\"post\": \(post)") && $0.contains("listedUnder\": 1")
                        && $0.contains("postBoardId\": \(named)")
                }, "no warning names post \(post): \(logs)")
        }
        // The raw JSON keeps what the API sent.
        #expect(try store.rawJSON(ofPost: 13)?.contains("\"boardId\":99") == true)
    }

    // MARK: Defect 4: NUL in every text field

    static let textFields: [(name: String, json: @Sendable (String) -> String, stored: @Sendable (Post) -> String?)] = [
        ("title", { post(1, board: 1, title: $0) }, { $0.title }),
        (
            "writer.displayName",
            { #"{"postId":1,"boardId":1,"title":"t","writer":{"displayName":"\#($0)"},"createdDateTime":"2024-01-01T00:00:00Z"}"# },
            { $0.writer.displayName }
        ),
        (
            "writer.emailAddress",
            { post(1, board: 1).replacingOccurrences(of: #""displayName":"홍길동""#, with: #""displayName":"w","emailAddress":"\#($0)""#) },
            { $0.writer.emailAddress }
        ),
        (
            "writer.profileImage",
            { post(1, board: 1).replacingOccurrences(of: #""displayName":"홍길동""#, with: #""displayName":"w","profileImage":"\#($0)""#) },
            { $0.writer.profileImage }
        ),
        ("contents", { post(1, board: 1).replacingOccurrences(of: #""contents":"본문""#, with: #""contents":"\#($0)""#) }, { $0.contents }),
        ("boardDisplayName", { post(1, board: 1, extra: #","boardDisplayName":"\#($0)""#) }, { $0.boardDisplayName }),
        ("postType", { post(1, board: 1, extra: #","postType":"\#($0)""#) }, { $0.unknownPostType }),
    ]

    /// SQLite would cut the text at the NUL and PostgreSQL's TEXT refuses it: both stores keep U+FFFD in its place.
    @Test(arguments: StoreBackend.allCases, textFields.indices)
    func aNULInAnyPostTextFieldIsReplacedAndTheRestKept(backend: StoreBackend, field: Int) async throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        let (result, _) = try await Self.crawl(
            FixtureRawListings(boards: [Self.board(1)], posts: [1: [Self.textFields[field].json(#"nul\u0000title 뒤"#)]]), into: store)
        _ = try result.get()
        let post = try #require(try store.publishedPost(id: 1))
        #expect(Self.textFields[field].stored(post) == "nul\u{FFFD}title 뒤", "field \(Self.textFields[field].name)")
        // The row itself, read with plain SQL: no NUL, nothing cut.
        let column =
            [
                "title": "title", "writer.displayName": "writerName", "writer.emailAddress": "writerEmail",
                "writer.profileImage": "writerProfileImage", "contents": "contents", "boardDisplayName": "boardDisplayName",
                "postType": "rawPostType",
            ][Self.textFields[field].name] ?? ""
        let stored = try store.readOnly { try $0.value("SELECT \(column) FROM post WHERE postId = 1")?.string }
        #expect(stored == "nul\u{FFFD}title 뒤")
    }

    @Test(arguments: StoreBackend.allCases)
    func aNULInABoardsTextFieldsIsReplacedAndTheRestKept(backend: StoreBackend) async throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        let board = #"{"boardId":1,"displayName":"a\u0000b","boardType":"c\u0000d","orderNo":1}"#
        _ = try await Self.crawl(FixtureRawListings(boards: [board], posts: [1: []]), into: store).0.get()
        let stored = try #require(try store.snapshot(pseudonyms: nil).boards().first)
        #expect(stored.displayName == "a\u{FFFD}b")
        #expect(stored.boardType == "c\u{FFFD}d")
    }

    // MARK: Defect 7: ids beyond 2^53 − 1

    @Test(
        arguments: StoreBackend.allCases,
        [
            ("postId", post(9_007_199_254_740_993, board: 1)), ("boardId", post(5, board: 9_007_199_254_740_992)),
            ("parentPostId", post(5, board: 1, extra: #","parentPostId":-9007199254740993"#)),
        ])
    func aPostIdBeyondTwoToThe53IsRefusedNamingTheField(backend: StoreBackend, refused: (field: String, item: String)) async throws {
        let (field, item) = refused
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        let (result, _) = try await Self.crawl(FixtureRawListings(boards: [Self.board(1)], posts: [1: [Self.post(4, board: 1), item]]), into: store)
        guard case .failure(let error) = result, let crawlError = error as? CrawlError,
            case .undecodableItem(let board, _, _, let named, let detail) = crawlError.reason
        else {
            Issue.record("expected an undecodable item, got \(result)")
            return
        }
        #expect(board == 1)
        #expect(named == field)
        #expect(detail.contains("9007199254740991"))
        #expect(crawlError.localizedDescription.contains("field `\(field)`"))
        #expect(try store.postCount() == 0, "the page holding the refused post is not stored")
    }

    @Test(arguments: StoreBackend.allCases)
    func aBoardIdBeyondTwoToThe53IsRefused(backend: StoreBackend) async throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        let (result, _) = try await Self.crawl(FixtureRawListings(boards: [Self.board(9_007_199_254_740_993)], posts: [:]), into: store)
        guard case .failure(let error as CrawlError) = result, case .undecodableItem(_, _, _, "boardId", _) = error.reason else {
            Issue.record("expected the board id refused, got \(result)")
            return
        }
        #expect(try store.snapshot(pseudonyms: nil).boards().isEmpty)
    }

    @Test(arguments: StoreBackend.allCases)
    func theLargestSafeIdIsKept(backend: StoreBackend) async throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        _ = try await Self.crawl(
            FixtureRawListings(boards: [Self.board(1)], posts: [1: [Self.post(9_007_199_254_740_991, board: 1)]]), into: store
        ).0.get()
        #expect(try store.readOnly { try $0.integers("SELECT postId FROM post ORDER BY postId") } == [9_007_199_254_740_991])
        #expect(try store.publishedPost(id: 9_007_199_254_740_991)?.postId == 9_007_199_254_740_991)
    }
}
