import Foundation

extension BoardPass {
    /// Adds what a post row shows: the post (its content hash covers every field the API sent) and whether it is
    /// from today (the new badge and `HH:mm` instead of `yy-MM-dd`).
    static func addRow(_ key: ListingKey, clock: ArchiveClock, to digest: inout BuildDigest) {
        digest.add(key.postId)
        digest.add(key.contentHash)
        digest.add(clock.isToday(key.created))
    }

    /// Adds a link to another post: its id and content hash (which covers the title the link shows).
    private func addLink(_ key: ListingKey?, to digest: inout BuildDigest) {
        digest.add(key?.postId)
        digest.add(key?.contentHash ?? "")
    }

    /// The digest of a listing page: the board, which page, its pager and its rows.
    func digest(ofListing rows: [ListingKey], archivePage: Int?, listing: ListingPages) -> BuildDigest {
        var digest = base
        digest.add("board")
        digest.add(board.boardId)
        digest.add(board.displayName)
        listing.addPager(of: archivePage, to: &digest)
        digest.add(rows.count)
        for row in rows { Self.addRow(row, clock: pages.clock, to: &digest) }
        return digest
    }
}

extension BoardPass {
    /// The digest of a page to render.
    func digest(of job: Job, listing: ListingPages) -> BuildDigest {
        switch job {
        case .listing(let rows, let archivePage): digest(ofListing: rows, archivePage: archivePage, listing: listing)
        case .post(let post): digest(of: post)
        case .tombstone(let removed, let backPage): digest(ofTombstone: removed, backPage: backPage)
        }
    }

    /// The digest of a tombstone: the post's id, its board, the page that listed it and the day it was removed.
    func digest(ofTombstone removed: RemovedPost, backPage: Int?) -> BuildDigest {
        var digest = base
        digest.add("tombstone")
        digest.add(removed.postId)
        digest.add(board.boardId)
        digest.add(board.displayName)
        digest.add(backPage)
        digest.add(pages.clock.dayLabel(for: removed.redactedAt))
        return digest
    }

    /// The digest of a post page: the post, its board, the page that lists it, its neighbours, parent and replies.
    func digest(of job: PostJob) -> BuildDigest {
        var digest = base
        digest.add("post")
        Self.addRow(job.post, clock: pages.clock, to: &digest)
        digest.add(board.boardId)
        digest.add(board.displayName)
        digest.add(job.backPage)
        addLink(job.previous, to: &digest)
        addLink(job.next, to: &digest)
        addLink(job.parent, to: &digest)
        digest.add(job.parentMissing)
        digest.add(job.parentRemoved)
        digest.add(job.replies.count)
        for reply in job.replies { Self.addRow(reply, clock: pages.clock, to: &digest) }
        return digest
    }
}
