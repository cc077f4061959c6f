import BoardArchiveModel
import BoardArchiveRender
import BoardArchiveStore
import Foundation

/// The feeds phase: an Atom feed of the newest posts of every board (`boards/<id>/feed.xml`) and of the whole
/// archive (`feed.xml`).
///
/// The board phase hands over each board's newest posts (``BoardSummary/newestPosts``), gathered while it streamed
/// the board, so this phase reads no listing again. A feed's digest covers its posts' ids and content hashes, the
/// board names, the base URL and the build's shared inputs; only feeds whose digest changed read their posts'
/// bodies and are written.
struct FeedPhase: Sendable {
    let store: any ArchiveSnapshot
    let pages: PageContext
    let output: SiteOutput
    /// The digest of the build's shared inputs (templates, strings, time zone, engine version).
    let base: BuildDigest
    /// Where the site is published (ending in `/`), or nil: links are then relative to the feed.
    let baseURL: URL?
    /// The kept pictures each post shows (only posts with any).
    let pictures: [Int: [PublishedImage]]
    /// Bodies rendered for one feed, kept for the next: a post is in its board's feed and in the archive's.
    var renderedBodies = RenderedBodies()

    /// The largest body a feed entry carries as Markdown (256 KiB); a longer one is its plain text (``PlainTextBody``):
    /// the post page has it in full, and a feed reader needs no megabytes of HTML (rendering them for every feed took
    /// longer than the post page itself).
    static let markdownBodyLimit = 256 << 10

    /// The renderer of feed entries: the post pages' budget, with ``markdownBodyLimit``.
    static let renderer: MarkdownRenderer = {
        var renderer = MarkdownRenderer()
        renderer.budget.limits.bytes = markdownBodyLimit
        return renderer
    }()

    /// Writes every feed whose inputs changed.
    func run(_ summaries: [BoardSummary]) throws {
        var archive = NewestPosts<ListedPost>()
        var boardNames: [Int: String] = [:]
        for summary in summaries {
            boardNames[summary.board.boardId] = summary.board.displayName
            let posts = summary.newestPosts.posts
            for post in posts { archive.offer(post) }
            let path = SitePaths.boardFeed(summary.board.boardId)
            guard
                try output.needsRendering(
                    path,
                    digest: digest(
                        "board-feed", posts: posts, boardNames: [summary.board.boardId: summary.board.displayName]))
            else {
                continue
            }
            let feed = try makeFeed(
                path: path, title: summary.board.displayName + " · " + pages.strings["siteTitle"],
                alternate: SitePaths.board(summary.board.boardId), posts: posts, boardNames: nil)
            try output.write(feed.xml(), to: path)
        }
        let posts = archive.posts
        guard
            try output.needsRendering(SitePaths.archiveFeed, digest: digest("archive-feed", posts: posts, boardNames: boardNames))
        else { return }
        let feed = try makeFeed(
            path: SitePaths.archiveFeed, title: pages.strings["siteTitle"], alternate: SitePaths.home, posts: posts, boardNames: boardNames)
        try output.write(feed.xml(), to: SitePaths.archiveFeed)
    }

    /// The address of the site file `path` as the feed at `feedPath` links to it.
    func link(to path: String, from feedPath: String) -> String {
        if let baseURL { return baseURL.absoluteString + path }
        return SitePaths.relativeRoot(of: feedPath) + path
    }

    /// A permanent id: the page's address under the base URL, else a `tag:` URI built from the path.
    func id(of path: String) -> String {
        if let baseURL { return baseURL.absoluteString + path }
        return "tag:boardarchive,2026:" + path
    }

    private func digest(_ kind: String, posts: [ListedPost], boardNames: [Int: String]) -> BuildDigest {
        FeedInput(
            scope: kind, baseURL: baseURL?.absoluteString,
            boards: boardNames.sorted(by: { $0.key < $1.key }).map { BoardNameInput(boardId: $0.key, name: $0.value) },
            posts: posts.map {
                FeedEntryInput(
                    postId: $0.post.postId, contentHash: $0.contentHash, editedSeconds: $0.editedAt.map { Int($0.timeIntervalSince1970) },
                    pictures: pictures[$0.post.postId])
            }
        ).digest(base: base)
    }

    private func makeFeed(path: String, title: String, alternate: String, posts: [ListedPost], boardNames: [Int: String]?) throws -> AtomFeed {
        let bodies: [Int: Post]
        do { bodies = try store.posts(ids: posts.map(\.post.postId)) } catch {
            throw BuildError(phase: .store, underlying: error, location: path)
        }
        // Pictures at their published addresses: under the base URL, else relative to this feed.
        let pictureRoot = baseURL?.absoluteString ?? SitePaths.relativeRoot(of: path)
        func body(_ postId: Int) -> String {
            let shown = pictures[postId] ?? []
            let render = { Self.renderer.render(bodies[postId]?.contents ?? "", pictures: MarkdownRenderer.Pictures(shown, root: pictureRoot)) }
            // A body with pictures differs between feeds in different folders unless the base URL makes them absolute.
            return shown.isEmpty || baseURL != nil ? renderedBodies.html(of: postId, render) : render()
        }
        let entries = posts.map { listed -> AtomFeed.Entry in
            let post = listed.post
            let page = SitePaths.post(post.postId)
            return AtomFeed.Entry(
                id: id(of: page), title: pages.displayTitle(post), link: link(to: page, from: path), published: post.createdDateTime,
                updated: listed.editedAt ?? post.createdDateTime,
                author: pages.writerLabel(post), category: boardNames.map { $0[post.boardId] ?? "" },
                contentHTML: body(post.postId))
        }
        return AtomFeed(
            id: id(of: path), title: title, selfLink: link(to: path, from: path), alternateLink: link(to: alternate, from: path),
            updated: entries.map(\.updated).max() ?? Date(timeIntervalSince1970: 0), language: pages.strings.language.rawValue,
            author: pages.strings["siteTitle"], generatorVersion: BoardArchiveVersion.string, entries: entries)
    }
}
