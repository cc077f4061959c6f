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

    package init(
        board: Board, postCount: Int, removedCount: Int = 0, newestPostDate: Date?, hasPostFromToday: Bool,
        newestPosts: NewestPosts<ListedPost> = NewestPosts<ListedPost>()
    ) {
        self.board = board
        self.postCount = postCount
        self.removedCount = removedCount
        self.newestPostDate = newestPostDate
        self.hasPostFromToday = hasPostFromToday
        self.newestPosts = newestPosts
    }
}

extension PageContext {
    /// The home page: `boards`, one entry per board in display order.
    ///
    /// Entry keys: `boardId`, `name`, `href`, `postCount`, `postCountLabel`, `hasPosts`, `isNew`, and when the
    /// board has posts `latest` (`iso`, `dateLabel`, `fullDate`); `hasBoards` says whether there is any board.
    package func home(_ summaries: [BoardSummary]) -> [String: Any] {
        let boards: [[String: Any]] = summaries.map { summary in
            var entry: [String: Any] = [
                "boardId": summary.board.boardId,
                "name": summary.board.displayName,
                "href": SitePaths.board(summary.board.boardId),
                "postCount": summary.postCount,
                "postCountLabel": strings.postCount(summary.postCount),
                "hasPosts": summary.postCount > 0,
                "isNew": summary.hasPostFromToday,
            ]
            if let newest = summary.newestPostDate {
                entry["latest"] = [
                    "iso": clock.machineTimestamp(for: newest), "dateLabel": clock.shortLabel(for: newest),
                    "fullDate": clock.fullLabel(for: newest),
                ]
            } else {
                entry["latest"] = false
            }
            return entry
        }
        return ["boards": boards, "hasBoards": !boards.isEmpty]
    }

    /// A page of `board` listing `rows` (in board order): the front page (`archivePage` nil) or archive page `archivePage`.
    ///
    /// Keys: `boardId`, `boardName`, `postCount`, `postCountLabel`, `hasPosts`, `isFront`, `posts` (rows), `pager`
    /// (see ``pager(_:page:fileName:)``), `boardFeed` (see ``boardFeed(_:root:)``). `postCountLabel` is empty on archive pages, which never show totals (so a new post
    /// elsewhere in the board leaves them unchanged).
    package func boardPage(board: Board, rows: [Post], listing: ListingPages, archivePage: Int?) -> [String: Any] {
        let root = SitePaths.relativeRoot(of: SitePaths.board(board.boardId, archivePage: archivePage))
        return [
            "boardId": board.boardId,
            "boardName": board.displayName,
            "postCount": archivePage == nil ? listing.shownCount : rows.count,
            "postCountLabel": archivePage == nil ? strings.postCount(listing.shownCount) : "",
            "hasPosts": listing.shownCount > 0,
            "isFront": archivePage == nil,
            "posts": rows.map { row(for: $0, root: root) },
            "pager": pager(listing, page: archivePage, fileName: ListingPages.fileName(ofArchivePage:)),
            "boardFeed": boardFeed(board, root: root),
        ]
    }

    /// The board's Atom feed as the layout links to it: `href`, `title`.
    func boardFeed(_ board: Board, root: String) -> [String: Any] {
        ["href": root + SitePaths.boardFeed(board.boardId), "title": board.displayName]
    }

    /// The title of a listing page: the name on the front page, "name (page n)" on archive page `n − 1`.
    package func listingTitle(_ name: String, archivePage: Int?) -> String {
        archivePage.map { "\(name) (\(strings.pageNumber($0 + 1)))" } ?? name
    }
}
