import BoardArchive
import FixtureAPI
import Foundation
import GRDB
import Testing

/// A build while a crawl commits pages publishes one committed state of the store, never a mix: the site it makes is
/// the site a full build makes of the store as it was at one moment. On SQLite the build reads one WAL snapshot; on
/// PostgreSQL one read-only REPEATABLE READ transaction.
@Suite("A build during a crawl", .serialized)
struct BuildDuringCrawlTests {
    /// What differs between the backends: the page commits in commit order, and a copy of the finished store cut back
    /// to the posts a build saw. The harness runs the commands and reads rows on either.
    struct Backend {
        /// The post ids of every page checkpoint, in the order the pages were committed.
        let commits: () throws -> [String]
        /// A copy of the finished store holding only `posts`, as a `--store` argument.
        let copyHolding: (_ posts: Set<Int>) async throws -> String
    }

    @Test func onSQLiteTheSiteBuiltDuringACrawlIsAFullBuildOfOneCommittedState() async throws {
        try await NightlyHarness.with(faults: FixtureFaults(latency: 300)) { nightly in
            let backend = Backend(
                // SQLite writes one transaction at a time: rowid order is commit order.
                commits: { try nightly.rows("SELECT postIds FROM page_checkpoint ORDER BY rowid").map { $0[0] } },
                copyHolding: { posts in
                    let then = nightly.folder.appendingPathComponent("then.sqlite").path
                    try FileManager.default.copyItem(atPath: nightly.store, toPath: then)
                    let queue = try DatabaseQueue(path: then)
                    try await queue.write { db in
                        try db.execute(sql: "DELETE FROM post WHERE postId NOT IN (SELECT value FROM json_each(?))", arguments: [Self.list(posts)])
                    }
                    try queue.close()
                    return then
                })
            try await Self.buildDuringACrawl(nightly, backend)
        }
    }

    @Test func onPostgreSQLTheSiteBuiltDuringACrawlIsAFullBuildOfOneCommittedState() async throws {
        try await NightlyHarness.withPostgres(faults: FixtureFaults(latency: 300)) { nightly in
            let (server, database) = try #require(nightly.postgres)
            let url = try #require(nightly.storeURL)
            let backend = Backend(
                // The crawl's transactions run one at a time on its one connection: the order of their transaction
                // ids is commit order.
                commits: { try nightly.rows("SELECT postIds FROM page_checkpoint ORDER BY xmin::text::bigint").map { $0.first ?? "" } },
                copyHolding: { posts in
                    let then = database + "_then"
                    try await PostgresCLIServer.copyDatabase(server, database, to: then)
                    _ = try PostgresCLIServer.psql(
                        server, "DELETE FROM post WHERE NOT (postId = ANY ('{\(posts.map(String.init).joined(separator: ","))}'::bigint[]))",
                        database: then)
                    return url + "_then"
                })
            defer { _ = try? PostgresCLIServer.psql(server, "DROP DATABASE IF EXISTS \(database)_then WITH (FORCE)") }
            try await Self.buildDuringACrawl(nightly, backend)
        }
    }

    static func list(_ posts: Set<Int>) -> String { "[" + posts.map(String.init).joined(separator: ",") + "]" }

    /// Builds while a slowed first crawl commits pages, then checks that the site is a full build of one committed state.
    static func buildDuringACrawl(_ nightly: NightlyHarness, _ backend: Backend) async throws {
        // A first crawl, slowed down: a page of five posts about every 300 ms, each page committed on its own.
        // Pictures off: they are fetched after the boards, so the finished store would hold pictures no mid-crawl state had.
        let crawl = try nightly.start(["--page-size", "5", "--concurrency", "2", "--verify-fraction", "0", "--media", "off"])
        while await nightly.server.requestCount < 12 { try await Task.sleep(for: .milliseconds(10)) }
        let during = nightly.folder.appendingPathComponent("during").path
        // The build pauses after its first board for about three page commits of the crawl: a build that read the
        // store's latest state statement by statement, not one snapshot, would publish a mix.
        let built = try await CommandRunner.run(
            ["build", "--store", nightly.storeURL ?? nightly.store, "--out", during] + NightlyHarness.clock,
            environment: nightly.storeEnvironment.merging(["BOARDARCHIVE_TEST_BUILD_PAUSE_MS": "1000"]) { $1 })
        #expect(built.status == 0, "stderr: \(built.stderr)")
        let finished = await crawl.wait()
        #expect(finished.status == 0, "stderr: \(finished.stderr)")
        // The posts the build saw: its post pages.
        let site = try CommandRunner.files(under: URL(fileURLWithPath: during))
        let seen = Set(
            site.keys.compactMap { path -> Int? in
                guard path.hasPrefix("posts/"), path.hasSuffix(".html") else { return nil }
                return Int(path.dropFirst(6).dropLast(5))
            })
        let all = try nightly.rows("SELECT postId FROM post").compactMap { Int($0[0]) }
        #expect(!seen.isEmpty && seen.count < all.count, "the build ran in the middle of the crawl: \(seen.count) of \(all.count) posts")
        // A committed state of a first crawl is a prefix of its page commits (each page and its checkpoint in one
        // transaction): the posts the build saw are exactly the posts of the first so many pages, never a mix.
        var committed = Set<Int>()
        var states: [Set<Int>] = [committed]
        for postIds in try backend.commits() {
            committed.formUnion(postIds.split(separator: ",").compactMap { Int($0) })
            states.append(committed)
        }
        #expect(states.contains(seen), "the posts the build saw are not the posts of any prefix of the crawl's commits")
        // That committed state, rebuilt: the finished store without the posts committed after the snapshot (a first
        // crawl only adds posts), built in full, gives the same site byte for byte.
        let then = try await backend.copyHolding(seen)
        let rebuilt = nightly.folder.appendingPathComponent("rebuilt").path
        let full = try await CommandRunner.run(
            ["build", "--store", then, "--out", rebuilt] + NightlyHarness.clock, environment: nightly.storeEnvironment)
        #expect(full.status == 0, "stderr: \(full.stderr)")
        let expected = try CommandRunner.files(under: URL(fileURLWithPath: rebuilt))
        #expect(site.keys.sorted() == expected.keys.sorted())
        for (path, data) in expected { #expect(site[path] == data, "\(path) differs from a full build of the state it was built from") }
    }
}
