import Foundation

/// What the home page needs to know about one board, gathered while its pages are built.
struct BoardSummary: Sendable, Equatable {
    /// The board.
    var board: Board
    /// Posts in the board.
    var postCount: Int
    /// The creation time of the board's newest post, nil for an empty board.
    var newestPostDate: Date?
    /// Whether any post was created today in the archive's time zone.
    var hasPostFromToday: Bool
}

extension PageContext {
    /// The home page: `boards`, one entry per board in display order.
    ///
    /// Entry keys: `boardId`, `name`, `href`, `postCount`, `postCountLabel`, `hasPosts`, `isNew`, and when the
    /// board has posts `latest` (`iso`, `dateLabel`, `fullDate`); `hasBoards` says whether there is any board.
    func home(_ summaries: [BoardSummary]) -> [String: Any] {
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

    /// Board page `page` of `board`, listing `posts` (the page's slice, in board order).
    ///
    /// Keys: `boardId`, `boardName`, `postCount`, `postCountLabel`, `hasPosts`, `posts` (rows), `page`,
    /// `pageCount`, `pager` (see ``pager(_:page:)``).
    func boardPage(board: Board, posts: ArraySlice<Post>, pagination: Pagination, page: Int) -> [String: Any] {
        let root = SitePaths.relativeRoot(of: SitePaths.board(board.boardId, page: page))
        return [
            "boardId": board.boardId,
            "boardName": board.displayName,
            "postCount": pagination.itemCount,
            "postCountLabel": strings.postCount(pagination.itemCount),
            "hasPosts": pagination.itemCount > 0,
            "posts": posts.map { row(for: $0, root: root) },
            "page": page,
            "pageCount": pagination.pageCount,
            "pager": pager(pagination, page: page),
        ]
    }
}
