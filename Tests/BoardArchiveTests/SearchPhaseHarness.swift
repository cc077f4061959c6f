import BoardArchive
import Foundation
import Logging

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Runs the search phase alone, over a store made of `posts`, into a fresh folder; returns its files and report.
enum SearchPhaseHarness {
    static func run(
        boards: [Board], posts: [Post], configuration: BuildConfiguration, into root: URL? = nil, templates: URL = SiteFixture.templatesDirectory
    ) throws -> (
        files: [String: Data], report: SearchPhase.Report
    ) {
        let store = try ArchiveStore.inMemory()
        try store.record(boards: boards, at: configuration.now)
        try store.record(posts: posts, at: configuration.now)
        let folder = try root ?? SiteFixture.temporaryDirectory("search-phase")
        let strings = SiteStrings(language: configuration.language)
        let renderer = try TemplateRenderer.load(from: templates, strings: strings, clock: configuration.clock)
        let pages = PageContext(strings: strings, clock: configuration.clock)
        let output = SiteOutput(stagingDirectory: folder, previousDirectory: nil)
        let report = try SearchPhase(configuration: configuration, logger: Logger(label: "test"))
            .run(store: try store.snapshot(), boards: boards, output: output, renderer: renderer, pages: pages, base: BuildDigest())
        var files: [String: Data] = [:]
        for path in output.stagedPaths where !path.hasPrefix(".") {
            files[path] = try Data(contentsOf: folder.appendingPathComponent(path))
        }
        return (files, report)
    }
}
