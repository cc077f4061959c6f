import BoardArchiveModel
import BoardArchiveRender
import BoardArchiveStore
import Foundation

extension BoardPass {
    /// The digest of a page to render, from its input (``PageInput``).
    func digest(of job: Job, listing: ListingPages) -> BuildDigest {
        switch job {
        case .listing(let rows, let archivePage): input(ofListing: rows, archivePage: archivePage, listing: listing).digest(base: base)
        case .post(let post): digest(of: post)
        case .tombstone(let removed, let backPage): input(ofTombstone: removed, backPage: backPage).digest(base: base)
        case .version(let version): input(of: version).digest(base: base)
        }
    }

    /// The digest of a post page.
    func digest(of job: PostJob) -> BuildDigest { input(of: job).digest(base: base) }

    /// What a listing page shows: the board, which page, its pager and its rows.
    func input(ofListing rows: [ListingKey], archivePage: Int?, listing: ListingPages) -> ListingPageInput {
        ListingPageInput(
            boardId: board.boardId, boardName: board.displayName, pager: listing.pager(of: archivePage),
            rows: rows.map { RowInput($0, clock: pages.clock, marksDeleted: marksDeleted) },
            boardGoneSeconds: boardLastSeen.map { Int($0.timeIntervalSince1970) })
    }

    /// What a tombstone shows.
    func input(ofTombstone removed: RemovedPost, backPage: Int?) -> TombstoneInput {
        TombstoneInput(
            postId: removed.postId, boardId: board.boardId, boardName: board.displayName, backPage: backPage,
            removedDay: pages.clock.dayLabel(for: removed.redactedAt), removedSeconds: Int(removed.redactedAt.timeIntervalSince1970.rounded(.down)),
            atSource: removed.atSource)
    }

    /// What a post page shows.
    func input(of job: PostJob) -> PostPageInput {
        PostPageInput(
            post: RowInput(job.post, clock: pages.clock, marksDeleted: marksDeleted), boardId: board.boardId, boardName: board.displayName,
            backPage: job.backPage,
            previous: LinkInput(job.previous), next: LinkInput(job.next), parent: LinkInput(job.parent), parentMissing: job.parentMissing,
            parentRemoved: job.parentRemoved, replies: job.replies.map { RowInput($0, clock: pages.clock, marksDeleted: marksDeleted) },
            versions: job.versions?.earlier.map(VersionInput.init) ?? [],
            editedSeconds: job.versions?.currentSince.map { Int($0.timeIntervalSince1970) }, pictures: pictures[job.post.postId])
    }

    /// What an earlier version's page shows.
    func input(of job: VersionJob) -> VersionPageInput {
        VersionPageInput(
            postId: job.post.postId, version: VersionInput(job.version), nextHash: job.nextHash, boardId: board.boardId,
            boardName: board.displayName, writerWithheld: job.post.writerWithheld)
    }
}
