import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The token stays out of errors and the store even when the server (or a proxy) echoes it back.
extension CrawlerTests {
    /// Every 10-character piece of the test token: finding none shows that not even a cut-off start of it leaked.
    static let tokenPieces: [String] = {
        let characters = Array(testToken)
        return (0...(characters.count - 10)).map { String(characters[$0..<$0 + 10]) }
    }()

    /// The bytes of every file in `folder` (the store, its WAL and shared-memory files), as text.
    static func contents(of folder: TemporaryFolder) throws -> String {
        var text = ""
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) {
            text += String(decoding: try Data(contentsOf: folder.url.appendingPathComponent(name)), as: UTF8.self)
        }
        return text
    }

    @Test func aBodyThatEchoesTheTokenLeavesItOutOfTheErrorAndTheStore() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: []]) { _, _ in
            HTTPResponse(status: 200, body: Data("echo: Authorization: Bearer \(testToken)\nHost: api.test".utf8))
        }
        let store = try ArchiveStore(path: folder.path("archive.sqlite"))
        let error = await #expect(throws: CrawlError.self) { _ = try await crawl(api, store: store) }
        let description = try #require(error?.localizedDescription)
        #expect(description.contains("echo: Authorization: Bearer <redacted>"))
        #expect(Self.tokenPieces.allSatisfy { !description.contains($0) && !String(describing: error).contains($0) })
        let stored = try Self.contents(of: folder)
        let summaryStored = stored.contains("Bearer <redacted>")
        let leaked = Self.tokenPieces.filter { stored.contains($0) }
        #expect(summaryStored)  // the failed run's summary is in the store, redacted
        #expect(leaked.isEmpty)
    }

    @Test func redactingReachesEveryStringOfACrawlError() throws {
        let token = try #require(APIToken(testToken))
        let reasons: [(CrawlError.Reason, CrawlError.Reason)] = [
            (.transport("echo \(testToken)", attempts: 2, waited: 1), .transport("echo <redacted>", attempts: 2, waited: 1)),
            (.undecodableBody("starts with \(testToken)"), .undecodableBody("starts with <redacted>")),
            (
                .undecodableItem(board: 1, offset: 2, post: 3, field: "f\(testToken)", detail: "d\(testToken)"),
                .undecodableItem(board: 1, offset: 2, post: 3, field: "f<redacted>", detail: "d<redacted>")
            ),
            (.missingToken("x \(testToken)"), .missingToken("x <redacted>")),
            (.unauthorized, .unauthorized),
        ]
        for (tainted, clean) in reasons {
            let error = CrawlError(request: "GET /boards?t=\(testToken)", reason: tainted).redacting(token)
            #expect(error == CrawlError(request: "GET /boards?t=<redacted>", reason: clean))
        }
    }
}
