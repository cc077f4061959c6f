import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The identity and modification time of a file: unchanged exactly when the file was not rewritten.
struct FileStamp: Equatable {
    var inode: UInt64
    var modified: Date

    init(_ url: URL) throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
        modified = attributes[.modificationDate] as? Date ?? .distantPast
    }
}

@Suite("Publishing: staging, unchanged files, stale files, the output guard")
struct PublishTests {
    static func stamps(under root: URL) throws -> [String: FileStamp] {
        var stamps: [String: FileStamp] = [:]
        for path in SitePublisher.files(under: root) { stamps[path] = try FileStamp(root.appendingPathComponent(path)) }
        // The build's state beside the site, by its logical paths.
        let state = BuildState.defaultDirectory(for: root)
        for path in SitePublisher.files(under: state) where path != BuildState.identityFile {
            stamps[BuildState.prefix + path] = try FileStamp(state.appendingPathComponent(path))
        }
        return stamps
    }

    private func siblings(of output: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path).sorted()
    }

    @Test("building twice gives identical bytes and the second build rewrites no file")
    func rebuildIsIdenticalAndRewritesNothing() async throws {
        let store = try SiteFixture.store()
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        let first = try await SiteFixture.build(store, into: output)
        let bytes = try SiteFixture.files(under: output)
        let before = try Self.stamps(under: output)
        let second = try await SiteFixture.build(store, into: output)
        #expect(try SiteFixture.files(under: output) == bytes)
        #expect(try Self.stamps(under: output) == before)
        #expect(second.written == 0)
        #expect(second.removed == 0)
        #expect(second.unchanged == first.written)
        #expect(try siblings(of: output) == ["site", "site.boardarchive-state"])
    }

    @Test("two builds into different folders give byte-identical trees")
    func deterministicAcrossFolders() async throws {
        let store = try SiteFixture.store()
        let a = try SiteFixture.temporaryDirectory().appendingPathComponent("a")
        let b = try SiteFixture.temporaryDirectory().appendingPathComponent("b")
        try await SiteFixture.build(store, into: a)
        try await SiteFixture.build(store, into: b)
        #expect(try SiteFixture.files(under: a) == SiteFixture.files(under: b))
    }

    @Test("a changed post rewrites only the pages that show it; stale files are removed")
    func incrementalChanges() async throws {
        var posts = SiteFixture.posts
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        try await SiteFixture.build(try SiteFixture.store(posts: posts), into: output)
        let before = try Self.stamps(under: output)
        // Post 304 disappears from the archive (a new store without it); post 302 changes its body.
        posts.removeAll { $0.postId == 304 }
        if let index = posts.firstIndex(where: { $0.postId == 302 }) { posts[index].contents = "고친 답글" }
        let report = try await SiteFixture.build(try SiteFixture.store(posts: posts), into: output)
        let after = try Self.stamps(under: output)
        #expect(after["posts/304.html"] == nil)
        // Pages (not the search index or keyword pages, which follow the archive's words) removed: just 304.
        let isPage = { (path: String) in !path.hasPrefix("search/") && !path.hasPrefix("keywords/") && !path.hasPrefix(".boardarchive-") }
        #expect(before.keys.filter { after[$0] == nil && isPage($0) } == ["posts/304.html"])
        #expect(after["posts/302.html"] != before["posts/302.html"])
        #expect(try SiteFixture.text("posts/302.html", in: output).contains("고친 답글"))
        #expect(after["posts/150.html"] == before["posts/150.html"])
        #expect(after["boards/1/page-2.html"] == before["boards/1/page-2.html"])
        #expect(after["assets/site.css"] == before["assets/site.css"])
        let rewritten = after.filter { before[$0.key] != $0.value }.keys.sorted()
        // 302's page (new body, and 304 was its previous post), board 3's list and the home page (post count), and the
        // feeds that held both; 301 shows 302's title, not its body, so it stays.
        #expect(rewritten.filter(isPage) == ["boards/3/feed.xml", "boards/3/index.html", "feed.xml", "index.html", "posts/302.html"])
        #expect(report.written == rewritten.count - 1)  // rewritten includes files new in this build, and the manifest
    }

    @Test("a build that fails (broken template) leaves the previous site byte-identical and no staging folder")
    func failureLeavesPreviousSite() async throws {
        let store = try SiteFixture.store()
        let root = try SiteFixture.temporaryDirectory()
        let output = root.appendingPathComponent("site")
        try await SiteFixture.build(store, into: output)
        let bytes = try SiteFixture.files(under: output)
        let before = try Self.stamps(under: output)
        let templates = try RenderTemplateTests.copyOfDefaultTemplates(in: root)
        try "{{#posts}}<p>{{title}}</p>".write(to: templates.appendingPathComponent("board.mustache"), atomically: true, encoding: .utf8)
        await #expect(throws: BuildError.self) {
            try await SiteFixture.build(store, into: output, templates: templates, now: SiteFixture.now.addingTimeInterval(86_400))
        }
        #expect(try SiteFixture.files(under: output) == bytes)
        #expect(try Self.stamps(under: output) == before)
        #expect(try siblings(of: output) == ["site", "site.boardarchive-state", "templates"])
    }

    @Test("a build that fails late, after every board and post page was staged, leaves the previous site byte-identical")
    func lateFailureLeavesPreviousSite() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let output = root.appendingPathComponent("site")
        try await SiteFixture.build(try SiteFixture.store(), into: output)
        let bytes = try SiteFixture.files(under: output)
        let before = try Self.stamps(under: output)
        // A title over the search index's 1 MB file cap fails the search phase, which runs after the pages.
        let giant = SiteFixture.post(999, title: String(repeating: "a", count: 1_100_000), at: "2024-05-15T01:00:00Z")
        let store = try SiteFixture.store(posts: SiteFixture.posts + [giant])
        do {
            try await SiteFixture.build(store, into: output, now: SiteFixture.now.addingTimeInterval(86_400))
            Issue.record("the build should have failed in the search phase")
        } catch let error as BuildError {
            #expect(error.phase == .search, "\(error)")
        }
        #expect(try SiteFixture.files(under: output) == bytes)
        #expect(try Self.stamps(under: output) == before)
        #expect(try siblings(of: output) == ["site", "site.boardarchive-state"])
    }

    @Test("files staged before a failure never reach the previous site; bad paths are refused")
    func stagedFilesAreDiscarded() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let output = root.appendingPathComponent("site")
        try await SiteFixture.build(try SiteFixture.store(), into: output)
        let bytes = try SiteFixture.files(under: output)
        let publisher = SitePublisher(outputDirectory: output, force: false)
        let staging = try publisher.makeStagingDirectory()
        let writer = SiteOutput(stagingDirectory: staging, previousDirectory: output)
        try writer.write("changed", to: "posts/101.html")
        try writer.write(try SiteFixture.text("posts/102.html", in: output), to: "posts/102.html")
        #expect(writer.currentReport.written == 1)
        #expect(writer.currentReport.unchanged == 1)
        #expect(throws: BuildError.self) { try writer.write("again", to: "posts/101.html") }
        #expect(throws: BuildError.self) { try writer.write("y", to: "../escape.html") }
        #expect(throws: BuildError.self) { try writer.write("y", to: "/etc/passwd") }
        #expect(throws: BuildError.self) { try writer.write("y", to: "boards//x.html") }
        publisher.discard(staging)
        #expect(try SiteFixture.files(under: output) == bytes)
        #expect(try siblings(of: output) == ["site", "site.boardarchive-state"])
    }

    @Test("the guard refuses a non-empty folder without the marker, unless forced")
    func outputGuard() async throws {
        let store = try SiteFixture.store()
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("documents")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try "precious".write(to: output.appendingPathComponent("thesis.txt"), atomically: true, encoding: .utf8)
        await #expect(throws: BuildError(phase: .prepare, reason: .outputNotManaged, location: output.standardizedFileURL.path)) {
            try await SiteFixture.build(store, into: output)
        }
        #expect(try SiteFixture.text("thesis.txt", in: output) == "precious")
        #expect(try siblings(of: output) == ["documents"])
        let report = try await SiteFixture.build(store, into: output, force: true)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("thesis.txt").path))
        #expect(report.removed == 1)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(".boardarchive").path))
    }

    @Test("an empty folder and a missing folder are fine; a file in the way is refused")
    func emptyAndMissingFolders() async throws {
        let store = try SiteFixture.store()
        let root = try SiteFixture.temporaryDirectory()
        let empty = root.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try await SiteFixture.build(store, into: empty)
        #expect(FileManager.default.fileExists(atPath: empty.appendingPathComponent("index.html").path))
        let nested = root.appendingPathComponent("deep/er/site")
        try await SiteFixture.build(store, into: nested)
        #expect(FileManager.default.fileExists(atPath: nested.appendingPathComponent("index.html").path))
        let file = root.appendingPathComponent("file")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        await #expect(throws: BuildError.self) { try await SiteFixture.build(store, into: file) }
        #expect(try String(contentsOf: file, encoding: .utf8) == "x")
    }
}

@Suite("Publishing: recovery after a crashed build")
struct PublishRecoveryTests {
    @Test("staging folders of dead processes are removed; a site left aside mid-swap is put back")
    func recovery() throws {
        let root = try SiteFixture.temporaryDirectory()
        let output = root.appendingPathComponent("site")
        // A pid far above pid_max is never a running process.
        let deadStaging = root.appendingPathComponent(".site.staging-99999999-abcd")
        let deadPrevious = root.appendingPathComponent(".site.previous-99999999-abcd")
        let liveStaging = root.appendingPathComponent(".site.staging-\(ProcessInfo.processInfo.processIdentifier)-other")
        for folder in [deadStaging, deadPrevious, liveStaging] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try "old".write(to: deadPrevious.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        let publisher = SitePublisher(outputDirectory: output, force: false)
        let staging = try publisher.makeStagingDirectory()
        #expect(try SiteFixture.text("index.html", in: output) == "old")
        let entries = Set(try FileManager.default.contentsOfDirectory(atPath: root.path))
        #expect(entries == ["site", liveStaging.lastPathComponent, staging.lastPathComponent])
        publisher.discard(staging)
    }
}
