import BoardArchiveModel
import BoardArchiveRender
import BoardArchiveStore
import Foundation

/// What the build reads of the archive as a whole before any page: its boards, those the source deleted (when the site
/// marks them), the kept pictures and the digest of every post's state (``SiteBuilder/postsDigest(boards:gone:pictures:store:)``).
/// Read in `prepare` while the previous manifest loads on another core: at 1M posts each took about a second, one after
/// the other.
struct ArchiveOverview: Sendable {
    var boards: [Board]
    var goneBoards: [Int: Date]
    var pictures: [Int: [PublishedImage]]
    var postsDigest: BuildDigest

    /// Reads it from `store`; `marksDeleted`: whether the site marks what the source deleted.
    ///
    /// - Throws: ``BuildError`` (phase `store`).
    static func read(from store: any ArchiveSnapshot, marksDeleted: Bool) throws -> ArchiveOverview {
        do {
            let boards = try store.boards()
            let gone = marksDeleted ? try store.goneBoards() : [:]
            let pictures = try store.mediaUses()
            let posts = try SiteBuilder.postsDigest(boards: boards, gone: gone, pictures: pictures, store: store)
            return ArchiveOverview(boards: boards, goneBoards: gone, pictures: pictures, postsDigest: posts)
        } catch let error as BuildError { throw error } catch { throw BuildError(phase: .store, underlying: error) }
    }
}

extension SiteBuilder {
    /// The build's record of what the board, post and home pages and the feeds were made from, as a whole.
    static let pagesStatePath = BuildState.cache + "pages.txt"

    /// The digest of the archive's content as the store holds it: every board (id and name) and every post's id,
    /// board, content hash, redaction, deletion at the source and version count. One read of the post table, shared by the pages and the search index.
    static func postsDigest(
        boards: [Board], gone: [Int: Date] = [:], pictures: [Int: [PublishedImage]] = [:], store: any ArchiveSnapshot
    ) throws -> BuildDigest {
        var digest = ArchiveBoardsInput(
            boards: boards.map { BoardNameInput(boardId: $0.boardId, name: $0.displayName) },
            goneSeconds: boards.map { gone[$0.boardId].map { Int($0.timeIntervalSince1970) } }
        ).digest(base: BuildDigest())
        do {
            let states = store.postStates()
            var link = PostStatesInput()
            while let state = try states.next() {
                link.append(state)
                if link.postIds.count == PostStatesInput.chunk {
                    digest = link.digest(base: digest)
                    link = PostStatesInput()
                }
            }
            // The last link, short or empty, ends the chain: a chain of full links and its extension differ.
            digest = link.digest(base: digest)
            // A picture kept since (its post's text unchanged) changes the post's page.
            if !pictures.isEmpty {
                var states = PictureStatesInput()
                for id in pictures.keys.sorted() {
                    for picture in pictures[id] ?? [] {
                        states.postIds.append(id)
                        states.hashes.append(picture.hash)
                    }
                }
                digest = states.digest(base: digest)
            }
        } catch { throw BuildError(phase: .store, underlying: error) }
        return digest
    }

    /// The digest of everything the board, post and home pages and the feeds are made from: the shared inputs, the
    /// calendar day (new badges and `HH:mm` labels), the base URL (feeds) and ``postsDigest(boards:store:)``.
    static func pagesDigest(posts: BuildDigest, base: BuildDigest, baseURL: URL?, clock: ArchiveClock) -> BuildDigest {
        PagesStateInput(day: clock.localTime(of: clock.now).dayNumber, baseURL: baseURL?.absoluteString, posts: posts.description).digest(base: base)
    }

    /// When nothing the pages are made from changed since the previous build, keeps every board, post and home page
    /// and every feed as the previous build made them, without reading a listing; returns whether it did.
    ///
    /// This is the rebuild with nothing changed (and the rebuild after a crawl that found nothing new): its cost is one
    /// read of the posts' ids and hashes instead of a stream of every board's listing. Otherwise the board phase
    /// decides page by page, as usual.
    static func keepPagesIfUnchanged(posts: BuildDigest, base: BuildDigest, output: SiteOutput, baseURL: URL?, clock: ArchiveClock) throws -> Bool {
        let digest = pagesDigest(posts: posts, base: base, baseURL: baseURL, clock: clock)
        let unchanged = output.previousDigest(of: Self.pagesStatePath) == digest
        if unchanged {
            let manifest = output.previousManifest
            for (row, path) in manifest.paths.enumerated() where Self.isPage(path) {
                _ = try output.needsRendering(path, digest: manifest.digest(atRow: row))
            }
        }
        if try output.needsRendering(Self.pagesStatePath, digest: digest) {
            try output.write(digest.description + "\n", to: Self.pagesStatePath)
        }
        return unchanged
    }

    /// Whether the board phase, the home page or the feeds phase makes `path`.
    static func isPage(_ path: String) -> Bool {
        switch SiteOutput.kind(of: path) {
        case .home, .board, .post, .version, .feed: true
        default: false
        }
    }
}
