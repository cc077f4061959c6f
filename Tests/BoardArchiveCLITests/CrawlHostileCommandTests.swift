import BoardArchive
import FixtureAPI
import Foundation
import Testing

/// `boardarchive crawl` against hostile listings served over real HTTP: the documented exit code and one clear line.
@Suite("boardarchive crawl refuses hostile listings", .serialized)
struct CrawlHostileCommandTests {
    static let token = "e2e-SECRET-token-91b2"

    static func post(_ id: String, board: Int) -> String {
        #"{"postId":\#(id),"boardId":\#(board),"title":"t","writer":{"displayName":"w"},"createdDateTime":"2024-01-01T00:00:00Z"}"#
    }

    /// Runs `boardarchive crawl` against a fixture server listing `listings`.
    static func crawl(_ listings: FixtureRawListings, store: String) async throws -> CommandRunner.Result {
        let server = try await FixtureServer.start(
            FixtureServerConfiguration(dataset: try FixtureDataset.bundledDemo(), faults: FixtureFaults(rawListings: listings), token: token))
        let result: Result<CommandRunner.Result, any Error>
        do {
            result = .success(
                try await CommandRunner.run(
                    ["crawl", "--api", server.baseURL.absoluteString, "--store", store, "--retries", "1", "--concurrency", "1"],
                    environment: ["BOARD_API_TOKEN": token]))
        } catch {
            result = .failure(error)
        }
        await server.stop()
        return try result.get()
    }

    static func temporaryStore() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("boardarchive-e2e-\(UUID().uuidString).sqlite").path
    }

    @Test func theSamePostIdInTwoBoardsExits65NamingBoth() async throws {
        let store = Self.temporaryStore()
        let boards = [#"{"boardId":1,"displayName":"a"}"#, #"{"boardId":2,"displayName":"b"}"#]
        let result = try await Self.crawl(
            FixtureRawListings(boards: boards, posts: [1: [Self.post("5", board: 1)], 2: [Self.post("5", board: 2)]]), store: store)
        #expect(result.status == 65, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("lists post 5, which board 1 also lists in this crawl"), "\(result.stderr)")
        #expect(result.stderr.contains("board 2's copy"))
    }

    @Test(arguments: [
        ("9007199254740993", "field `postId`: 9007199254740993 is beyond ±9007199254740991"),
        ("1.5", "field `postId`: expected a whole number from −2^63 to 2^63 − 1, found 1.5"),
        ("99999999999999999999", "field `postId`: expected a whole number from −2^63 to 2^63 − 1, found 1e+20"),
    ])
    func aPostIdTheArchiveCannotKeepExits65NamingTheField(id: String, message: String) async throws {
        let store = Self.temporaryStore()
        let result = try await Self.crawl(
            FixtureRawListings(boards: [#"{"boardId":1,"displayName":"a"}"#], posts: [1: [Self.post(id, board: 1)]]), store: store)
        #expect(result.status == 65, "stderr: \(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.contains("board 1, offset 0"), "\(result.stderr)")
        #expect(!result.stderr.contains("not valid JSON"), "\(result.stderr)")
    }

    @Test func aLoneSurrogateInATitleExits65NamingThePostAndTheField() async throws {
        let store = Self.temporaryStore()
        let item = Self.post("7", board: 1).replacingOccurrences(of: #""title":"t""#, with: #""title":"a\ud800b""#)
        let result = try await Self.crawl(FixtureRawListings(boards: [#"{"boardId":1,"displayName":"a"}"#], posts: [1: [item]]), store: store)
        #expect(result.status == 65, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("(post 7), field `title`"), "\(result.stderr)")
    }
}
