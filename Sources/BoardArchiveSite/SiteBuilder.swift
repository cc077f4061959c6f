import BoardArchiveModel
import BoardArchiveRender
import BoardArchiveStore
import Foundation
import Logging

// The build: `prepare` in ``SiteBuilder/build()``, then the named steps of ``SiteBuilder/steps`` over one
// ``BuildContext`` (SiteBuilder+Steps.swift), each run by ``BuildContext/run(_:)``, which times it and reports its
// failures in its phase:
//
//   prepare              `SitePublisher.recover()` (a crashed build's journal), `checkOutput()` (marker guard), the
//                        build state migrated out of an older site, the staging folder beside the output; then, at
//                        once: the previous manifest loads on a task while the templates load and the store's
//                        snapshot gives its boards and the digest of its posts (``ArchiveOverview``)
//   assets               `templates/assets/**` → `assets/**`
//   store checks         the refusals (a shrinking site, ids beyond the rule), and whether the
//                        board, post and home pages and the feeds are unchanged as a whole
//   board and post pages per board, boards side by side (streamed keys): board pages + post pages; side by side with
//   + search             `SearchPhase` (its own steps: search blocks, directory, keyword matches, keyword pages)
//   home                 `index.html` from the board summaries
//   feeds, sitemap       Atom feeds of every board and of the archive; with a base URL `sitemap.xml`, `robots.txt`
//   takedowns counted    read before publishing
//   publish              `SitePublisher.publish(_:)`: marker, manifest, stale files, the swap of site and state

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
        // The state is used only beside the site it describes: an emptied, replaced or restored site builds in full.
        let stateUsable = previous.map { BuildState.describes(site: $0, state: stateDirectory) } ?? false
        if let previous, !stateUsable, FileManager.default.fileExists(atPath: stateDirectory.path) {
            logger.info("The build state does not describe this site: building every file", metadata: ["site": "\(previous.path)"])
        }
        // The previous manifest (133,568 lines at 100k posts) is read on another core while the templates load.
        let manifestLoad = Task.detached { stateUsable ? SiteManifest.load(from: stateDirectory) : nil }
        let strings = SiteStrings(language: configuration.language)
        let clock = configuration.clock
        let templatesDirectory = configuration.resolvedTemplatesDirectory
        var renderer = try TemplateRenderer.load(from: templatesDirectory, strings: strings, clock: clock)
        renderer.noindex = configuration.noindex
        let pages = PageContext(strings: strings, clock: clock)
        let store = try openSnapshot(strings: strings)
        // Read on this core while the previous manifest loads on another: at 1M posts each takes about a second.
        let archive = try ArchiveOverview.read(from: store, marksDeleted: configuration.deletedPosts == .marked)
        let staging = try publisher.makeStagingDirectory()
        let flusher = WritebackFlusher()
        let output = SiteOutput(
            stagingDirectory: staging, previousDirectory: previous, previousStateDirectory: stateDirectory, previousStateUsable: stateUsable,
            previousManifest: await manifestLoad.value,
            progress: progress)
        // Its tables (the previous manifest's paths, and this build's new ones) are let go on another core once the build
        // returns.
        defer { Task.detached(priority: .background) { withExtendedLifetime(output) {} } }
        let base = Self.baseDigest(renderer: renderer, configuration: configuration)
        let context = BuildContext(
            configuration: configuration, logger: logger, progress: progress, store: store, renderer: renderer, pages: pages, output: output,
            publisher: publisher, base: base, previous: previous, archive: archive)
        timer.lap("prepare")
        do {
            for step in Self.steps {
                if step.name == "publish" { flusher.stop() }
                try context.run(step)
            }
        } catch {
            flusher.stop()
            // Past its commit point (a journal in the staging folder) a build is finished by the next one, never undone.
            if !FileManager.default.fileExists(atPath: staging.appendingPathComponent(SitePublisher.journalName).path) {
                publisher.discard(staging)
            }
            throw BuildError(phase: .render, underlying: error)
        }
        var report = context.report
        report.boardsRead = context.summaries.count
        report.searchBlocksPatched = context.search.blocksPatched
        report.redacted = context.redacted
        logger.info(
            "Built site",
            metadata: [
                "output": "\(report.outputPath)", "rendered": "\(report.rendered)", "written": "\(report.written)",
                "unchanged": "\(report.unchanged)", "removed": "\(report.removed)", "redacted": "\(report.redacted)",
            ])
        return report
    }

    /// Sizes every board for the build's ETA with its post count in the store (removed posts included: the board pass
    /// reads their keys too).
    static func sizeBoards(_ boards: [Board], store: any ArchiveSnapshot, progress: ProgressMeter) throws {
        let counts: [Int: Int]
        do { counts = try store.postCountsByBoard() } catch { throw BuildError(phase: .store, underlying: error) }
        for board in boards { progress.sizeBoard(board.boardId, posts: counts[board.boardId] ?? 0) }
    }

    /// The version of the page engine: bump it when a change renders the same inputs differently, so that the next
    /// build re-renders every page instead of keeping pages made the old way.
    static let engineVersion = "pages-7"

    /// The digest of the inputs every page shares: engine version, templates, language, time zone.
    static func baseDigest(renderer: TemplateRenderer, configuration: BuildConfiguration) -> BuildDigest {
        BuildBaseInput(
            engineVersion: engineVersion, templates: renderer.sourceDigest.description, language: configuration.language.rawValue,
            timeZone: configuration.timeZone.identifier, offsetMinutes: configuration.clock.offsetMinutes, noindex: configuration.noindex,
            writers: configuration.pseudonymKey.flatMap { WriterPseudonyms(key: $0, label: "")?.fingerprint } ?? "names",
            deletedPosts: configuration.deletedPosts.rawValue
        ).digest(base: BuildDigest())
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
        let rule = Publication(leavesOutGone: configuration.deletedPosts == .leftOut)
        do { return try source.snapshot(pseudonyms: pseudonyms, rule: rule) } catch { throw BuildError(phase: .store, underlying: error) }
    }

    /// The digest of the home page: every board's summary as the page shows it.
    static func homeDigest(_ summaries: [BoardSummary], base: BuildDigest, clock: ArchiveClock) -> BuildDigest {
        HomePageInput(
            boards: summaries.map { summary in
                HomeBoardInput(
                    boardId: summary.board.boardId, boardName: summary.board.displayName, postCount: summary.postCount,
                    hasPostFromToday: summary.hasPostFromToday, newestPostSeconds: summary.newestPostDate.map { Int($0.timeIntervalSince1970) },
                    newestIsToday: summary.newestPostDate.map(clock.isToday) ?? false,
                    goneSeconds: summary.deletedLastSeen.map { Int($0.timeIntervalSince1970) })
            }
        ).digest(base: base)
    }

    /// Copies every non-hidden file under `assets` (sorted) to `assets/` in the site.
    static func copyAssets(from assets: URL, to output: SiteOutput) throws {
        for path in TemplateRenderer.assetPaths(in: assets) {
            let source = assets.appendingPathComponent(path)
            do {
                try output.writeVerbatim(try Data(contentsOf: source), to: SitePaths.assets + path)
            } catch {
                throw BuildError(phase: .publish, underlying: error, location: source.path)
            }
        }
    }
}
