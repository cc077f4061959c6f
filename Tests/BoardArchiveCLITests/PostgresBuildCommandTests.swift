import FixtureAPI
import Foundation
import Testing

/// `boardarchive build` from a PostgreSQL store (and a SQLite one) as a process: the incremental manifest writes nothing when nothing
/// changed, and after an edit only the few files it touches, giving the same bytes as a full build.
@Suite("Build from PostgreSQL end to end", .serialized)
struct PostgresBuildCommandTests {
    /// The `written` and `total` counts of a build's "Built N files (… written, …)" line, or nil when it has none.
    static func counts(of stdout: String) -> (written: Int, total: Int)? {
        guard let match = stdout.firstMatch(of: /Built (\d+) files \(\d+ rendered, (\d+) written, \d+ unchanged, \d+ removed;/),
            let total = Int(match.1), let written = Int(match.2)
        else { return nil }
        return (written, total)
    }

    @Test func anIncrementalBuildWritesOnlyWhatAnEditChangedAndMatchesAFullBuild() async throws {
        try await NightlyHarness.with { nightly in try await Self.incrementalBuildMatchesAFullBuild(nightly) }
    }

    @Test func onPostgreSQLAnIncrementalBuildWritesOnlyWhatAnEditChangedAndMatchesAFullBuild() async throws {
        try await NightlyHarness.withPostgres { nightly in try await Self.incrementalBuildMatchesAFullBuild(nightly) }
    }

    /// Crawls the demo, builds twice (nothing written the second time), edits one post's title upstream, crawls
    /// `--full`, rebuilds incrementally and compares with a full build of the same store into a fresh folder.
    static func incrementalBuildMatchesAFullBuild(_ nightly: NightlyHarness) async throws {
        let store = nightly.storeURL ?? nightly.store
        #expect(try await nightly.run().0.status == 0)
        let site = nightly.folder.appendingPathComponent("incremental")
        func build(into folder: URL) async throws -> (written: Int, total: Int) {
            let result = try await CommandRunner.run(
                ["build", "--store", store, "--out", folder.path] + NightlyHarness.clock, environment: nightly.storeEnvironment)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            return try #require(Self.counts(of: result.stdout), "stdout: \(result.stdout)")
        }
        let first = try await build(into: site)
        #expect(first.written == first.total && first.total > 200)
        #expect(try await build(into: site).written == 0, "nothing changed, nothing is written")

        // One post deep in the big board gets a new title upstream; a full crawl stores it.
        var changed = nightly.dataset
        let edited = changed.posts(inBoard: NightlyHarness.bigBoard)[70].postId
        let index = try #require(changed.posts.firstIndex { $0.postId == edited })
        changed.posts[index].title += " (고침)"
        await nightly.serve(changed)
        let (crawled, _) = try await nightly.run(["--full"])
        #expect(crawled.status == 0, "stderr: \(crawled.stderr)")
        #expect(crawled.stdout.contains("(0 new, 1 changed, 0 gone)"), "stdout: \(crawled.stdout)")
        #expect(try nightly.rows("SELECT title FROM post WHERE postId = \(edited)") == [[changed.posts[index].title]])

        let rebuilt = try await build(into: site)
        #expect(rebuilt.written > 0 && rebuilt.written < rebuilt.total / 10, "only the few files the edit touches: \(rebuilt)")
        let fresh = nightly.folder.appendingPathComponent("full")
        let full = try await build(into: fresh)
        #expect(full.written == full.total)
        let (incrementalFiles, fullFiles) = (try CommandRunner.files(under: site), try CommandRunner.files(under: fresh))
        #expect(incrementalFiles.keys.sorted() == fullFiles.keys.sorted())
        for (path, data) in fullFiles where incrementalFiles[path] != data {
            Issue.record("\(path) differs between the incremental and the full build")
        }
        #expect(try String(contentsOf: site.appendingPathComponent("posts/\(edited).html"), encoding: .utf8).contains("(고침)"))
    }
}
