import Testing

@testable import BoardArchive

@Suite("Pagination")
struct PaginationTests {
    @Test(
        "page count and page sizes: every page full except the last; an empty board has one empty page",
        arguments: [
            (0, [0]), (1, [1]), (29, [29]), (30, [30]), (31, [30, 1]), (60, [30, 30]), (61, [30, 30, 1]),
        ])
    func pageSizes(count: Int, sizes: [Int]) {
        let pagination = Pagination(itemCount: count)
        #expect(pagination.pageCount == sizes.count)
        #expect((1...pagination.pageCount).map { pagination.range(ofPage: $0).count } == sizes)
        // Pages tile the list without gaps or overlaps.
        let covered = (1...pagination.pageCount).flatMap { Array(pagination.range(ofPage: $0)) }
        #expect(covered == Array(0..<count))
    }

    @Test("the page listing an item", arguments: [(0, 1), (29, 1), (30, 2), (59, 2), (60, 3)])
    func pageOfItem(index: Int, page: Int) {
        #expect(Pagination(itemCount: 61).page(ofItemAt: index) == page)
    }

    @Test("file names: index.html for the first page, page-<n>.html after it")
    func fileNames() {
        #expect(Pagination.fileName(ofPage: 1) == "index.html")
        #expect(Pagination.fileName(ofPage: 2) == "page-2.html")
        #expect(Pagination.fileName(ofPage: 12) == "page-12.html")
    }

    @Test(
        "the numbered window stays inside 1...pageCount and centres the current page",
        arguments: [(1, 1...9), (5, 1...9), (6, 2...10), (20, 12...20), (18, 12...20), (10, 6...14)])
    func window(page: Int, expected: ClosedRange<Int>) {
        #expect(Pagination(itemCount: 600).window(around: page) == expected)
    }

    @Test("a short list shows all its pages")
    func shortWindow() {
        #expect(Pagination(itemCount: 61).window(around: 2) == 1...3)
        #expect(Pagination(itemCount: 0).window(around: 1) == 1...1)
    }

    @Test("the pager links: first/previous disabled on page 1, aria-current only on the current page")
    func pagerContext() throws {
        let pages = PageContext(strings: SiteStrings(language: .ko), clock: ArchiveClock(now: SiteFixture.now, timeZone: SiteFixture.seoul))
        let pager = pages.pager(Pagination(itemCount: 61), page: 1)
        let items = try #require(pager["items"] as? [[String: Any]])
        #expect(items.map { $0["kind"] as? String } == ["first", "previous", "number", "number", "number", "next", "last"])
        #expect(items.map { $0["isDisabled"] as? Bool } == [true, true, false, false, false, false, false])
        #expect(items.map { $0["isCurrent"] as? Bool } == [false, false, true, false, false, false, false])
        #expect(items.map { $0["href"] as? String } == ["", "", "index.html", "page-2.html", "page-3.html", "page-2.html", "page-3.html"])
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
            let pageFiles = files.keys.filter { $0.hasPrefix("boards/\(boardId)/") }
            let expectedSizes = count == 0 ? [0] : stride(from: 0, to: count, by: 30).map { min(30, count - $0) }
            #expect(pageFiles.count == expectedSizes.count, "board of \(count): \(pageFiles.sorted())")
            var listed: [Int] = []
            for (offset, size) in expectedSizes.enumerated() {
                let html = try SiteFixture.text(SitePaths.board(boardId, page: offset + 1), in: output)
                let ids = html.matches(of: #/<tr class="post-row[^"]*" data-post-id="(\d+)"/#).compactMap { Int($0.output.1) }
                #expect(ids.count == size, "board of \(count), page \(offset + 1)")
                listed += ids
            }
            let boardPosts = try store.posts(inBoard: boardId).map(\.postId)
            #expect(listed == boardPosts, "board of \(count): rows are every post once, in board order")
            if count == 0 { #expect(try SiteFixture.text(SitePaths.board(boardId), in: output).contains("class=\"empty-state\"")) }
        }
    }
}
