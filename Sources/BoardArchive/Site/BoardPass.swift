import Foundation

/// The board phase for one board: its listing pages and the pages of its posts.
///
/// Posts stream from the store in board order without their bodies, in batches of ``batchSize``: only a batch
/// (plus one post on each side, for previous / next links) is in memory. For each page the pass computes the
/// digest of everything the page shows (``BuildDigest``); pages whose digest the previous build recorded are
/// kept without being rendered, the others get their bodies from the store and are rendered on every core.
/// Every page depends only on the store's snapshot and the build's inputs, never on scheduling.
struct BoardPass: Sendable {
    /// Posts per batch (rendered in parallel).
    static let batchSize = 256

    let board: Board
    /// Every board being built, to tell whether a parent or reply in another board has a page.
    let boardIds: Set<Int>
    let store: ArchiveStore
    let renderer: TemplateRenderer
    let pages: PageContext
    let output: SiteOutput
    /// The digest of the build's inputs shared by every page (templates, strings, time zone, engine version).
    let base: BuildDigest

    /// A page to render.
    enum Job {
        case listing(rows: [ListedPost], archivePage: Int?)
        case post(PostJob)
        /// The page of a post a redaction removed, at the post's address.
        case tombstone(RemovedPost, backPage: Int?)
    }

    /// A post page and what it links to.
    struct PostJob {
        var post: ListedPost
        var previous: ListedPost?
        var next: ListedPost?
        var backPage: Int?
        var parent: ListedPost?
        var parentMissing = false
        var parentRemoved = false
        var replies: [ListedPost] = []
        var body = ""
    }

    /// The stream's state between batches.
    private struct Progress {
        var position = 0
        var carry: ListedPost?
        var buffer: [ListedPost] = []
        /// The listing position of each buffered post (removed posts between them keep their places).
        var positions: [Int] = []
        var removed = 0
        var pageRows: [ListedPost] = []
        var pageKey: Int?? = .none
        var frontWritten = false
        var newest: Date?
        var hasPostFromToday = false
        var newestPosts = NewestPosts()

        /// Moves on to the listing page `key` (nil: the front page), queuing the page just finished.
        mutating func enter(page key: Int?, jobs: inout [Job]) {
            if pageKey != .some(key), pageKey != .none {
                jobs.append(.listing(rows: pageRows, archivePage: pageKey ?? nil))
                if pageKey == .some(nil) { frontWritten = true }
                pageRows.removeAll(keepingCapacity: true)
            }
            pageKey = .some(key)
        }
    }

    /// Renders and writes every changed page of the board; returns what the home page shows about it.
    func run() throws -> BoardSummary {
        let counts: ListingCounts
        do { counts = try store.listingCounts(ofBoard: board.boardId) } catch {
            throw BuildError(phase: .store, underlying: error, location: "board \(board.boardId)")
        }
        var listing = ListingPages(pinnedCount: counts.notices, itemCount: counts.others)
        listing.removedCount = counts.removed
        let progress = try store.readListing(ofBoard: board.boardId) { [listing] cursor -> Progress in
            var progress = Progress()
            var jobs: [Job] = []
            while let slot = try cursor.nextSlot() {
                let key = page(at: progress.position, in: listing)
                progress.enter(page: key, jobs: &jobs)
                guard case .post(let listed) = slot else {
                    // A removed post keeps its place, so the page boundaries after it stay where they were.
                    if case .removed(let removed) = slot { jobs.append(.tombstone(removed, backPage: key)) }
                    progress.position += 1
                    progress.removed += 1
                    continue
                }
                let date = listed.post.createdDateTime
                if progress.newest.map({ date > $0 }) ?? true { progress.newest = date }
                if pages.clock.isToday(date) { progress.hasPostFromToday = true }
                progress.newestPosts.offer(listed)
                progress.pageRows.append(listed)
                progress.buffer.append(listed)
                progress.positions.append(progress.position)
                progress.position += 1
                if progress.buffer.count > Self.batchSize {
                    try flush(&progress, jobs: &jobs, listing: listing, lookup: cursor.lookup, final: false)
                }
            }
            if progress.pageKey != .none {
                jobs.append(.listing(rows: progress.pageRows, archivePage: progress.pageKey ?? nil))
                if progress.pageKey == .some(nil) { progress.frontWritten = true }
            }
            if !progress.frontWritten { jobs.append(.listing(rows: [], archivePage: nil)) }
            try flush(&progress, jobs: &jobs, listing: listing, lookup: cursor.lookup, final: true)
            return progress
        }
        return BoardSummary(
            board: board, postCount: listing.shownCount, removedCount: progress.removed, newestPostDate: progress.newest,
            hasPostFromToday: progress.hasPostFromToday, newestPosts: progress.newestPosts)
    }

    /// The page that lists the post at listing position `position`: nil for the front page, else its archive page.
    private func page(at position: Int, in listing: ListingPages) -> Int? {
        guard position >= listing.pinnedCount else { return nil }
        let olderCount = listing.itemCount - 1 - (position - listing.pinnedCount)
        return listing.archivePage(ofItemWithOlderCount: olderCount)
    }

    /// Turns the buffered posts whose neighbours are known into post jobs (all of them when `final`), looks up their
    /// parents, replies and, for the pages that must be rendered, bodies; then renders every queued job.
    private func flush(_ progress: inout Progress, jobs: inout [Job], listing: ListingPages, lookup: ListingLookup, final: Bool) throws {
        let ready = final ? progress.buffer.count : progress.buffer.count - 1
        var postJobs: [PostJob] = []
        for index in 0..<ready {
            let post = progress.buffer[index]
            postJobs.append(
                PostJob(
                    post: post, previous: index == 0 ? progress.carry : progress.buffer[index - 1],
                    next: index + 1 < progress.buffer.count ? progress.buffer[index + 1] : nil,
                    backPage: page(at: progress.positions[index], in: listing)))
        }
        if ready > 0 { progress.carry = progress.buffer[ready - 1] }
        progress.buffer.removeFirst(ready)
        progress.positions.removeFirst(ready)
        do {
            let parentIds = Array(Set(postJobs.compactMap(\.post.post.parentPostId))).sorted()
            let parents = try lookup.posts(ids: parentIds).filter { boardIds.contains($0.value.post.boardId) }
            let removedParents = try lookup.removedPostIds(among: parentIds)
            let replies = try lookup.replies(toPostIds: postJobs.map(\.post.post.postId))
            for index in postJobs.indices {
                let post = postJobs[index].post.post
                if let parentId = post.parentPostId {
                    postJobs[index].parent = parents[parentId]
                    postJobs[index].parentRemoved = removedParents.contains(parentId)
                    postJobs[index].parentMissing = parents[parentId] == nil && !postJobs[index].parentRemoved
                }
                let all = (replies[post.postId] ?? []).filter { boardIds.contains($0.post.boardId) }
                postJobs[index].replies = all.filter { $0.post.boardId == board.boardId } + all.filter { $0.post.boardId != board.boardId }
            }
            var needed: [Int] = []
            var queue: [Job] = []
            for job in jobs where try output.needsRendering(path(of: job), digest: digest(of: job, listing: listing)) { queue.append(job) }
            for job in postJobs where try output.needsRendering(SitePaths.post(job.post.post.postId), digest: digest(of: job)) {
                needed.append(job.post.post.postId)
                queue.append(.post(job))
            }
            if !needed.isEmpty {
                let bodies = try lookup.bodies(ofPostIds: needed)
                for index in queue.indices {
                    if case .post(var job) = queue[index] {
                        job.body = bodies[job.post.post.postId] ?? ""
                        queue[index] = .post(job)
                    }
                }
            }
            jobs.removeAll()
            try render(queue, listing: listing)
        } catch let error as BuildError {
            throw error
        } catch {
            throw BuildError(phase: .store, underlying: error, location: "board \(board.boardId)")
        }
    }

    private func path(of job: Job) -> String {
        switch job {
        case .listing(_, let archivePage): SitePaths.board(board.boardId, archivePage: archivePage)
        case .post(let post): SitePaths.post(post.post.post.postId)
        case .tombstone(let removed, _): SitePaths.post(removed.postId)
        }
    }

    /// Renders `jobs` on every core; the first error (in job order) is thrown.
    private func render(_ jobs: [Job], listing: ListingPages) throws {
        guard !jobs.isEmpty else { return }
        _ = try concurrentMap(jobs.count) { index in try perform(jobs[index], listing: listing) }
    }

    private func perform(_ job: Job, listing: ListingPages) throws {
        switch job {
        case .listing(let rows, let archivePage):
            let context = pages.boardPage(board: board, rows: rows.map(\.post), listing: listing, archivePage: archivePage)
            try write(
                template: "board", context: context, title: pages.listingTitle(board.displayName, archivePage: archivePage),
                to: SitePaths.board(board.boardId, archivePage: archivePage))
        case .post(let job):
            var post = job.post.post
            post.contents = job.body
            let neighbours = PostNeighbours(
                board: board, backPage: job.backPage, previous: job.previous?.post, next: job.next?.post, parent: job.parent?.post,
                parentMissing: job.parentMissing, parentRemoved: job.parentRemoved, replies: job.replies.map(\.post))
            let context = pages.postPage(post, bodyHTML: MarkdownRenderer().render(job.body), neighbours: neighbours)
            try write(template: "post", context: context, title: pages.displayTitle(post), to: SitePaths.post(post.postId))
        case .tombstone(let removed, let backPage):
            let context = pages.tombstonePage(removed, board: board, backPage: backPage)
            try write(template: "tombstone", context: context, title: pages.strings["removedTitle"], to: SitePaths.post(removed.postId))
        }
    }

    private func write(template: String, context: [String: Any], title: String, to path: String) throws {
        do {
            let html = try renderer.renderPage(template: template, context: context, relativeRoot: SitePaths.relativeRoot(of: path), title: title)
            try output.write(html, to: path)
        } catch {
            throw BuildError(phase: .render, underlying: error, location: path)
        }
    }
}
