import BoardArchiveModel
import BoardArchiveRender
import BoardArchiveStore
import Foundation
import Logging

/// What every step of one build shares (as Publish's steps share one context): the build's collaborators, made once by
/// ``SiteBuilder/build()``, and what each step learns for the steps after it.
///
/// Steps run one after another, but for the steps of a ``BuildStep/sideBySide(_:)`` group; a step may work on every
/// core inside, reading the collaborators, which are not changed after the context is made. Only the steps write the
/// learned values, each a value of its own, before the next step starts (a side-by-side group's steps write
/// different values and read none the other writes).
final class BuildContext: @unchecked Sendable {
    let configuration: BuildConfiguration
    let logger: Logger
    /// Counts boards, posts and files for the caller's display.
    let progress: ProgressMeter
    /// The one snapshot of the store the whole build reads; it hands the steps cursors over keys and rows.
    let store: any ArchiveSnapshot
    let renderer: TemplateRenderer
    let pages: PageContext
    /// The one writer of the build's files, with the previous build's manifest.
    let output: SiteOutput
    /// Swaps the staged files and state into place (the last step).
    let publisher: SitePublisher
    /// The digest of the inputs every file shares (``SiteBuilder/baseDigest(renderer:configuration:)``).
    let base: BuildDigest
    /// The previous site, if any.
    let previous: URL?

    /// What the build reads of the archive as a whole before any step (in `prepare`).
    let archive: ArchiveOverview
    /// The boards of the store.
    var boards: [Board] { archive.boards }
    /// The boards the source deleted, with when they were last seen, when the site marks them.
    var goneBoards: [Int: Date] { archive.goneBoards }
    /// The kept pictures each post shows (only posts with any).
    var pictures: [Int: [PublishedImage]] { archive.pictures }
    /// Every post's id, board, content hash and redaction, as one digest.
    var postsDigest: BuildDigest { archive.postsDigest }
    /// Whether the board, post and home pages and the feeds are what the previous build made (step `store checks`).
    var pagesUnchanged = false
    /// Every board's summary (step `board and post pages`).
    var summaries: [BoardSummary] = []
    /// What the search step did.
    var search = SearchPhase.Report()
    /// How many posts a takedown removed (read before publishing: once the site is swapped in, a failing store must
    /// not fail the build).
    var redacted = 0
    /// The build's report (step `publish`).
    var report = BuildReport()

    var strings: SiteStrings { pages.strings }
    var clock: ArchiveClock { pages.clock }

    init(
        configuration: BuildConfiguration, logger: Logger, progress: ProgressMeter, store: any ArchiveSnapshot, renderer: TemplateRenderer,
        pages: PageContext, output: SiteOutput, publisher: SitePublisher, base: BuildDigest, previous: URL?, archive: ArchiveOverview
    ) {
        self.archive = archive
        self.configuration = configuration
        self.logger = logger
        self.progress = progress
        self.store = store
        self.renderer = renderer
        self.pages = pages
        self.output = output
        self.publisher = publisher
        self.base = base
        self.previous = previous
    }

    /// Runs `step`, logs its seconds (`--log-level debug`) and reports any failure as a ``BuildError`` of the step's
    /// phase (one that already is a ``BuildError`` keeps its own): the one place a step's errors are wrapped.
    func run(_ step: BuildStep) throws {
        let started = Date()
        do {
            try step.body(self)
        } catch {
            throw BuildError(phase: step.phase, underlying: error)
        }
        logger.debug("Step done", metadata: ["step": "\(step.name)", "seconds": "\(String(format: "%.2f", Date().timeIntervalSince(started)))"])
    }
}

/// One named step of a build over its ``BuildContext``.
struct BuildStep: Sendable {
    /// The name the debug log gives its seconds under.
    let name: String
    /// The phase a failure of the step is reported in.
    let phase: BuildError.Phase
    let body: @Sendable (BuildContext) throws -> Void

    /// Steps that neither read what the others learn nor write the same values, run on cores of their own when there
    /// are spare ones (``concurrentMap(_:_:)``), else one after another. Each is run, timed and wrapped as a step of its
    /// own. The error thrown is the one running them in order would throw: when several fail, the first's in this
    /// order; a failure of the first step stops the others at their next file (``SiteOutput/refuseFurtherFiles()``),
    /// and a later step's failure lets the steps before it finish.
    static func sideBySide(_ steps: BuildStep...) -> BuildStep {
        BuildStep(name: steps.map(\.name).joined(separator: " + "), phase: steps[0].phase) { context in
            _ = try concurrentMap(steps.count) { index in
                do { try context.run(steps[index]) } catch {
                    if index == 0 { context.output.refuseFurtherFiles() }
                    throw error
                }
            }
        }
    }
}
