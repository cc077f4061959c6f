import BoardArchive
import Foundation
import Logging
import Testing

@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Steps side by side (`BuildStep.sideBySide`) report what running them in order would report.
@Suite("Build steps side by side")
struct BuildStepTests {
    /// A build context over an empty in-memory store, writing into a fresh staging folder.
    static func context() throws -> BuildContext {
        let folder = try SiteFixture.temporaryDirectory("build-steps")
        let configuration = BuildConfiguration(
            outputDirectory: folder.appendingPathComponent("site"), now: SiteFixture.now, timeZone: SiteFixture.seoul)
        let strings = SiteStrings(language: configuration.language)
        let renderer = try TemplateRenderer.load(from: SiteFixture.templatesDirectory, strings: strings, clock: configuration.clock)
        let staging = folder.appendingPathComponent("staging")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let store = try ArchiveStore.inMemory().snapshot()
        return BuildContext(
            configuration: configuration, logger: Logger(label: "test"), progress: ProgressMeter(), store: store,
            renderer: renderer, pages: PageContext(strings: strings, clock: configuration.clock),
            output: SiteOutput(stagingDirectory: staging, previousDirectory: nil),
            publisher: SitePublisher(outputDirectory: configuration.outputDirectory, force: false), base: BuildDigest(), previous: nil,
            archive: try ArchiveOverview.read(from: store, marksDeleted: true))
    }

    /// Files declared by a step, counted from any thread.
    final class Count: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func add() { lock.withLock { count += 1 } }
    }

    /// A step that declares `count` files `name/<n>.html`, counting each, then fails with `failure` if given.
    static func declaring(_ name: String, _ count: Int, into declared: Count, failure: String? = nil) -> BuildStep {
        BuildStep(name: name, phase: .search) { context in
            for index in 0..<count {
                _ = try context.output.needsRendering("\(name)/\(index).html", digest: BuildDigest())
                declared.add()
            }
            if let failure { throw BuildError(phase: .search, reason: .underlying(failure), location: name) }
        }
    }

    static func failing(_ message: String) -> BuildStep {
        BuildStep(name: "failing", phase: .render) { _ in throw BuildError(phase: .render, reason: .underlying(message), location: "failing") }
    }

    static func message(of body: () throws -> Void) -> String? {
        do { try body() } catch { return String(describing: error) }
        return nil
    }

    @Test("the first step's failure is thrown and stops the step beside it at its next file")
    func aFailingFirstStepStopsTheOthers() throws {
        let context = try Self.context()
        let declared = Count()
        let group = BuildStep.sideBySide(Self.failing("the first step failed"), Self.declaring("second", 1_000_000, into: declared))
        let message = try #require(Self.message { try context.run(group) })
        #expect(message.contains("the first step failed"))
        #expect(declared.value < 1_000_000, "the second step was stopped")
        #expect(throws: CancellationError.self) { _ = try context.output.needsRendering("late.html", digest: BuildDigest()) }
    }

    @Test("a later step's failure lets the first finish; its error is thrown when the first succeeds")
    func aFailingLaterStepLetsTheFirstFinish() throws {
        let context = try Self.context()
        let declared = Count()
        let group = BuildStep.sideBySide(Self.declaring("first", 3_000, into: declared), Self.failing("the second step failed"))
        let message = try #require(Self.message { try context.run(group) })
        #expect(message.contains("the second step failed"))
        #expect(declared.value == 3_000, "the first step ran to its end")
    }

    @Test("when both fail, the first's error is thrown, whichever failed first")
    func whenBothFailTheFirstsErrorIsThrown() throws {
        let context = try Self.context()
        let declared = Count()
        let group = BuildStep.sideBySide(
            Self.declaring("first", 3_000, into: declared, failure: "the first step failed late"), Self.failing("the second step failed at once"))
        let message = try #require(Self.message { try context.run(group) })
        #expect(message.contains("the first step failed late"))
        #expect(declared.value == 3_000)
    }

    @Test("steps that succeed both run to their ends")
    func stepsThatSucceedBothRun() throws {
        let context = try Self.context()
        let (first, second) = (Count(), Count())
        try context.run(.sideBySide(Self.declaring("first", 500, into: first), Self.declaring("second", 700, into: second)))
        #expect(first.value == 500 && second.value == 700)
        #expect(context.output.currentReport.rendered == 1_200)
    }
}
