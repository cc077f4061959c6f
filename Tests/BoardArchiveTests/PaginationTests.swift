import BoardArchive
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

@Suite("Listing pages")
struct PaginationTests {
    @Test(
        "front page and archive pages: the front page holds 30, archive pages are cut from the oldest end",
        arguments: [
            (0, 0, 0, [Int]()), (0, 1, 1, []), (0, 29, 29, []), (0, 30, 30, []), (0, 31, 30, [1]), (0, 60, 30, [30]),
            (0, 61, 30, [30, 1]), (2, 61, 28, [30, 3]), (31, 5, 0, [5]), (0, 95, 30, [30, 30, 5]),
        ])
    func pageSizes(pinned: Int, count: Int, front: Int, archiveSizes: [Int]) {
        let listing = ListingPages(pinnedCount: pinned, itemCount: count)
        #expect(listing.frontCount == front)
        #expect(listing.archivePageCount == archiveSizes.count)
        #expect((0..<listing.archivePageCount).map { listing.range(ofArchivePage: $0).count } == archiveSizes)
        // Archive pages tile the posts the front page does not show, without gaps or overlaps.
        let covered = (0..<listing.archivePageCount).flatMap { Array(listing.range(ofArchivePage: $0)) }
        #expect(covered == Array(0..<(count - front)))
        for olderCount in 0..<count {
            let page = listing.archivePage(ofItemWithOlderCount: olderCount)
            #expect(page.map { listing.range(ofArchivePage: $0).contains(olderCount) } ?? (olderCount >= count - front))
        }
    }

    @Test("a new post leaves every archive page but the newest two as it was", arguments: [0, 1, 3, 29, 31])
    func stability(pinned: Int) {
        for count in 0..<200 {
            let before = ListingPages(pinnedCount: pinned, itemCount: count)
            let after = ListingPages(pinnedCount: pinned, itemCount: count + 1)
            for page in 0..<max(0, before.archivePageCount - 1) {
                #expect(before.range(ofArchivePage: page) == after.range(ofArchivePage: page), "count \(count), page \(page)")
            }
            // The post that gets the link back to a page: only the post the front page drops changes page.
            let moved = (0..<count).filter { before.archivePage(ofItemWithOlderCount: $0) != after.archivePage(ofItemWithOlderCount: $0) }
            #expect(moved.count <= 1, "count \(count): \(moved)")
        }
    }

    @Test("an archive page's pager input tells a listing that shows posts from one whose posts were all removed")
    func archiveDigestNamesAnEmptyListing() {
        var shown = ListingPages(pinnedCount: 0, itemCount: 31)
        var empty = shown
        shown.removedCount = 1
        empty.removedCount = 31
        #expect(shown.pager(of: 0) != empty.pager(of: 0))
    }

    @Test("file names: index.html for the front page, page-<c+2>.html for archive page c")
    func fileNames() {
        #expect(ListingPages.fileName(ofArchivePage: nil) == "index.html")
        #expect(ListingPages.fileName(ofArchivePage: 0) == "page-2.html")
        #expect(ListingPages.fileName(ofArchivePage: 10) == "page-12.html")
    }

    @Test(
        "the numbered window, newest first, stays inside the archive pages",
        arguments: [(nil, [19, 18, 17, 16]), (19, [19, 18, 17, 16, 15]), (10, [14, 13, 12, 11, 10, 9, 8, 7, 6]), (0, [4, 3, 2, 1, 0])])
    func window(page: Int?, expected: [Int]) {
        #expect(ListingPages(pinnedCount: 0, itemCount: 630).window(around: page) == expected)
    }

    @Test("the pager of the front page and of the oldest page")
    func pagerContext() throws {
        let pages = PageContext(strings: SiteStrings(language: .ko), clock: ArchiveClock(now: SiteFixture.now, timeZone: SiteFixture.seoul))
        let listing = ListingPages(pinnedCount: 0, itemCount: 61)
        let front = try #require(pages.pager(listing, page: nil, fileName: ListingPages.fileName(ofArchivePage:))?.context)
        let items = try #require(front["items"] as? [[String: Any]])
        #expect(items.map { $0["kind"] as? String } == ["first", "previous", "number", "number", "next", "last"])
        #expect(items.map { $0["isDisabled"] as? Bool } == [true, true, false, false, false, false])
        #expect(items.map { $0["label"] as? String } == ["처음", "이전", "2", "1", "다음", "마지막"])
        #expect(items.map { $0["href"] as? String } == ["", "", "page-3.html", "page-2.html", "page-3.html", "page-2.html"])
        let oldest = try #require(pages.pager(listing, page: 0, fileName: ListingPages.fileName(ofArchivePage:))?.context)
        let oldestItems = try #require(oldest["items"] as? [[String: Any]])
        #expect(oldestItems.map { $0["href"] as? String } == ["index.html", "page-3.html", "page-3.html", "page-2.html", "", ""])
        #expect(oldestItems.map { $0["isCurrent"] as? Bool } == [false, false, false, true, false, false])
        let short = ListingPages(pinnedCount: 3, itemCount: 27)
        #expect(pages.pager(short, page: nil, fileName: ListingPages.fileName(ofArchivePage:)) == nil)
        // No pager is `false` in the board page's context, never a missing key.
        #expect(pages.boardPage(board: SiteFixture.boards[1], rows: [], listing: short, archivePage: nil)["pager"] as? Bool == false)
    }
}

@Suite("Pagination of built board pages")
struct BuiltPaginationTests {
    /// One board per post count; each board's built pages must hold exactly the expected rows, in board order.
    static let counts = [0, 1, 29, 30, 31, 60, 61]

    @Test("boards of 0, 1, 29, 30, 31, 60 and 61 posts: the page files and the rows on each")
    func builtPages() async throws {
        var boards: [Board] = []
        var posts: [Post] = []
        var nextId = 1_000
        for (index, count) in Self.counts.enumerated() {
            let boardId = 100 + count
            boards.append(Board(boardId: boardId, displayName: "게시판 \(count)", orderNo: index))
            for minute in 0..<count {
                posts.append(SiteFixture.post(nextId, board: boardId, at: String(format: "2024-05-14T10:%02d:00Z", minute % 60)))
                nextId += 1
            }
        }
        let store = try SiteFixture.store(boards: boards, posts: posts)
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        try await SiteFixture.build(store, into: output)
        let files = try SiteFixture.files(under: output)
        for count in Self.counts {
            let boardId = 100 + count
            let pageFiles = files.keys.filter { $0.hasPrefix("boards/\(boardId)/") && $0.hasSuffix(".html") }
            // Reading order: the front page, then the archive pages from the newest to the oldest.
            let listing = ListingPages(pinnedCount: 0, itemCount: count)
            let order: [Int?] = [nil] + (0..<listing.archivePageCount).reversed().map { $0 }
            let expectedSizes = order.map { $0.map { listing.range(ofArchivePage: $0).count } ?? min(30, count) }
            #expect(pageFiles.count == expectedSizes.count, "board of \(count): \(pageFiles.sorted())")
            var listed: [Int] = []
            for (page, size) in zip(order, expectedSizes) {
                let html = try SiteFixture.text(SitePaths.board(boardId, archivePage: page), in: output)
                let ids = html.matches(of: #/<tr class="post-row[^"]*" data-post-id="(\d+)"/#).compactMap { Int($0.output.1) }
                #expect(ids.count == size, "board of \(count), page \(String(describing: page))")
                listed += ids
            }
            let boardPosts = try store.posts(inBoard: boardId).map(\.postId)
            #expect(listed == boardPosts, "board of \(count): rows are every post once, in board order")
            if count == 0 { #expect(try SiteFixture.text(SitePaths.board(boardId), in: output).contains("class=\"empty-state\"")) }
        }
    }
}
