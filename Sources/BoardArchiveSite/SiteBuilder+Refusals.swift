import BoardArchiveModel
import BoardArchiveRender
import BoardArchiveStore
import Foundation

extension SiteBuilder {
    /// Refuses to publish a site that keeps fewer than half of the previous site's post pages.
    ///
    /// A nightly build from the wrong store, an emptied one or a half-restored backup would otherwise replace a good
    /// archive with a nearly empty one. The previous site's post pages are counted in its manifest (`manifest`), or in
    /// its `posts/` folder when it has none (listing a folder of 100,000 pages took 36 ms of every rebuild); the new
    /// site's are the posts of the boards it lists. ``BuildConfiguration/allowShrink`` publishes anyway.
    ///
    /// - Throws: ``BuildError/Reason/wouldRemoveMostPosts(previous:next:)`` (phase `prepare`).
    static func refuseShrinking(previous: URL?, manifest: SiteManifest, boards: [Board], store: any ArchiveSnapshot, allowShrink: Bool) throws {
        guard !allowShrink, let previous else { return }
        let before = manifest.isEmpty ? Self.postPageCount(in: previous) : manifest.postPageCount
        guard before > 0 else { return }
        let counts: [Int: Int]
        do { counts = try store.postCountsByBoard() } catch { throw BuildError(phase: .store, underlying: error) }
        let after = boards.reduce(0) { $0 + (counts[$1.boardId] ?? 0) }
        if after * 2 < before {
            throw BuildError(phase: .prepare, reason: .wouldRemoveMostPosts(previous: before, next: after), location: previous.path)
        }
    }

    /// The number of post pages (`posts/*.html`, earlier versions' pages aside) in a published site.
    static func postPageCount(in site: URL) -> Int {
        let folder = site.appendingPathComponent("posts", isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.count { $0.hasSuffix(".html") && !SitePaths.isVersion("posts/" + $0) }
    }

    /// Refuses a store holding a board or post id beyond ``ArchiveID/maximum``: the search page would link such a
    /// post to another post's page. A crawl refuses such ids; a store written before that rule may still hold them.
    ///
    /// - Throws: ``BuildError/Reason/idBeyondRule(kind:id:)`` (phase `store`).
    static func refuseIdsBeyondRule(store: any ArchiveSnapshot) throws {
        let found: (kind: String, id: Int)?
        do { found = try store.firstIdBeyondRule() } catch { throw BuildError(phase: .store, underlying: error) }
        if let found { throw BuildError(phase: .store, reason: .idBeyondRule(kind: found.kind, id: found.id), location: store.location) }
    }
}
