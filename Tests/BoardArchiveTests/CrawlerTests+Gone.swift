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

/// Boards that disappear upstream take their posts with them: kept in the archive, marked gone.
extension CrawlerTests {
    @Test(arguments: StoreBackend.allCases)
    func aBoardNoLongerListedHasItsPostsMarkedGone(backend: StoreBackend) async throws {
        let posts = [1: (11...13).map { makePost($0, board: 1) }, 2: (1...5).map { makePost($0, board: 2) }]
        let both = MemoryAPI(
            boards: [Board(boardId: 1, displayName: "a", orderNo: 1), Board(boardId: 2, displayName: "b", orderNo: 2)], posts: posts)
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        _ = try await crawl(both, store: store)
        let onlyTheSecond = MemoryAPI(boards: [Board(boardId: 2, displayName: "b", orderNo: 2)], posts: posts)
        let report = try await crawl(onlyTheSecond, store: store)
        #expect(report.gone == 3)
        #expect(try store.postCount() == 8)
        for id in 11...13 { #expect(try store.history(ofPost: id)?.goneSince != nil) }
        for id in 1...5 { #expect(try store.history(ofPost: id)?.goneSince == nil) }

        // Listed again: the board and the posts it still has come back.
        let report3 = try await crawl(both, store: store)
        #expect(report3.gone == 0)
        #expect(try store.gonePostCount() == 0)
    }
}
