/// How a board's posts split into pages, and where each page lives.
///
/// Every page is full (``pageSize`` posts) except the last. A board without posts still has one page,
/// `index.html`, which shows the empty state. All maths is O(1); nothing is sorted or scanned here.
public struct Pagination: Sendable, Equatable {
    /// Posts per board page.
    public static let defaultPageSize = 30

    /// The number of posts being paged.
    public let itemCount: Int
    /// Posts per page (30 on board pages).
    public let pageSize: Int

    /// Pages `itemCount` items, `pageSize` (≥ 1) per page.
    public init(itemCount: Int, pageSize: Int = Pagination.defaultPageSize) {
        precondition(pageSize >= 1, "a page holds at least one item")
        self.itemCount = max(0, itemCount)
        self.pageSize = pageSize
    }

    /// The number of pages; 1 for an empty list (its page shows the empty state).
    public var pageCount: Int {
        max(1, (itemCount + pageSize - 1) / pageSize)
    }

    /// The item indices (0-based) shown on `page` (1-based); empty for the only page of an empty list.
    public func range(ofPage page: Int) -> Range<Int> {
        precondition((1...pageCount).contains(page), "page \(page) is outside 1...\(pageCount)")
        let start = (page - 1) * pageSize
        return start..<min(itemCount, start + pageSize)
    }

    /// The page (1-based) that lists the item at `index` (0-based).
    public func page(ofItemAt index: Int) -> Int {
        index / pageSize + 1
    }

    /// The file name of `page` inside its folder: `index.html` for page 1, `page-<n>.html` after it.
    public static func fileName(ofPage page: Int) -> String {
        page <= 1 ? "index.html" : "page-\(page).html"
    }

    /// The numbered pages the pager shows around `page`: at most `width` pages, `page` as central as the ends allow.
    public func window(around page: Int, width: Int = 9) -> ClosedRange<Int> {
        let width = max(1, min(width, pageCount))
        var start = max(1, page - width / 2)
        start = min(start, pageCount - width + 1)
        return start...(start + width - 1)
    }
}
