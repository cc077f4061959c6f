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
    /// The page of `post` with its rendered body (``PostPageData``).
    package func postPage(_ post: Post, bodyHTML: String, neighbours: PostNeighbours) -> [String: Any] {
        let root = SitePaths.relativeRoot(of: SitePaths.post(post.postId))
        let board = neighbours.board
        return PostPageData(
            post: summary(of: post), boardId: board.boardId, boardName: board.displayName, boardHref: root + SitePaths.board(board.boardId),
            backHref: root + SitePaths.board(board.boardId, archivePage: neighbours.backPage), bodyHTML: bodyHTML,
            parent: neighbours.parent.map { link(to: $0, root: root) }, parentMissing: neighbours.parentMissing,
            parentRemoved: neighbours.parentRemoved, hasReplies: !neighbours.replies.isEmpty,
            replies: neighbours.replies.map { rowData(for: $0, root: root) }, previous: neighbours.previous.map { link(to: $0, root: root) },
            next: neighbours.next.map { link(to: $0, root: root) }, hasNeighbours: neighbours.previous != nil || neighbours.next != nil,
            boardFeed: boardFeed(board, root: root)
        ).context
    }

    /// The tombstone at the address of a post a redaction removed: nothing of the post but its id and the day of removal
    /// (``TombstoneData``; `noindex`: the layout asks search engines not to index the page).
    package func tombstonePage(_ removed: RemovedPost, board: Board, backPage: Int?) -> [String: Any] {
        let root = SitePaths.relativeRoot(of: SitePaths.post(removed.postId))
        return TombstoneData(
            postId: removed.postId, boardName: board.displayName, boardHref: root + SitePaths.board(board.boardId),
            backHref: root + SitePaths.board(board.boardId, archivePage: backPage), removedDate: clock.dayLabel(for: removed.redactedAt),
            removedIso: clock.machineTimestamp(for: removed.redactedAt), noindex: true
        ).context
    }
}
