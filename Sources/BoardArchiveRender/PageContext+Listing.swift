import BoardArchiveModel
import BoardArchiveStore
import Foundation

/// What the home page needs to know about one board, gathered while its pages are built.
package struct BoardSummary: Sendable, Equatable {
    /// The board.
    package var board: Board
    /// Posts in the board the site shows.
    package var postCount: Int
    /// Posts of the board a redaction removed (each has a tombstone page).
    package var removedCount = 0
    /// The creation time of the board's newest post, nil for an empty board.
    package var newestPostDate: Date?
    /// Whether any post was created today in the archive's time zone.
    package var hasPostFromToday: Bool

    /// The board's newest posts, for its feed and the archive's.
    package var newestPosts = NewestPosts<ListedPost>()
    /// When the source deleted the board and it is marked: when it was last seen.
    package var deletedLastSeen: Date?

    package init(
        board: Board, postCount: Int, removedCount: Int = 0, newestPostDate: Date?, hasPostFromToday: Bool,
        newestPosts: NewestPosts<ListedPost> = NewestPosts<ListedPost>(), deletedLastSeen: Date? = nil
    ) {
        self.board = board
        self.postCount = postCount
        self.removedCount = removedCount
        self.newestPostDate = newestPostDate
        self.hasPostFromToday = hasPostFromToday
        self.newestPosts = newestPosts
        self.deletedLastSeen = deletedLastSeen
    }
}

extension PageContext {
    /// The home page: `boards`, one entry per board in display order (``HomeData``).
    package func home(_ summaries: [BoardSummary]) -> [String: Any] {
        let boards = summaries.map { summary in
            HomeBoardData(
                boardId: summary.board.boardId, name: summary.board.displayName, href: SitePaths.board(summary.board.boardId),
                postCount: summary.postCount, postCountLabel: strings.postCount(summary.postCount), hasPosts: summary.postCount > 0,
                isNew: summary.hasPostFromToday,
                latest: summary.newestPostDate.map {
                    DateData(iso: clock.machineTimestamp(for: $0), dateLabel: clock.shortLabel(for: $0), fullDate: clock.fullLabel(for: $0))
                }, deleted: summary.deletedLastSeen.map(deletedDay))
        }
        return HomeData(boards: boards, hasBoards: !boards.isEmpty).context
    }

    /// A page of `board` listing `rows` (in board order): the front page (`archivePage` nil) or archive page `archivePage`.
    ///
    /// `postCountLabel` is empty on archive pages, which never show totals (so a new post elsewhere in the board leaves
    /// them unchanged).
    /// `deletedLastSeen`: when the source's deleted posts among `rows` were last seen, by id, for their marks.
    /// `boardDeletedLastSeen`: when the source deleted the board and it is marked, when it was last seen.
    package func boardPage(
        board: Board, rows: [Post], deletedLastSeen: [Int: Date] = [:], boardDeletedLastSeen: Date? = nil, listing: ListingPages,
        archivePage: Int?
    ) -> [String: Any] {
        let root = SitePaths.relativeRoot(of: SitePaths.board(board.boardId, archivePage: archivePage))
        return BoardPageData(
            boardId: board.boardId, boardName: board.displayName, postCount: archivePage == nil ? listing.shownCount : rows.count,
            postCountLabel: archivePage == nil ? strings.postCount(listing.shownCount) : "", hasPosts: listing.shownCount > 0,
            isFront: archivePage == nil, posts: rows.map { rowData(for: $0, deletedLastSeen: deletedLastSeen[$0.postId], root: root) },
            pager: pager(listing, page: archivePage, fileName: ListingPages.fileName(ofArchivePage:)), boardFeed: boardFeed(board, root: root),
            deleted: boardDeletedLastSeen.map(deletedDay)
        ).context
    }

    /// The board's Atom feed as the layout links to it.
    func boardFeed(_ board: Board, root: String) -> FeedLinkData {
        FeedLinkData(href: root + SitePaths.boardFeed(board.boardId), title: board.displayName)
    }

    /// A keyword page listing `rows` (``KeywordPageData``; `title` and `content` come with the layout's keys): the front page
    /// (`archivePage` nil) or archive page `archivePage`, its pager linking to `fileName(page)`.
    package func keywordPage(
        keyword: String, count: Int, countLabel: String, searchHref: String, archivePage: Int?, listing: ListingPages, rows: [[String: Any]],
        fileName: (Int?) -> String
    ) -> [String: Any] {
        KeywordPageData(
            keyword: keyword, count: count, countLabel: archivePage == nil ? countLabel : "", isFront: archivePage == nil, hasPosts: count > 0,
            posts: PreparedRows(rows), pager: pager(listing, page: archivePage, fileName: fileName), searchHref: searchHref
        ).context
    }

    /// A post's keyword row before a keyword's highlights are put in (``KeywordRowData``), with the row's title and writer.
    package func keywordRow(for post: Post, boardName: String) -> (context: [String: Any], title: String, writer: String) {
        let row = rowData(for: post, root: "../")
        let data = KeywordRowData(row: row, snippetHTML: "", hasSnippet: false, boardName: boardName, hasBoardName: true)
        return (data.context, row.post.title, row.post.writer)
    }

    /// `keywords/index.html` (``KeywordIndexData``): each keyword with the address of its first page and its count.
    package func keywordIndex(_ keywords: [(keyword: String, href: String, count: Int)]) -> [String: Any] {
        KeywordIndexData(
            keywords: keywords.map {
                KeywordLinkData(
                    keyword: $0.keyword, href: $0.href, count: $0.count,
                    countLabel: strings["keywordCount"].replacingOccurrences(of: "{count}", with: String($0.count)))
            }, hasKeywords: !keywords.isEmpty
        ).context
    }

    /// The search page (``SearchPageData``): the target menu's choices (`value`, `label`), the boards, and the result row's
    /// template.
    package func searchPage(targets: [(value: String, label: String)], boards: [Board], rowTemplate: String) -> [String: Any] {
        SearchPageData(
            targets: targets.map { SearchTargetData(value: $0.value, label: $0.label) },
            boards: boards.map { BoardOptionData(boardId: $0.boardId, name: $0.displayName) }, rowTemplate: rowTemplate
        ).context
    }

    /// The title of a listing page: the name on the front page, "name (page n)" on archive page `n − 1`.
    package func listingTitle(_ name: String, archivePage: Int?) -> String {
        archivePage.map { "\(name) (\(strings.pageNumber($0 + 1)))" } ?? name
    }
}
