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
