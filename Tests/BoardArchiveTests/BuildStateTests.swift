import BoardArchive
import Foundation
import Logging
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The build's state (manifest and caches) beside the site: never published, migrated from inside older sites, and a
/// site without it simply builds in full.
@Suite("Build state beside the site")
struct BuildStateTests {
    typealias Incremental = IncrementalBuildTests

    /// Puts a site's state back inside it as a build before the state folder kept it: `.boardarchive-manifest` (version
    /// 1, cache paths under `.boardarchive-cache/`) and `.boardarchive-cache/`, and removes the state folder.
    static func makeLegacy(_ output: URL) throws {
        let state = BuildState.defaultDirectory(for: output)
        let manifest = try #require(SiteManifest.load(from: state))
        var lines = [SiteManifest.legacyHeader]
        for (path, digest) in manifest.digests.sorted(by: { Bytes.utf8Precedes($0.key, $1.key) }) {
            let legacy = path.hasPrefix(BuildState.cache) ? BuildState.legacyCache + path.dropFirst(BuildState.cache.count) : path
            lines.append("\(digest) \(legacy)")
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: output.appendingPathComponent(BuildState.legacyManifest))
        try FileManager.default.moveItem(at: state.appendingPathComponent("cache"), to: output.appendingPathComponent(".boardarchive-cache"))
        try FileManager.default.removeItem(at: state)
    }

    @Test("a site whose state an older build kept inside it is migrated: nothing rendered again, the old state leaves the site")
    func legacyStateIsMigrated() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try SiteFixture.store()
        let output = root.appendingPathComponent("site")
        let first = try await Incremental.build(store, Incremental.Inputs(), into: output)
        let built = try SiteFixture.filesWithState(under: output)
        try Self.makeLegacy(output)
        let legacy = BuildState.legacyPaths(in: output)
        #expect(legacy.contains(BuildState.legacyManifest) && legacy.contains { $0.hasPrefix(".boardarchive-cache/search/") }, "\(legacy)")
        let stamps = try PublishTests.stamps(under: output).filter { !$0.key.hasPrefix(".boardarchive-") }

        let report = try await Incremental.build(store, Incremental.Inputs(), into: output)
        // The migrated manifest said every file is current: nothing rendered or written, only the old state removed.
        #expect(report.rendered == 0 && report.written == 0, "\(report)")
        #expect(report.removed == legacy.count)
        #expect(report.unchanged == first.written)
        #expect(BuildState.legacyPaths(in: output).isEmpty)
        #expect(try SiteFixture.filesWithState(under: output) == built)
        let after = try PublishTests.stamps(under: output)
        for (path, stamp) in stamps { #expect(after[path] == stamp, "\(path) was rewritten") }

        // The migrated state serves the next change like any other.
        var post = try #require(try store.post(id: 150))
        post.title = "이전 뒤 고친 제목"
        try store.record(posts: [post], at: SiteFixture.now)
        let edited = try await Incremental.build(store, Incremental.Inputs(), into: output)
        #expect(edited.written > 0 && edited.rendered < first.written, "\(edited)")
        #expect(try await Incremental.differencesFromCleanBuild(output, store: store) == [])
    }

    @Test("a site copied elsewhere without its state builds in full there, to the bytes of a clean build")
    func copiedSiteBuildsInFull() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try SiteFixture.store()
        let output = root.appendingPathComponent("site")
        let first = try await Incremental.build(store, Incremental.Inputs(), into: output)
        let copy = root.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: output, to: copy)
        var post = try #require(try store.post(id: 150))
        post.title = "복사본에서 고친 제목"
        try store.record(posts: [post], at: SiteFixture.now)
        let report = try await Incremental.build(store, Incremental.Inputs(), into: copy)
        #expect(
            report.rendered == report.written + report.unchanged && report.rendered > first.written / 2, "every file is rendered again: \(report)")
        #expect(FileManager.default.fileExists(atPath: BuildState.defaultDirectory(for: copy).appendingPathComponent("manifest").path))
        #expect(try await Incremental.differencesFromCleanBuild(copy, store: store) == [])
        // The original's state was not touched by the copy's build.
        #expect(SiteManifest.load(from: BuildState.defaultDirectory(for: output)) != SiteManifest.load(from: BuildState.defaultDirectory(for: copy)))
    }

    @Test("a state folder the settings name holds the state; one inside the site, or holding it, is refused")
    func namedStateFolder() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try SiteFixture.store()
        let output = root.appendingPathComponent("site")
        let state = root.appendingPathComponent("cache/state")
        func build(state: URL) async throws -> BuildReport {
            var configuration = Incremental.configuration(Incremental.Inputs(), output: output)
            configuration.stateDirectory = state
            return try await SiteBuilder(configuration: configuration, store: store, logger: Logger(label: "test")).build()
        }
        let first = try await build(state: state)
        #expect(SiteManifest.load(from: state) != nil)
        #expect(!FileManager.default.fileExists(atPath: BuildState.defaultDirectory(for: output).path))
        let again = try await build(state: state)
        #expect(again.rendered == 0 && again.unchanged == first.written, "\(again)")
        let before = try SiteFixture.files(under: output)
        for misplaced in [output.appendingPathComponent("state"), output, root] {
            await #expect(
                throws: BuildError(
                    phase: .prepare, reason: .stateFolderMisplaced("it must not be the output folder, inside it, or hold it"),
                    location: misplaced.standardizedFileURL.path)
            ) { try await build(state: misplaced) }
        }
        #expect(try SiteFixture.files(under: output) == before)
    }

    @Test("an emptied or restored site folder builds in full beside a state that described another", arguments: ["emptied", "restored"])
    func stateOfAnotherSiteIsNotUsed(how: String) async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try SiteFixture.store()
        let output = root.appendingPathComponent("site")
        let first = try await Incremental.build(store, Incremental.Inputs(), into: output)
        let backup = root.appendingPathComponent("backup")
        try FileManager.default.copyItem(at: output, to: backup)
        var post = try #require(try store.post(id: 150))
        post.title = "백업 뒤 고친 제목"
        try store.record(posts: [post], at: SiteFixture.now)
        _ = try await Incremental.build(store, Incremental.Inputs(), into: output)
        try FileManager.default.removeItem(at: output)
        if how == "emptied" {
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: false)
        } else {
            // The site as it was before the edit, with the state of the build after it beside it.
            try FileManager.default.moveItem(at: backup, to: output)
        }
        let report = try await Incremental.build(store, Incremental.Inputs(), into: output)
        #expect(report.rendered == report.written + report.unchanged && report.rendered >= first.written - 2, "\(report)")
        #expect(try await Incremental.differencesFromCleanBuild(output, store: store) == [])
        // And the state now describes this site: the next build keeps everything.
        let again = try await Incremental.build(store, Incremental.Inputs(), into: output)
        #expect(again.rendered == 0, "\(again)")
    }

    @Test("a state folder holding files boardarchive did not write is refused, and its files stay")
    func foreignStateFolderIsRefused() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try SiteFixture.store()
        let output = root.appendingPathComponent("site")
        let documents = root.appendingPathComponent("documents")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: documents.appendingPathComponent("thesis.txt"))
        var configuration = Incremental.configuration(Incremental.Inputs(), output: output)
        configuration.stateDirectory = documents
        await #expect(
            throws: BuildError(
                phase: .prepare, reason: .stateFolderMisplaced("it holds files boardarchive did not write (pass --force to replace it)"),
                location: documents.standardizedFileURL.path)
        ) { try await SiteBuilder(configuration: configuration, store: store, logger: Logger(label: "test")).build() }
        #expect(try SiteFixture.files(under: documents) == ["thesis.txt": Data("precious".utf8)])
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("a build killed after moving a first build's state in, before its site, is followed by a full build")
    func stateWithoutItsSite() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try SiteFixture.store()
        let output = root.appendingPathComponent("site")
        _ = try await Incremental.build(store, Incremental.Inputs(), into: output)
        // What such a kill leaves: the new state in place and no site (a first build has none to keep).
        try FileManager.default.removeItem(at: output)
        let report = try await Incremental.build(store, Incremental.Inputs(), into: output)
        #expect(report.unchanged == 0 && report.rendered > 0, "\(report)")
        #expect(try await Incremental.differencesFromCleanBuild(output, store: store) == [])
    }
}
