import BoardArchiveModel
import BoardArchiveStore
import Foundation

/// The neighbours of a post that its page links to, resolved by the site builder.
package struct PostNeighbours: Sendable {
    /// The board the post is listed on.
    var board: Board
    /// The archive page that lists the post, nil for the board's front page (see ``ListingPages``).
    var backPage: Int?
    /// The post above it in board order.
    var previous: Post?
    /// The post below it in board order.
    var next: Post?
    /// The parent of a reply, when it is in the archive.
    var parent: Post?
    /// Whether the post names a parent that is not in the archive.
    var parentMissing: Bool
    /// Whether the post's parent was removed by a redaction.
    var parentRemoved = false
    /// The replies to the post, in board order.
    var replies: [Post]

    package init(
        board: Board, backPage: Int?, previous: Post?, next: Post?, parent: Post?, parentMissing: Bool, parentRemoved: Bool = false,
        replies: [Post]
    ) {
        self.board = board
        self.backPage = backPage
        self.previous = previous
        self.next = next
        self.parent = parent
        self.parentMissing = parentMissing
        self.parentRemoved = parentRemoved
        self.replies = replies
    }
}

extension PageContext {
    /// The page of `post` with its rendered body.
    ///
    /// Keys: everything of a row (``postSummary(_:)``) plus `boardId`, `boardName`, `boardHref` (the board's
    /// first page), `backHref` (the board page that lists the post), `bodyHTML` (raw, from cmark-gfm),
    /// `parent` (`href`, `title`, `postId`, or false), `parentMissing`, `parentRemoved`, `hasReplies`, `replies` (rows),
    /// `previous` / `next` (`href`, `title`, `postId`, or false), `hasNeighbours`, `boardFeed`.
    package func postPage(_ post: Post, bodyHTML: String, neighbours: PostNeighbours) -> [String: Any] {
        let root = SitePaths.relativeRoot(of: SitePaths.post(post.postId))
        var context = postSummary(post)
        context["boardId"] = neighbours.board.boardId
        context["boardName"] = neighbours.board.displayName
        context["boardHref"] = root + SitePaths.board(neighbours.board.boardId)
        context["backHref"] = root + SitePaths.board(neighbours.board.boardId, archivePage: neighbours.backPage)
        context["bodyHTML"] = bodyHTML
        context["parent"] = neighbours.parent.map { link(to: $0, root: root) as Any } ?? false
        context["parentMissing"] = neighbours.parentMissing
        context["parentRemoved"] = neighbours.parentRemoved
        context["hasReplies"] = !neighbours.replies.isEmpty
        context["replies"] = neighbours.replies.map { row(for: $0, root: root) }
        context["previous"] = neighbours.previous.map { link(to: $0, root: root) as Any } ?? false
        context["next"] = neighbours.next.map { link(to: $0, root: root) as Any } ?? false
        context["hasNeighbours"] = neighbours.previous != nil || neighbours.next != nil
        context["boardFeed"] = boardFeed(neighbours.board, root: root)
        return context
    }

    /// The tombstone at the address of a post a redaction removed: nothing of the post but its id and the day of removal.
    ///
    /// Keys: `postId`, `boardName`, `boardHref`, `backHref`, `removedDate` (`yyyy-MM-dd` in the archive's time zone),
    /// `removedIso` (UTC), `noindex` (true: the layout asks search engines not to index the page).
    package func tombstonePage(_ removed: RemovedPost, board: Board, backPage: Int?) -> [String: Any] {
        let root = SitePaths.relativeRoot(of: SitePaths.post(removed.postId))
        return [
            "postId": removed.postId,
            "boardName": board.displayName,
            "boardHref": root + SitePaths.board(board.boardId),
            "backHref": root + SitePaths.board(board.boardId, archivePage: backPage),
            "removedDate": clock.dayLabel(for: removed.redactedAt),
            "removedIso": clock.machineTimestamp(for: removed.redactedAt),
            "noindex": true,
        ]
    }
}
