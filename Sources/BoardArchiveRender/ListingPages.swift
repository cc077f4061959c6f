/// How a listing (a board, or a keyword's posts) splits into pages whose contents stay put as posts arrive.
///
/// A listing is its pinned posts (notices, newest first) followed by the others, newest first. The **front
/// page** (`index.html`) shows every pinned post and then the newest `pageSize − pinned` others, so it holds
/// `pageSize` posts as before. The other posts live on **archive pages** cut from the *oldest* end: archive page
/// `c` (0-based) holds the posts `pageSize·c ..< pageSize·(c+1)` counted from the oldest, minus those the front
/// page already shows, and is the file `page-<c+2>.html`, shown as page `c+1` ("numbered from the oldest").
///
/// So a new post changes the front page, the one archive page that receives the post the front page drops (the
/// *boundary* page, the newest archive page, which is the only one that may hold fewer than `pageSize` posts),
/// and at most one new archive page; every older archive page keeps its posts, its number and its bytes. A post's
/// link back to "its" page depends only on how many posts are older than it. All maths is O(1).
public struct ListingPages: Sendable, Equatable {
    /// Posts per page.
    public static let defaultPageSize = 30

    /// Pinned posts (notices), all shown on the front page.
    public let pinnedCount: Int
    /// The other posts.
    public let itemCount: Int
    /// Posts per page (30).
    public let pageSize: Int
    /// Places (counted in `pinnedCount` and `itemCount`) of posts a redaction removed: they keep their place, so that
    /// no page after them moves, but show no row.
    public var removedCount = 0

    /// Pages `pinnedCount` pinned posts and `itemCount` others, `pageSize` (≥ 1) per page.
    public init(pinnedCount: Int, itemCount: Int, pageSize: Int = ListingPages.defaultPageSize) {
        precondition(pageSize >= 1, "a page holds at least one item")
        self.pinnedCount = max(0, pinnedCount)
        self.itemCount = max(0, itemCount)
        self.pageSize = pageSize
    }

    /// How many of the other posts the front page shows (the newest ones).
    public var frontCount: Int {
        min(itemCount, max(0, pageSize - pinnedCount))
    }

    /// All posts of the listing, removed ones included.
    public var totalCount: Int { pinnedCount + itemCount }

    /// The posts the listing shows: all but the removed ones.
    public var shownCount: Int { totalCount - removedCount }

    /// The number of archive pages (0 when the front page shows everything).
    public var archivePageCount: Int {
        let rest = itemCount - frontCount
        return rest <= 0 ? 0 : (rest - 1) / pageSize + 1
    }

    /// The archive page (0-based, from the oldest) of the post that has `olderCount` posts older than it,
    /// or nil when the front page shows it.
    public func archivePage(ofItemWithOlderCount olderCount: Int) -> Int? {
        olderCount >= itemCount - frontCount ? nil : olderCount / pageSize
    }

    /// The post positions counted from the oldest (`0` = oldest) that archive page `page` shows, oldest first.
    public func range(ofArchivePage page: Int) -> Range<Int> {
        precondition((0..<archivePageCount).contains(page), "archive page \(page) is outside 0..<\(archivePageCount)")
        let start = page * pageSize
        return start..<min(itemCount - frontCount, start + pageSize)
    }

    /// The file name of the front page (`nil`) or archive page `page`, inside the listing's folder.
    public static func fileName(ofArchivePage page: Int?) -> String {
        page.map { "page-\($0 + 2).html" } ?? "index.html"
    }

    /// What the pager and header of `page` (nil: the front page) show: the page, its numbered window, whether a newer
    /// archive page exists and whether the listing shows any post (every page shows its list and pager, or the empty
    /// state, by that), and on the front page the total and the number of archive pages.
    package func pager(of page: Int?) -> PagerInput {
        var pager = PagerInput(page: page, window: window(around: page))
        if let page {
            pager.hasNewer = page + 1 < archivePageCount
            pager.hasPosts = shownCount > 0
        } else {
            (pager.totalCount, pager.shownCount, pager.archivePageCount) = (totalCount, shownCount, archivePageCount)
        }
        return pager
    }

    /// The archive pages the pager shows around `page` (nil: the front page), newest first: at most `width`.
    ///
    /// The window depends on ``archivePageCount`` only near the newest end, so older pages keep their pager.
    public func window(around page: Int?, width: Int = 9) -> [Int] {
        let count = archivePageCount
        guard count > 0 else { return [] }
        let half = width / 2
        let center = page ?? count
        let low = max(0, center - half)
        let high = min(count - 1, center + half)
        return Array((low...high).reversed())
    }
}

/// What the pager and header of a listing page show (``ListingPages/pager(of:)``): the page (nil: the front page), its
/// numbered window, and either whether a newer archive page exists and whether the listing shows any post (archive
/// pages) or the total, the posts shown and the number of archive pages (the front page).
package struct PagerInput: Codable, Equatable {
    var page: Int?
    var window: [Int]
    var hasNewer: Bool? = nil
    var hasPosts: Bool? = nil
    var totalCount: Int? = nil
    var shownCount: Int? = nil
    var archivePageCount: Int? = nil
}
