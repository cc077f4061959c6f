import Foundation
import Logging

// The build, phase by phase (each phase wraps its failures once in a `BuildError`):
//
//   1. prepare   `SitePublisher.recover()` (a crashed build's journal), `checkOutput()` (marker guard), the previous
//                manifest read while the templates load, staging folder beside the output
//   2. templates `TemplateRenderer.load(from:)`: compile all templates once, check partials
//   3. assets    `templates/assets/**` → `assets/**`
//   4. boards    per board (streamed, one board in memory at a time): board pages + post pages, rendered
//                in parallel in a task group
//   5. home      `index.html` from the board summaries gathered in 4
//   6. search    `SearchPhase.run(store:boards:output:renderer:pages:)`, between `home` and `publish`.
//                  It writes `search.html`, `search/…` and `keywords/…` through `output.write(_:to:)`,
//                  renders pages with `renderer.renderPage(template:context:relativeRoot:title:scripts:)`
//                  and rows with `pages.row(for:root:)` + the `partials/post-row` partial.
//   7. discovery `FeedPhase` (Atom feeds of every board and of the archive, from the newest posts gathered in 4), and
//                with a base URL `SitemapPhase` (`sitemap.xml`, `robots.txt`) over every page declared so far
//   8. publish   `SitePublisher.publish(_:)`: marker, stale-file removal, swap (skipped when nothing changed)

/// Builds the static site from the archive store.
///
/// Reads only the store (no network) and the templates folder. The same store, templates and
/// configuration (clock, time zone, language) give a byte-identical site.
public struct SiteBuilder: Sendable {
    /// The build's settings.
    public let configuration: BuildConfiguration
    /// The archive to publish: the build reads one snapshot of it (``ArchiveSource/snapshot(pseudonyms:)``).
    public let source: any ArchiveSource
    /// Progress and summary messages.
    public let logger: Logger
    /// Counts boards, post pages and files as the build goes, for the caller's display.
    public let progress: ProgressMeter

    /// Creates a builder; nothing happens until ``build()``.
    public init(configuration: BuildConfiguration, store: any ArchiveSource, logger: Logger, progress: ProgressMeter = ProgressMeter()) {
        self.progress = progress
        self.configuration = configuration
        self.source = store
        self.logger = logger
    }

    /// Checks the output folder as ``build()`` will, without building: lets a caller refuse early, before a crawl.
    ///
    /// - Throws: ``BuildError`` (phase `prepare`) for a non-empty folder without the marker, or a file, unless `force`.
    public static func checkOutput(of configuration: BuildConfiguration) throws {
        let publisher = SitePublisher(
            outputDirectory: configuration.outputDirectory, stateDirectory: configuration.resolvedStateDirectory, force: configuration.force)
        try publisher.checkStateDirectory()
        _ = try publisher.checkOutput()
    }

    /// Builds the whole site into a staging folder and swaps it into ``BuildConfiguration/outputDirectory``.
    ///
    /// - Returns: how many files were written, kept unchanged and removed.
    /// - Throws: ``BuildError``; the previous site is then left exactly as it was.
    public func build() async throws -> BuildReport {
        var timer = PhaseClock(logger: logger)
        let stateDirectory = configuration.resolvedStateDirectory
        let publisher = SitePublisher(outputDirectory: configuration.outputDirectory, stateDirectory: stateDirectory, force: configuration.force)
        try publisher.checkStateDirectory()
        // A crashed build's journal is applied first: the previous manifest must describe the files on disk.
        publisher.recover()
        let previous = try publisher.checkOutput()
        if let previous, try BuildState.migrateLegacyState(of: previous, to: stateDirectory) {
            logger.info("Moved the build state out of the site", metadata: ["site": "\(previous.path)", "state": "\(stateDirectory.path)"])
        }
        // The previous manifest (133,568 lines at 100k posts) is read on another core while the templates load.
        let manifestLoad = Task.detached { previous == nil ? nil : SiteManifest.load(from: stateDirectory) }
        let strings = SiteStrings(language: configuration.language)
        let clock = configuration.clock
        let templatesDirectory = configuration.resolvedTemplatesDirectory
        var renderer = try TemplateRenderer.load(from: templatesDirectory, strings: strings, clock: clock)
        renderer.noindex = configuration.noindex
        let pages = PageContext(strings: strings, clock: clock)
        let store = try openSnapshot(strings: strings)
        let staging = try publisher.makeStagingDirectory()
        let flusher = WritebackFlusher()
        let output = SiteOutput(
            stagingDirectory: staging, previousDirectory: previous, previousStateDirectory: stateDirectory,
            previousManifest: await manifestLoad.value,
            progress: progress)
        // Its tables (every path of the site, twice) are let go on another core once the build returns.
        defer { Task.detached(priority: .background) { withExtendedLifetime(output) {} } }
        let base = Self.baseDigest(renderer: renderer, configuration: configuration)
        do {
            try copyAssets(from: templatesDirectory.appendingPathComponent("assets", isDirectory: true), to: output)
            let boards: [Board]
            do { boards = try store.boards() } catch { throw BuildError(phase: .store, underlying: error) }
            let boardIds = Set(boards.map(\.boardId))
            try refuseShrinking(previous: previous, manifest: output.previousManifest, boards: boards, store: store)
            try refuseIdsBeyondRule(store: store)
            timer.lap("prepare")
            let postsDigest = try postsDigest(boards: boards, store: store)
            let pagesUnchanged = try keepPagesIfUnchanged(posts: postsDigest, base: base, output: output)
            var summaries: [BoardSummary] = []
            progress.update { $0.boards = boards.count }
            try sizeBoards(boards, store: store)
            let plainTextPosts = PlainTextPosts()
            if !pagesUnchanged {
                // Boards stream side by side: a rebuild reads each board's keys on one core and renders few pages, so
                // one board at a time left the other cores idle. Each page depends only on the store's snapshot.
                let (logger, renderer) = (logger, renderer)
                summaries = try concurrentMap(boards.count) { index in
                    let board = boards[index]
                    let summary = try BoardPass(
                        board: board, boardIds: boardIds, store: store, renderer: renderer, pages: pages, output: output, base: base,
                        meter: progress, plainTextPosts: plainTextPosts
                    ).run()
                    progress.update { $0.posts += summary.postCount }
                    progress.finishBoard(board.boardId)
                    logger.debug("Built board", metadata: ["board": "\(board.boardId)", "posts": "\(summary.postCount)"])
                    return summary
                }
                if try output.needsRendering(SitePaths.home, digest: Self.homeDigest(summaries, base: base, clock: clock)) {
                    let home = try renderer.renderPage(template: "home", context: pages.home(summaries), relativeRoot: "", title: strings["home"])
                    try output.write(home, to: SitePaths.home)
                }
            } else {
                for board in boards { progress.finishBoard(board.boardId) }
            }
            plainTextPosts.report(to: logger)
            timer.lap("board and post pages")
            let searchReport: SearchPhase.Report
            do {
                searchReport = try SearchPhase(configuration: configuration, logger: logger, indexConfiguration: configuration.searchIndex)
                    .run(store: store, boards: boards, output: output, renderer: renderer, pages: pages, base: base, posts: postsDigest)
            } catch {
                throw BuildError(phase: .search, underlying: error)
            }
            timer = PhaseClock(logger: logger)
            do {
                if !pagesUnchanged {
                    try FeedPhase(store: store, pages: pages, output: output, base: base, baseURL: configuration.baseURL).run(summaries)
                }
                if let baseURL = configuration.baseURL {
                    var sitemap = SitemapPhase(output: output, base: base, baseURL: baseURL, noindex: configuration.noindex)
                    // Tombstones are noindex: they stay out of the sitemap.
                    sitemap.excluded = Set(try store.removedPostIds().map(SitePaths.post))
                    try sitemap.run()
                }
            } catch let error as BuildError {
                throw error
            } catch {
                throw BuildError(phase: .discovery, underlying: error)
            }
            timer.lap("feeds and sitemap")
            flusher.stop()
            // Read before publishing: once the site is swapped in, a store that fails must not fail the build.
            let redacted: Int
            do { redacted = pagesUnchanged ? try store.removedPostCount() : summaries.reduce(0) { $0 + $1.removedCount } } catch {
                throw BuildError(phase: .store, underlying: error)
            }
            var report = try publisher.publish(output)
            report.boardsRead = summaries.count
            report.searchBlocksPatched = searchReport.blocksPatched
            report.redacted = redacted
            timer.lap("publish")
            logger.info(
                "Built site",
                metadata: [
                    "output": "\(report.outputPath)", "rendered": "\(report.rendered)", "written": "\(report.written)",
                    "unchanged": "\(report.unchanged)", "removed": "\(report.removed)", "redacted": "\(report.redacted)",
                ])
            return report
        } catch {
            flusher.stop()
            publisher.discard(staging)
            throw BuildError(phase: .render, underlying: error)
        }
    }

    /// Sizes every board for the build's ETA with its post count in the store (removed posts included: the board pass
    /// reads their keys too).
    func sizeBoards(_ boards: [Board], store: any ArchiveSnapshot) throws {
        let counts: [Int: Int]
        do { counts = try store.postCountsByBoard() } catch { throw BuildError(phase: .store, underlying: error) }
        for board in boards { progress.sizeBoard(board.boardId, posts: counts[board.boardId] ?? 0) }
    }

    /// The version of the page engine: bump it when a change renders the same inputs differently, so that the next
    /// build re-renders every page instead of keeping pages made the old way.
    static let engineVersion = "pages-6"

    /// The digest of the inputs every page shares: engine version, templates, language, time zone.
    static func baseDigest(renderer: TemplateRenderer, configuration: BuildConfiguration) -> BuildDigest {
        var digest = BuildDigest()
        digest.add(engineVersion)
        digest.add(renderer.sourceDigest)
        digest.add(configuration.language.rawValue)
        digest.add(configuration.timeZone.identifier)
        digest.add(configuration.clock.offsetMinutes)
        digest.add(configuration.noindex)
        digest.add(configuration.pseudonymKey.flatMap { WriterPseudonyms(key: $0, label: "")?.fingerprint } ?? "names")
        return digest
    }

    /// The one snapshot of the store the whole build reads, as the site may show it: with writers' pseudonyms when
    /// the configuration has a key. A crawl may commit meanwhile; the site is made of the state the snapshot saw.
    ///
    /// - Throws: ``BuildError`` (phase `prepare`) for a key shorter than ``WriterPseudonyms/minimumKeyBytes``; (phase
    ///   `store`) when the snapshot cannot be opened.
    func openSnapshot(strings: SiteStrings) throws -> any ArchiveSnapshot {
        var pseudonyms: WriterPseudonyms?
        if let key = configuration.pseudonymKey {
            guard let made = WriterPseudonyms(key: key, label: strings["pseudonymLabel"]) else {
                throw BuildError(phase: .prepare, reason: .pseudonymKeyTooShort(bytes: key.count, minimum: WriterPseudonyms.minimumKeyBytes))
            }
            pseudonyms = made
        }
        do { return try source.snapshot(pseudonyms: pseudonyms) } catch { throw BuildError(phase: .store, underlying: error) }
    }

    /// The digest of the home page: every board's summary as the page shows it.
    static func homeDigest(_ summaries: [BoardSummary], base: BuildDigest, clock: ArchiveClock) -> BuildDigest {
        HomePageInput(
            boards: summaries.map { summary in
                HomeBoardInput(
                    boardId: summary.board.boardId, boardName: summary.board.displayName, postCount: summary.postCount,
                    hasPostFromToday: summary.hasPostFromToday, newestPostSeconds: summary.newestPostDate.map { Int($0.timeIntervalSince1970) },
                    newestIsToday: summary.newestPostDate.map(clock.isToday) ?? false)
            }
        ).digest(base: base)
    }

    /// Copies every non-hidden file under `assets` (sorted) to `assets/` in the site.
    func copyAssets(from assets: URL, to output: SiteOutput) throws {
        for path in Self.assetPaths(in: assets) {
            let source = assets.appendingPathComponent(path)
            do {
                try output.writeVerbatim(try Data(contentsOf: source), to: SitePaths.assets + path)
            } catch {
                throw BuildError(phase: .publish, underlying: error, location: source.path)
            }
        }
    }

    /// The relative paths of the non-hidden files under `assets`, sorted; empty when the folder is absent.
    static func assetPaths(in assets: URL) -> [String] {
        let base = assets.standardizedFileURL.path
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [] }
        var paths: [String] = []
        for case let path as String in enumerator where !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                paths.append(path)
            }
        }
        return paths.sorted()
    }
}
