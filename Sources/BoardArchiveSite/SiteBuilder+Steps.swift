import BoardArchiveModel
import BoardArchiveRender
import Foundation

extension SiteBuilder {
    /// The build after `prepare`, step by step over one ``BuildContext``; each step's failures are reported in its
    /// phase, and its seconds are logged under its name (`--log-level debug`).
    static let steps: [BuildStep] = [
        BuildStep(name: "assets", phase: .publish) { context in
            try copyAssets(
                from: context.configuration.resolvedTemplatesDirectory.appendingPathComponent("assets", isDirectory: true), to: context.output)
        },
        BuildStep(name: "store checks", phase: .store) { context in
            let store = context.store
            try refuseShrinking(
                previous: context.previous, manifest: context.output.previousManifest, boards: context.boards, store: store,
                allowShrink: context.configuration.allowShrink)
            try refuseIdsBeyondRule(store: store)
            context.pagesUnchanged = try keepPagesIfUnchanged(
                posts: context.postsDigest, base: context.base, output: context.output, baseURL: context.configuration.baseURL, clock: context.clock)
            context.progress.update { $0.boards = context.boards.count }
            try sizeBoards(context.boards, store: store, progress: context.progress)
        },
        // Side by side: none reads what another makes, and a night's rebuild runs each mostly on one core. The pictures
        // (files written, nothing rendered) take the core of whichever of the first two ends first.
        .sideBySide(
            BuildStep(name: "board and post pages", phase: .render, body: boardAndPostPages),
            BuildStep(name: "search", phase: .search) { context in
                context.search = try SearchPhase(context).run(context)
            },
            BuildStep(name: "pictures", phase: .publish, body: publishPictures)),
        BuildStep(name: "home", phase: .render) { context in
            guard !context.pagesUnchanged else { return }
            let digest = homeDigest(context.summaries, base: context.base, clock: context.clock)
            guard try context.output.needsRendering(SitePaths.home, digest: digest) else { return }
            let home = try context.renderer.renderPage(
                template: "home", context: context.pages.home(context.summaries), relativeRoot: "", title: context.strings["home"])
            try context.output.write(home, to: SitePaths.home)
        },
        BuildStep(name: "feeds", phase: .discovery) { context in
            guard !context.pagesUnchanged else { return }
            try FeedPhase(
                store: context.store, pages: context.pages, output: context.output, base: context.base, baseURL: context.configuration.baseURL,
                pictures: context.pictures
            ).run(context.summaries)
        },
        BuildStep(name: "sitemap", phase: .discovery) { context in
            guard let baseURL = context.configuration.baseURL else { return }
            var sitemap = SitemapPhase(output: context.output, base: context.base, baseURL: baseURL, noindex: context.configuration.noindex)
            // Tombstones are noindex: they stay out of the sitemap.
            sitemap.excluded = Set(try context.store.removedPostIds().map(SitePaths.post))
            try sitemap.run()
        },
        BuildStep(name: "takedowns counted", phase: .store) { context in
            // Read before publishing: once the site is swapped in, a store that fails must not fail the build.
            context.redacted =
                context.pagesUnchanged ? try context.store.removedPostCount() : context.summaries.reduce(0) { $0 + $1.removedCount }
        },
        BuildStep(name: "publish", phase: .publish) { context in
            context.report = try context.publisher.publish(context.output)
        },
    ]

    /// The kept pictures that published posts show, each once under `media/` by its hash: written when new, never
    /// rewritten, and left out (so removed from the site) once no published post shows it.
    @Sendable static func publishPictures(_ context: BuildContext) throws {
        let images: [(hash: String, format: ImageFormat)]
        do { images = try context.store.publishedMedia() } catch { throw BuildError(phase: .store, underlying: error) }
        for image in images {
            let path = SitePaths.media(hash: image.hash, format: image.format)
            guard try context.output.needsRendering(path, digest: MediaFileInput(hash: image.hash, format: image.format).digest(base: BuildDigest()))
            else { continue }
            let bytes: [UInt8]?
            do { bytes = try context.store.mediaBytes(hash: image.hash) } catch { throw BuildError(phase: .store, underlying: error, location: path) }
            guard let bytes else {
                throw BuildError(phase: .store, reason: .underlying("picture \(image.hash) is listed but its bytes cannot be read"), location: path)
            }
            try context.output.write(Data(bytes), to: path)
        }
    }

    /// Every board's listing and post pages, boards side by side: a rebuild reads each board's keys on one core and
    /// renders few pages, so one board at a time left the other cores idle. Each page depends only on the store's
    /// snapshot.
    @Sendable static func boardAndPostPages(_ context: BuildContext) throws {
        let plainTextPosts = PlainTextPosts()
        defer { plainTextPosts.report(to: context.logger) }
        let boards = context.boards
        guard !context.pagesUnchanged else {
            for board in boards { context.progress.finishBoard(board.boardId) }
            return
        }
        let boardIds = Set(boards.map(\.boardId))
        context.summaries = try concurrentMap(boards.count) { index in
            let board = boards[index]
            let summary = try BoardPass(board: board, boardIds: boardIds, context: context, plainTextPosts: plainTextPosts).run()
            context.progress.update { $0.posts += summary.postCount }
            context.progress.finishBoard(board.boardId)
            context.logger.debug("Built board", metadata: ["board": "\(board.boardId)", "posts": "\(summary.postCount)"])
            return summary
        }
    }
}
