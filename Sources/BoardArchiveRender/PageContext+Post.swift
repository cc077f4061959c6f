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
    /// When the source's deleted replies were last seen, by id, for their marks (empty: no marks).
    package var deletedLastSeen: [Int: Date] = [:]

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

/// What a post page says of the post's life at the source besides its fields: deleted there (when it was last seen),
/// edited (when the change was seen, and its earlier versions).
package struct SourceHistory: Sendable, Equatable {
    /// When the source's deleted post was last seen; nil when it is not marked.
    package var deletedLastSeen: Date?
    /// The earlier versions (numbers and dates) and since when the current text is seen; nil when there are none.
    package var versions: VersionKeys?

    package init(deletedLastSeen: Date? = nil, versions: VersionKeys? = nil) {
        self.deletedLastSeen = deletedLastSeen
        self.versions = versions
    }
}

extension PageContext {
    /// The page of `post` with its rendered body (``PostPageData``), as its context.
    package func postPage(_ post: Post, bodyHTML: String, neighbours: PostNeighbours, history: SourceHistory = SourceHistory()) -> [String: Any] {
        postPageData(post, bodyHTML: bodyHTML, neighbours: neighbours, history: history).context
    }

    /// The page of `post` with its rendered body.
    package func postPageData(_ post: Post, bodyHTML: String, neighbours: PostNeighbours, history: SourceHistory = SourceHistory()) -> PostPageData {
        let root = SitePaths.relativeRoot(of: SitePaths.post(post.postId))
        let board = neighbours.board
        return PostPageData(
            post: summary(of: post, deletedLastSeen: history.deletedLastSeen), boardId: board.boardId, boardName: board.displayName,
            boardHref: root + SitePaths.board(board.boardId),
            backHref: root + SitePaths.board(board.boardId, archivePage: neighbours.backPage), bodyHTML: bodyHTML,
            parent: neighbours.parent.map { link(to: $0, root: root) }, parentMissing: neighbours.parentMissing,
            parentRemoved: neighbours.parentRemoved, hasReplies: !neighbours.replies.isEmpty,
            replies: neighbours.replies.map { rowData(for: $0, deletedLastSeen: neighbours.deletedLastSeen[$0.postId], root: root) },
            previous: neighbours.previous.map { link(to: $0, root: root) },
            next: neighbours.next.map { link(to: $0, root: root) }, hasNeighbours: neighbours.previous != nil || neighbours.next != nil,
            boardFeed: boardFeed(board, root: root), edited: history.versions.map { edited(post.postId, $0, root: root) })
    }

    /// A post's edit and the links to its earlier versions.
    private func edited(_ postId: Int, _ versions: VersionKeys, root: String) -> EditedData {
        let since = versions.currentSince ?? versions.earlier.last?.lastSeen ?? Date(timeIntervalSince1970: 0)
        return EditedData(
            iso: clock.machineTimestamp(for: since), day: clock.dayLabel(for: since),
            versions: versions.earlier.map { version in
                VersionLinkData(
                    href: root + SitePaths.version(version.version, ofPost: postId),
                    label: versionLabel(version.version),
                    seenLabel: strings["versionSeen"].replacingOccurrences(of: "{from}", with: clock.dayLabel(for: version.firstSeen))
                        .replacingOccurrences(of: "{to}", with: clock.dayLabel(for: version.lastSeen)))
            })
    }

    /// "Version 2".
    package func versionLabel(_ version: Int) -> String {
        strings["versionLabel"].replacingOccurrences(of: "{n}", with: String(version))
    }

    /// The title of an earlier version's page.
    package func versionTitle(_ version: PostVersion) -> String {
        strings["versionTitle"].replacingOccurrences(of: "{n}", with: String(version.version))
            .replacingOccurrences(of: "{title}", with: displayTitle(version.post))
    }

    /// The page of an earlier version (``VersionPageData``): `version` with its rendered body, compared with `next` (the
    /// version after it, or the current post), on the board `board`; `noindex`.
    package func versionPage(_ version: PostVersion, bodyHTML: String, next: Post, current: Post, board: Board) -> [String: Any] {
        versionPageData(version, bodyHTML: bodyHTML, next: next, current: current, board: board).context
    }

    /// ``versionPage(_:bodyHTML:next:current:board:)``'s value.
    package func versionPageData(_ version: PostVersion, bodyHTML: String, next: Post, current: Post, board: Board) -> VersionPageData {
        let path = SitePaths.version(version.version, ofPost: version.post.postId)
        let root = SitePaths.relativeRoot(of: path)
        let removed = strings["diffRemoved"]
        let added = strings["diffAdded"]
        let title = WordDiff.segments(from: displayTitle(version.post), to: displayTitle(next))
        let body = WordDiff.segments(from: version.post.contents, to: next.contents)
        return VersionPageData(
            post: summary(of: version.post), version: version.version, versionLabel: versionLabel(version.version),
            boardName: board.displayName, boardHref: root + SitePaths.board(board.boardId), postHref: root + SitePaths.post(current.postId),
            firstIso: clock.machineTimestamp(for: version.firstSeen),
            firstDay: clock.dayLabel(for: version.firstSeen), lastIso: clock.machineTimestamp(for: version.lastSeen),
            lastDay: clock.dayLabel(for: version.lastSeen), bodyHTML: bodyHTML, titleChanged: WordDiff.hasChanges(title),
            titleDiffHTML: WordDiff.html(title, removedLabel: removed, addedLabel: added), bodyChanged: WordDiff.hasChanges(body),
            bodyDiffHTML: WordDiff.html(body, removedLabel: removed, addedLabel: added), noindex: true)
    }

    /// The tombstone at the address of a post a redaction removed: nothing of the post but its id and the day of removal
    /// (``TombstoneData``; `noindex`: the layout asks search engines not to index the page).
    package func tombstonePage(_ removed: RemovedPost, board: Board, backPage: Int?) -> [String: Any] {
        tombstonePageData(removed, board: board, backPage: backPage).context
    }

    /// ``tombstonePage(_:board:backPage:)``'s value.
    package func tombstonePageData(_ removed: RemovedPost, board: Board, backPage: Int?) -> TombstoneData {
        let root = SitePaths.relativeRoot(of: SitePaths.post(removed.postId))
        return TombstoneData(
            postId: removed.postId, boardName: board.displayName, boardHref: root + SitePaths.board(board.boardId),
            backHref: root + SitePaths.board(board.boardId, archivePage: backPage), removedDate: clock.dayLabel(for: removed.redactedAt),
            removedIso: clock.machineTimestamp(for: removed.redactedAt), deletedAtSource: removed.atSource, noindex: true)
    }
}
