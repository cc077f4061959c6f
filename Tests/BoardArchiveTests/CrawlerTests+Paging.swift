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

/// Paging that must end: servers whose pages stop advancing, or never reach their end, end the pass as inconsistent.
extension CrawlerTests {
    @Test func aTotalThatClaimsMorePostsThanServedEndsWithAMismatchAfterFewRequests() async throws {
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: (1...40).map { makePost($0) }], totalBias: 5)
        let store = try ArchiveStore.inMemory()
        let report = try await crawl(api, store: store)
        #expect(report.mismatches == [CrawlReport.Mismatch(boardId: 1, expected: 45, found: 40)])
        #expect(report.gone == 0)
        #expect(try store.postCount(inBoard: 1) == 40)
        // /boards, then per pass the pages at offsets 0 and 29, and the page at 39 that holds only its anchor.
        let requests = api.requests.withLock { $0.count }
        #expect(requests == 1 + 3 * 3)
    }

    @Test func pagesOfTwoPostsReachTheEnd() async throws {
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: (1...61).map { makePost($0) }])
        let store = try ArchiveStore.inMemory()
        let report = try await crawl(api, store: store, pageSize: 2)
        #expect(try store.postCount(inBoard: 1) == 61)
        #expect(report.posts == 61)
        #expect(report.mismatches.isEmpty)
        // /boards, the first page (2 posts), 59 pages of one new post each, and the re-read of the first page.
        let requests = api.requests.withLock { $0.count }
        #expect(requests == 1 + 1 + 59 + 1)
    }

    @Test func aBoardThatNeverEndsStopsAtTheRequestCap() async throws {
        // Every page is full and consistent with the last, but `total` always lies 1000 posts ahead of the cursor.
        let api = MemoryAPI(boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: [1: []]) { _, url in
            guard url.path.hasSuffix("/posts") else { return nil }
            let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            let offset = Int(query.first { $0.name == "offset" }?.value ?? "") ?? 0
            let posts = (offset..<offset + 30).map { makePost(1_000_000 - $0) }
            let page = Envelope(value: posts, count: 30, offset: offset, limit: 30, total: offset + 1_000)
            return HTTPResponse(status: 200, body: (try? JSONEncoder().encode(page)) ?? Data())
        }
        let report = try await crawl(api, store: try ArchiveStore.inMemory())
        #expect(report.mismatches.map(\.boardId) == [1])
        // A pass makes at most twice the requests its first `total` needs, plus slack: 2 × (1000 / 29 + 3) = 74.
        let requests = api.requests.withLock { $0.count }
        #expect(requests == 1 + 3 * 74)
    }
}
