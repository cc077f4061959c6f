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

/// Hostile listings crawled over HTTP and then built: the site's bytes show what the store kept.
@Suite("Hostile listings, crawled and built")
struct HostileSiteTests {
    typealias Hostile = HostileCrawlTests

    @Test func aPostListedUnderAnotherBoardHasItsPageAndItsRowOnTheListingBoard() async throws {
        let store = try ArchiveStore.inMemory()
        let listings = FixtureRawListings(
            boards: [Hostile.board(1), Hostile.board(2)],
            posts: [1: [Hostile.post(11, board: 1), Hostile.post(13, board: 99, title: "떠돌이 글")], 2: [Hostile.post(21, board: 2)]])
        _ = try await Hostile.crawl(listings, into: store).0.get()
        let site = try SiteFixture.temporaryDirectory()
        try await SiteFixture.build(store, into: site)
        #expect(try SiteFixture.text("posts/13.html", in: site).contains("떠돌이 글"))
        let board = try SiteFixture.text("boards/1/index.html", in: site)
        #expect(board.contains("data-post-id=\"13\""))
        #expect(!(try SiteFixture.text("boards/2/index.html", in: site)).contains("data-post-id=\"13\""))
    }

    @Test func aNULInATitleWriterOrBodyKeepsTheTextAfterItOnThePage() async throws {
        let store = try ArchiveStore.inMemory()
        let item =
            #"{"postId":1,"boardId":1,"title":"nul\u0000title","writer":{"displayName":"writer\u0000name"},"#
            + #""contents":"body\u0000after","createdDateTime":"2024-01-01T00:00:00Z"}"#
        _ = try await Hostile.crawl(FixtureRawListings(boards: [Hostile.board(1)], posts: [1: [item]]), into: store).0.get()
        let site = try SiteFixture.temporaryDirectory()
        try await SiteFixture.build(store, into: site)
        let page = try SiteFixture.text("posts/1.html", in: site)
        for text in ["nul\u{FFFD}title", "writer\u{FFFD}name", "body\u{FFFD}after"] {
            #expect(page.contains(text), "the page lost \(text)")
        }
        #expect(try SiteFixture.text("boards/1/index.html", in: site).contains("nul\u{FFFD}title"))
    }

    @Test func aLinkInATableCellKeepsItsLabelAndAddressOnThePage() async throws {
        let store = try ArchiveStore.inMemory()
        let item =
            #"{"postId":1,"boardId":1,"title":"표","writer":{"displayName":"w"},"#
            + #""contents":"| x | y |\n|---|---|\n| [Example](https://example.com/) | <https://example.org/a> |","#
            + #""createdDateTime":"2024-01-01T00:00:00Z"}"#
        _ = try await Hostile.crawl(FixtureRawListings(boards: [Hostile.board(1)], posts: [1: [item]]), into: store).0.get()
        let site = try SiteFixture.temporaryDirectory()
        try await SiteFixture.build(store, into: site)
        let page = try SiteFixture.text("posts/1.html", in: site)
        #expect(page.contains(#"<td><span class="inert-link">Example</span> <span class="link-url">https://example.com/</span></td>"#))
        #expect(page.contains(#"<td><span class="inert-link">https://example.org/a</span></td>"#))
        #expect(!page.contains("<td></td>"))
    }
}

@Suite("Build: ids beyond 2^53 − 1 in an older store")
struct BuildIdRuleTests {
    @Test(
        arguments: [
            (9_007_199_254_740_993, 1, nil), (-9_007_199_254_740_992, 1, nil), (5, 9_007_199_254_740_993, nil), (5, 1, 9_007_199_254_740_993),
        ] as [(Int, Int, Int?)])
    func aStoreHoldingAnIdBeyondTheRuleIsRefusedNamingThePost(postId: Int, boardId: Int, parent: Int?) async throws {
        let store = try SiteFixture.store()
        try store.record(boards: [Board(boardId: boardId, displayName: "b", orderNo: 9)], at: SiteFixture.now)
        var post = SiteFixture.post(postId, board: boardId, title: "큰 번호", at: "2024-05-01T00:00:00Z")
        post.parentPostId = parent
        try store.record(posts: [post], at: SiteFixture.now)
        let site = try SiteFixture.temporaryDirectory()
        let error = try await #require(throws: BuildError.self) { try await SiteFixture.build(store, into: site) }
        // The board is named first when its own id is the one beyond the rule.
        #expect(error.reason == (boardId == 1 ? .idBeyondRule(kind: "post", id: postId) : .idBeyondRule(kind: "board", id: boardId)))
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("index.html").path))
    }
}
