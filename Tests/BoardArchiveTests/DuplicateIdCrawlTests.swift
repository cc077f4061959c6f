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

/// One post id, one page: the same id in two boards stops the crawl naming both boards, a moved post follows its
/// board, and a board listed twice is crawled once; on both stores (SQLite and PostgreSQL).
@Suite("Duplicate ids over HTTP")
struct DuplicateIdCrawlTests {
    typealias Hostile = HostileCrawlTests

    /// Every post row's id, board, title and raw JSON, by id.
    static let postRows = "SELECT postId, boardId, title, raw FROM post ORDER BY postId"

    @Test(arguments: StoreBackend.allCases)
    func theSamePostIdInTwoBoardsFailsNamingBothAndTheStoreKeepsWhatItHad(backend: StoreBackend) async throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        // A first, good crawl: post 5 in board 1, post 7 in board 2.
        _ = try await Hostile.crawl(
            FixtureRawListings(
                boards: [Hostile.board(1), Hostile.board(2)], posts: [1: [Hostile.post(5, board: 1)], 2: [Hostile.post(7, board: 2)]]),
            into: store
        ).0.get()
        let before = try store.readOnly { try $0.rows(Self.postRows) }
        #expect(before.count == 2)
        // Then board 2 also lists a post 5 of its own (and a changed post 7 on the same page); boards one at a time, so
        // board 1 lists post 5 first in this run.
        let (result, _) = try await Hostile.crawl(
            FixtureRawListings(
                boards: [Hostile.board(1), Hostile.board(2)],
                posts: [1: [Hostile.post(5, board: 1)], 2: [Hostile.post(5, board: 2, title: "둘째"), Hostile.post(7, board: 2, title: "바뀜")]]),
            into: store, concurrency: 1)
        guard case .failure(let error as CrawlError) = result, case .postInTwoBoards(let post, let first, let second) = error.reason else {
            Issue.record("expected the crawl to stop on post 5 in two boards, got \(result)")
            return
        }
        #expect(post == 5)
        #expect(first == 1 && second == 2)
        let message = error.localizedDescription
        #expect(message.contains("post 5") && message.contains("board \(first)") && message.contains("board \(second)"))
        #expect(message.hasPrefix("GET /boards/\(second)/posts?offset=0"))
        let after = try store.readOnly { try $0.rows(Self.postRows) }
        #expect(after == before, "the page with the second copy is not stored")
    }

    @Test(arguments: StoreBackend.allCases)
    func theSamePostIdInTwoBoardsFailsWhicheverBoardIsCrawledFirst(backend: StoreBackend) async throws {
        for order in [[1, 2], [2, 1]] {
            let test = try TestStore(backend)
            defer { test.remove() }
            let store = test.database
            let (result, _) = try await Hostile.crawl(
                FixtureRawListings(
                    boards: order.map { Hostile.board($0) }, posts: [1: [Hostile.post(5, board: 1)], 2: [Hostile.post(5, board: 2)]]),
                into: store, concurrency: 1)
            guard case .failure(let error as CrawlError) = result, case .postInTwoBoards(5, let first, let second) = error.reason else {
                Issue.record("expected the crawl to stop on post 5 in two boards, got \(result)")
                continue
            }
            #expect(Set([first, second]) == [1, 2])
            #expect(try store.publishedPosts(inBoard: second).isEmpty, "the second board's copy is not stored")
            #expect(try store.publishedPosts(inBoard: first).map(\.postId) == [5])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aPostThatMovedToAnotherBoardSinceTheLastCrawlFollowsIt(backend: StoreBackend) async throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        let boards = [Hostile.board(1), Hostile.board(2)]
        _ = try await Hostile.crawl(FixtureRawListings(boards: boards, posts: [1: [Hostile.post(5, board: 1)], 2: []]), into: store).0.get()
        let report = try await Hostile.crawl(FixtureRawListings(boards: boards, posts: [1: [], 2: [Hostile.post(5, board: 2)]]), into: store).0.get()
        #expect(report.posts == 1)
        #expect(try store.publishedPosts(inBoard: 2).map(\.postId) == [5])
        #expect(try store.publishedPosts(inBoard: 1).isEmpty)
        #expect(try store.history(ofPost: 5)?.goneSince == nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func aBoardListedTwiceIsCrawledOnceAndCountedOnce(backend: StoreBackend) async throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        let (result, logs) = try await Hostile.crawl(
            FixtureRawListings(
                boards: [Hostile.board(1), Hostile.board(2), Hostile.board(1, "다른 이름")],
                posts: [1: [Hostile.post(5, board: 1), Hostile.post(6, board: 1)], 2: [Hostile.post(7, board: 2)]]),
            into: store)
        let report = try result.get()
        #expect(report.boards == 2)
        #expect(report.posts == 3)
        #expect(report.new == 3)
        #expect(try store.snapshot(pseudonyms: nil).boards().map(\.displayName) == ["게시판", "게시판"])
        #expect(logs.contains { $0.hasPrefix("warning") && $0.contains("more than once") && $0.contains("\"board\": 1") }, "\(logs)")
    }
}
