import BoardArchiveModel
import BoardArchiveRender
import BoardArchiveStore
import Foundation

/// The board phase for one board: its listing pages and the pages of its posts.
///
/// The board streams from the store as keys (``ListingKey``: id, place, content hash, parent, redaction; no text)
/// over a covering index, in batches of ``batchSize``: only a batch (plus one post on each side, for previous / next
/// links) is in memory. For each page the pass computes the digest of everything the page shows (``BuildDigest``)
/// from keys alone; pages whose digest the previous build recorded are kept without being rendered or read, and
/// only the others get their posts' rows and bodies from the store and are rendered on every core. Every page
/// depends only on the store's snapshot and the build's inputs, never on scheduling.
struct BoardPass: Sendable {
    /// Posts per batch (rendered in parallel).
    static let batchSize = 256

    let board: Board
    /// Every board being built, to tell whether a parent or reply in another board has a page.
    let boardIds: Set<Int>
    let store: any ArchiveSnapshot
    let renderer: TemplateRenderer
    let pages: PageContext
    let output: SiteOutput
    /// The digest of the build's inputs shared by every page (templates, strings, time zone, engine version).
    let base: BuildDigest
    /// Whether posts the source deleted are marked (`build.deleted-posts: marked`).
    var marksDeleted = true
    /// When the board was last seen, if the source deleted it and the site marks it.
    var boardLastSeen: Date?
    /// Counts the posts handled, for the build's ETA.
    var meter = ProgressMeter()
    /// Where posts rendered as plain text are recorded, for the build's warning.
    var plainTextPosts = PlainTextPosts()
    /// The kept pictures each post shows (only posts with any), in the post's order.
    var pictures: [Int: [PublishedImage]] = [:]

    /// The pass of `board` in the build of `context`.
    init(board: Board, boardIds: Set<Int>, context: BuildContext, plainTextPosts: PlainTextPosts) {
        self.init(
            board: board, boardIds: boardIds, store: context.store, renderer: context.renderer, pages: context.pages, output: context.output,
            base: context.base, meter: context.progress, plainTextPosts: plainTextPosts)
        marksDeleted = context.configuration.deletedPosts == .marked
        boardLastSeen = context.goneBoards[board.boardId]
        pictures = context.pictures
    }

    init(
        board: Board, boardIds: Set<Int>, store: any ArchiveSnapshot, renderer: TemplateRenderer, pages: PageContext, output: SiteOutput,
        base: BuildDigest, meter: ProgressMeter = ProgressMeter(), plainTextPosts: PlainTextPosts = PlainTextPosts()
    ) {
        self.board = board
        self.boardIds = boardIds
        self.store = store
        self.renderer = renderer
        self.pages = pages
        self.output = output
        self.base = base
        self.meter = meter
        self.plainTextPosts = plainTextPosts
    }

    /// A page, as keys: what its digest is made from.
    enum Job {
        case listing(rows: [ListingKey], archivePage: Int?)
        case post(PostJob)
        /// The page of a post a redaction removed, at the post's address.
        case tombstone(RemovedPost, backPage: Int?)
        /// The page of an earlier version of a post.
        case version(VersionJob)

        /// Whether the page is a board page (the others are at a post's address).
        var isListing: Bool {
            if case .listing = self { true } else { false }
        }
    }

    /// A post page and what it links to.
    struct PostJob {
        var post: ListingKey
        var previous: ListingKey?
        var next: ListingKey?
        var backPage: Int?
        var parent: ListingKey?
        var parentMissing = false
        var parentRemoved = false
        var replies: [ListingKey] = []
        /// The post's earlier versions, when it has any.
        var versions: VersionKeys?
    }

    /// An earlier version's page: the post's key, the version, and the hash of the version after it.
    struct VersionJob {
        var post: ListingKey
        var version: VersionKey
        var nextHash: String
    }

    /// A page to render, with the rows and body it shows.
    private enum Page {
        case listing(rows: [ListedPost], archivePage: Int?)
        case post(ListedPost, neighbours: PostNeighbours, versions: VersionKeys?)
        case tombstone(RemovedPost, backPage: Int?)
        case version(PostVersion, next: Post, current: Post)
    }

    /// The stream's state between batches.
    private struct Progress {
        var position = 0
        /// The positions already credited to the build's progress.
        var credited = 0
        var carry: ListingKey?
        var buffer: [ListingKey] = []
        /// The listing position of each buffered post (removed posts between them keep their places).
        var positions: [Int] = []
        var removed = 0
        var pageRows: [ListingKey] = []
        var pageKey: Int?? = .none
        var frontWritten = false
        var newest: Date?
        var hasPostFromToday = false
        var newestPosts = NewestPosts<ListingKey>()

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
        let (progress, newestPosts) = try stream(listing)
        var newest = NewestPosts<ListedPost>()
        for post in newestPosts { newest.offer(post) }
        return BoardSummary(
            board: board, postCount: listing.shownCount, removedCount: progress.removed, newestPostDate: progress.newest,
            hasPostFromToday: progress.hasPostFromToday, newestPosts: newest, deletedLastSeen: boardLastSeen)
    }

    /// Streams the board's keys from the snapshot, renders every batch whose pages changed, and returns the stream's
    /// final state with the board's newest posts (for the home page and feeds).
    private func stream(_ listing: ListingPages) throws -> (Progress, [ListedPost]) {
        let keys = store.listingKeys(ofBoard: board.boardId)
        var progress = Progress()
        var jobs: [Job] = []
        while let key = try storeRead({ try keys.next() }) {
            let page = page(at: progress.position, in: listing)
            progress.enter(page: page, jobs: &jobs)
            if let removed = key.removed {
                // A removed post keeps its place, so the page boundaries after it stay where they were.
                jobs.append(.tombstone(removed, backPage: page))
                progress.position += 1
                progress.removed += 1
                continue
            }
            if progress.newest.map({ key.created > $0 }) ?? true { progress.newest = key.created }
            if pages.clock.isToday(key.created) { progress.hasPostFromToday = true }
            progress.newestPosts.offer(key)
            progress.pageRows.append(key)
            progress.buffer.append(key)
            progress.positions.append(progress.position)
            progress.position += 1
            if progress.buffer.count > Self.batchSize {
                try flush(&progress, jobs: &jobs, listing: listing, final: false)
            }
        }
        if progress.pageKey != .none {
            jobs.append(.listing(rows: progress.pageRows, archivePage: progress.pageKey ?? nil))
            if progress.pageKey == .some(nil) { progress.frontWritten = true }
        }
        if !progress.frontWritten { jobs.append(.listing(rows: [], archivePage: nil)) }
        try flush(&progress, jobs: &jobs, listing: listing, final: true)
        let newest = progress.newestPosts.posts
        let posts = try storeRead { try store.listedPosts(ids: newest.map(\.postId)) }
        return (progress, try newest.map { try hydrated($0, from: posts) })
    }

    /// The page that lists the post at listing position `position`: nil for the front page, else its archive page.
    private func page(at position: Int, in listing: ListingPages) -> Int? {
        guard position >= listing.pinnedCount else { return nil }
        let olderCount = listing.itemCount - 1 - (position - listing.pinnedCount)
        return listing.archivePage(ofItemWithOlderCount: olderCount)
    }

    /// Turns the buffered posts whose neighbours are known into post jobs (all of them when `final`), looks up the keys
    /// of their parents and replies, and renders every queued job whose digest changed.
    private func flush(_ progress: inout Progress, jobs: inout [Job], listing: ListingPages, final: Bool) throws {
        let ready = final ? progress.buffer.count : progress.buffer.count - 1
        // Once the batch is rendered, every key read so far (removed posts included, as in the store's count) counts for the ETA.
        defer {
            meter.credit(board.boardId, posts: progress.position - progress.credited)
            progress.credited = progress.position
        }
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
        let queue = try storeRead { () -> [Job] in
            let parentIds = Array(Set(postJobs.compactMap(\.post.parentPostId))).sorted()
            let parents = parentIds.isEmpty ? [:] : try store.keys(ids: parentIds)
            let replies = try store.replyKeys(toPostIds: postJobs.map(\.post.postId))
            for index in postJobs.indices {
                let post = postJobs[index].post
                if let parentId = post.parentPostId {
                    let parent = parents[parentId]
                    postJobs[index].parentRemoved = parent?.removedAt != nil
                    if let parent, parent.removedAt == nil, boardIds.contains(parent.boardId) { postJobs[index].parent = parent }
                    postJobs[index].parentMissing = postJobs[index].parent == nil && !postJobs[index].parentRemoved
                }
                let all = (replies[post.postId] ?? []).filter { boardIds.contains($0.boardId) }
                postJobs[index].replies = all.filter { $0.boardId == board.boardId } + all.filter { $0.boardId != board.boardId }
            }
            // Earlier versions: only posts that have any are looked up.
            let edited = postJobs.filter { $0.post.versionCount > 0 }.map(\.post.postId)
            let versionKeys = edited.isEmpty ? [:] : try store.versionKeys(ids: edited)
            var versionJobs: [VersionJob] = []
            for index in postJobs.indices {
                guard let keys = versionKeys[postJobs[index].post.postId] else { continue }
                postJobs[index].versions = keys
                for (position, version) in keys.earlier.enumerated() {
                    let next = position + 1 < keys.earlier.count ? keys.earlier[position + 1].contentHash : postJobs[index].post.contentHash
                    versionJobs.append(VersionJob(post: postJobs[index].post, version: version, nextHash: next))
                }
            }
            // Declared a kind at a time, each under one lock of the output.
            let listings = jobs.indices.filter { jobs[$0].isListing }
            let tombstones = jobs.indices.filter { !jobs[$0].isListing }
            let boardPages = try output.needsRendering(listings.map { (path(of: jobs[$0]), digest(of: jobs[$0], listing: listing)) }, kind: .board)
            let postPages = try output.needsRendering(
                tombstones.map { (path(of: jobs[$0]), digest(of: jobs[$0], listing: listing)) }
                    + postJobs.map { (SitePaths.post($0.post.postId), digest(of: $0)) }, kind: .post)
            let versionPages =
                versionJobs.isEmpty
                ? []
                : try output.needsRendering(versionJobs.map { (path(of: .version($0)), digest(of: .version($0), listing: listing)) }, kind: .version)
            var queue: [Job] = []
            for (index, render) in zip(listings, boardPages) where render { queue.append(jobs[index]) }
            for (index, render) in zip(tombstones, postPages) where render { queue.append(jobs[index]) }
            for (job, render) in zip(postJobs, postPages.dropFirst(tombstones.count)) where render { queue.append(.post(job)) }
            for (job, render) in zip(versionJobs, versionPages) where render { queue.append(.version(job)) }
            return queue
        }
        jobs.removeAll()
        guard !queue.isEmpty else { return }
        let pagesToRender = try storeRead { try hydrate(queue) }
        try render(pagesToRender, listing: listing)
    }

    /// Runs a read of the store, its errors as the board's ``BuildError``.
    private func storeRead<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as BuildError { throw error } catch {
            throw BuildError(phase: .store, underlying: error, location: "board \(board.boardId)")
        }
    }

    /// Reads the rows (with their bodies, for post pages) that the jobs' pages show.
    private func hydrate(_ jobs: [Job]) throws -> [Page] {
        var ids = Set<Int>()
        var bodyIds = Set<Int>()
        var versioned = Set<Int>()
        for job in jobs {
            switch job {
            case .listing(let rows, _): ids.formUnion(rows.map(\.postId))
            case .post(let job):
                bodyIds.insert(job.post.postId)
                ids.insert(job.post.postId)
                for key in [job.previous, job.next, job.parent] + job.replies.map(Optional.some) { if let key { ids.insert(key.postId) } }
            case .tombstone: break
            case .version(let job):
                // The last version is compared with the current text.
                bodyIds.insert(job.post.postId)
                versioned.insert(job.post.postId)
            }
        }
        // A post page's row and body come in one read (its hash is stored after its text, so each read walks the whole row).
        var posts = bodyIds.isEmpty ? [:] : try store.postsWithBodies(ids: bodyIds.sorted())
        let others = ids.subtracting(bodyIds)
        if !others.isEmpty { posts.merge(try store.listedPosts(ids: others.sorted())) { withBody, _ in withBody } }
        let versions = versioned.isEmpty ? [:] : try store.versions(ids: versioned.sorted())
        return try jobs.map { job -> Page in
            switch job {
            case .listing(let rows, let archivePage):
                return .listing(rows: try rows.map { try hydrated($0, from: posts) }, archivePage: archivePage)
            case .post(let job):
                let post = try hydrated(job.post, from: posts)
                var neighbours = PostNeighbours(
                    board: board, backPage: job.backPage, previous: try job.previous.map { try hydrated($0, from: posts).post },
                    next: try job.next.map { try hydrated($0, from: posts).post }, parent: try job.parent.map { try hydrated($0, from: posts).post },
                    parentMissing: job.parentMissing, parentRemoved: job.parentRemoved,
                    replies: try job.replies.map { try hydrated($0, from: posts).post })
                if marksDeleted {
                    for reply in job.replies { neighbours.deletedLastSeen[reply.postId] = posts[reply.postId]?.goneLastSeen }
                }
                return .post(post, neighbours: neighbours, versions: job.versions)
            case .tombstone(let removed, let backPage):
                return .tombstone(removed, backPage: backPage)
            case .version(let job):
                let current = try hydrated(job.post, from: posts).post
                let earlier = versions[job.post.postId]?.earlier ?? []
                guard let index = earlier.firstIndex(where: { $0.version == job.version.version }) else {
                    throw BuildError(
                        phase: .store, reason: .underlying("version \(job.version.version) of post \(job.post.postId) cannot be read"),
                        location: "board \(board.boardId)")
                }
                return .version(earlier[index], next: index + 1 < earlier.count ? earlier[index + 1].post : current, current: current)
            }
        }
    }

    /// The row of `key` among `posts`, read in the same snapshot as the key.
    private func hydrated(_ key: ListingKey, from posts: [Int: ListedPost]) throws -> ListedPost {
        guard let listed = posts[key.postId] else {
            throw BuildError(
                phase: .store, reason: .underlying("post \(key.postId) is in the listing but its row cannot be read"),
                location: "board \(board.boardId)")
        }
        return listed
    }

    private func path(of job: Job) -> String {
        switch job {
        case .listing(_, let archivePage): SitePaths.board(board.boardId, archivePage: archivePage)
        case .post(let post): SitePaths.post(post.post.postId)
        case .tombstone(let removed, _): SitePaths.post(removed.postId)
        case .version(let job): SitePaths.version(job.version.version, ofPost: job.post.postId)
        }
    }

    /// Renders `pages` on every core; the first error (in page order) is thrown.
    private func render(_ pages: [Page], listing: ListingPages) throws {
        guard !pages.isEmpty else { return }
        _ = try concurrentMap(pages.count) { index in try perform(pages[index], listing: listing) }
    }

    private func perform(_ page: Page, listing: ListingPages) throws {
        switch page {
        case .listing(let rows, let archivePage):
            let deleted =
                marksDeleted ? Dictionary(uniqueKeysWithValues: rows.compactMap { row in row.goneLastSeen.map { (row.post.postId, $0) } }) : [:]
            let context = pages.boardPage(
                board: board, rows: rows.map(\.post), deletedLastSeen: deleted, boardDeletedLastSeen: boardLastSeen, listing: listing,
                archivePage: archivePage)
            try write(
                template: "board", context: context, title: pages.listingTitle(board.displayName, archivePage: archivePage),
                to: SitePaths.board(board.boardId, archivePage: archivePage))
        case .post(let listed, let neighbours, let versions):
            let post = listed.post
            // Most posts show no picture: no table of them is made.
            let shown = pictures[post.postId].map { MarkdownRenderer.Pictures($0, root: SitePaths.relativeRoot(of: SitePaths.post(post.postId))) }
            let body = MarkdownRenderer().renderBody(post.contents, pictures: shown ?? .none)
            if let reason = body.plainTextBecause { plainTextPosts.record(boardId: post.boardId, postId: post.postId, reason: reason) }
            let history = SourceHistory(deletedLastSeen: marksDeleted ? listed.goneLastSeen : nil, versions: versions)
            let data = pages.postPageData(post, bodyHTML: body.html, neighbours: neighbours, history: history)
            try write(template: "post", data: data, title: pages.displayTitle(post), to: SitePaths.post(post.postId))
        case .version(let version, let next, let current):
            let path = SitePaths.version(version.version, ofPost: current.postId)
            let body = MarkdownRenderer().renderBody(version.post.contents)
            if let reason = body.plainTextBecause { plainTextPosts.record(boardId: current.boardId, postId: current.postId, reason: reason) }
            let data = pages.versionPageData(version, bodyHTML: body.html, next: next, current: current, board: board)
            try write(template: "version", data: data, title: pages.versionTitle(version), to: path)
        case .tombstone(let removed, let backPage):
            let data = pages.tombstonePageData(removed, board: board, backPage: backPage)
            try write(template: "tombstone", data: data, title: pages.strings["removedTitle"], to: SitePaths.post(removed.postId))
        }
    }

    private func write(template: String, context: [String: Any], title: String, to path: String) throws {
        try write(to: path) {
            try renderer.renderPage(template: template, context: context, relativeRoot: SitePaths.relativeRoot(of: $0), title: title)
        }
    }

    private func write<Page: TemplateData>(template: String, data: Page, title: String, to path: String) throws {
        try write(to: path) { try renderer.renderPage(template: template, data: data, relativeRoot: SitePaths.relativeRoot(of: $0), title: title) }
    }

    /// Writes the page `render` makes for `path`; an error names the path.
    private func write(to path: String, _ render: (String) throws -> String) throws {
        do {
            try output.write(try render(path), to: path)
        } catch {
            throw BuildError(phase: .render, underlying: error, location: path)
        }
    }
}
