import Foundation

/// Builds the pages of one board: its board pages and the pages of its posts, in parallel.
///
/// Only this board's posts are in memory. Work is cut into jobs (one per board page, one per chunk of
/// posts) run in a task group with a bounded number in flight. Every page depends only on the board's
/// ordered posts, so the output does not depend on scheduling.
struct BoardPass: Sendable {
    /// Posts rendered per task.
    static let postsPerJob = 64

    let board: Board
    /// Every board being built, to tell whether a parent in another board has a page.
    let boardIds: Set<Int>
    let store: ArchiveStore
    let renderer: TemplateRenderer
    let pages: PageContext
    let output: SiteOutput

    private enum Job: Sendable {
        case boardPage(Int)
        case posts(Range<Int>)
    }

    /// The board's posts and the lookups its post pages need.
    private struct Listing: Sendable {
        var posts: [Post]
        var pagination: Pagination
        var indexById: [Int: Int]
        var repliesByParent: [Int: [Int]]
        var outsideParents: [Int: Post]
        /// Replies in other boards (that are built) to posts of this board, by parent id.
        var outsideReplies: [Int: [Post]]
    }

    /// Renders and writes every page of the board; returns what the home page shows about it.
    func run() async throws -> BoardSummary {
        let listing = try loadListing()
        var jobs: [Job] = (1...listing.pagination.pageCount).map { .boardPage($0) }
        for start in stride(from: 0, to: listing.posts.count, by: Self.postsPerJob) {
            jobs.append(.posts(start..<min(listing.posts.count, start + Self.postsPerJob)))
        }
        let limit = max(2, ProcessInfo.processInfo.activeProcessorCount * 2)
        try await withThrowingTaskGroup(of: Void.self) { group in
            var inFlight = 0
            for job in jobs {
                if inFlight >= limit {
                    try await group.next()
                    inFlight -= 1
                }
                group.addTask { try perform(job, listing: listing) }
                inFlight += 1
            }
            try await group.waitForAll()
        }
        let clock = pages.clock
        return BoardSummary(
            board: board, postCount: listing.posts.count, newestPostDate: listing.posts.map(\.createdDateTime).max(),
            hasPostFromToday: listing.posts.contains { clock.isToday($0.createdDateTime) })
    }

    private func loadListing() throws -> Listing {
        do {
            let posts = try store.posts(inBoard: board.boardId)
            var indexById: [Int: Int] = [:]
            var repliesByParent: [Int: [Int]] = [:]
            for (index, post) in posts.enumerated() {
                indexById[post.postId] = indexById[post.postId] ?? index
                if let parent = post.parentPostId { repliesByParent[parent, default: []].append(index) }
            }
            var outsideParents: [Int: Post] = [:]
            let missing = Set(posts.compactMap(\.parentPostId).filter { indexById[$0] == nil })
            for parentId in missing.sorted() {
                if let parent = try store.post(id: parentId), boardIds.contains(parent.boardId) { outsideParents[parentId] = parent }
            }
            var outsideReplies: [Int: [Post]] = [:]
            for reply in try store.replies(fromOtherBoardsTo: board.boardId) where boardIds.contains(reply.boardId) {
                if let parent = reply.parentPostId { outsideReplies[parent, default: []].append(reply) }
            }
            return Listing(
                posts: posts, pagination: Pagination(itemCount: posts.count), indexById: indexById, repliesByParent: repliesByParent,
                outsideParents: outsideParents, outsideReplies: outsideReplies)
        } catch {
            throw BuildError(phase: .store, underlying: error, location: "board \(board.boardId)")
        }
    }

    private func perform(_ job: Job, listing: Listing) throws {
        switch job {
        case .boardPage(let page):
            let path = SitePaths.board(board.boardId, page: page)
            let slice = listing.posts[listing.pagination.range(ofPage: page)]
            let context = pages.boardPage(board: board, posts: slice, pagination: listing.pagination, page: page)
            let title = page == 1 ? board.displayName : "\(board.displayName) (\(pages.strings.pageOf(page, listing.pagination.pageCount)))"
            try write(template: "board", context: context, title: title, to: path)
        case .posts(let range):
            let markdown = MarkdownRenderer()
            for index in range {
                let post = listing.posts[index]
                let context = pages.postPage(post, bodyHTML: markdown.render(post.contents), neighbours: neighbours(ofPostAt: index, in: listing))
                try write(template: "post", context: context, title: pages.displayTitle(post), to: SitePaths.post(post.postId))
            }
        }
    }

    private func neighbours(ofPostAt index: Int, in listing: Listing) -> PostNeighbours {
        let post = listing.posts[index]
        let parent = post.parentPostId.flatMap { id in listing.indexById[id].map { listing.posts[$0] } ?? listing.outsideParents[id] }
        return PostNeighbours(
            board: board, boardPage: listing.pagination.page(ofItemAt: index),
            previous: index > 0 ? listing.posts[index - 1] : nil,
            next: index + 1 < listing.posts.count ? listing.posts[index + 1] : nil,
            parent: parent, parentMissing: post.parentPostId != nil && parent == nil,
            replies: (listing.repliesByParent[post.postId] ?? []).map { listing.posts[$0] } + (listing.outsideReplies[post.postId] ?? []))
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
