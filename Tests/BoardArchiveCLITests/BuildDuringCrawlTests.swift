import BoardArchive
import FixtureAPI
import Foundation
import GRDB
import Testing

/// A build while a crawl commits pages publishes one committed state of the store, never a mix: the site it makes is
/// the site a full build makes of the store as it was at one moment.
@Suite("A build during a crawl", .serialized)
struct BuildDuringCrawlTests {
    @Test func theSiteBuiltDuringACrawlIsAFullBuildOfOneCommittedState() async throws {
        try await NightlyHarness.with(faults: FixtureFaults(latency: 300)) { nightly in
            // A first crawl, slowed down: a page of five posts about every 300 ms, each page committed on its own.
            let crawl = try nightly.start(["--page-size", "5", "--concurrency", "2", "--verify-fraction", "0"])
            while await nightly.server.requestCount < 12 { try await Task.sleep(for: .milliseconds(10)) }
            let during = nightly.folder.appendingPathComponent("during").path
            let built = try await CommandRunner.run(["build", "--store", nightly.store, "--out", during] + NightlyHarness.clock)
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
            for row in try nightly.rows("SELECT postIds FROM page_checkpoint ORDER BY rowid") {
                committed.formUnion(row[0].split(separator: ",").compactMap { Int($0) })
                states.append(committed)
            }
            #expect(states.contains(seen), "the posts the build saw are not the posts of any prefix of the crawl's commits")
            // That committed state, rebuilt: the finished store without the posts committed after the snapshot (a first
            // crawl only adds posts), built in full, gives the same site byte for byte.
            let then = nightly.folder.appendingPathComponent("then.sqlite").path
            try FileManager.default.copyItem(atPath: nightly.store, toPath: then)
            let queue = try DatabaseQueue(path: then)
            try await queue.write { db in
                try db.execute(
                    sql: "DELETE FROM post WHERE postId NOT IN (SELECT value FROM json_each(?))",
                    arguments: [
                        "[" + seen.map(String.init).joined(separator: ",") + "]"
                    ])
            }
            try queue.close()
            let rebuilt = nightly.folder.appendingPathComponent("rebuilt").path
            let full = try await CommandRunner.run(["build", "--store", then, "--out", rebuilt] + NightlyHarness.clock)
            #expect(full.status == 0, "stderr: \(full.stderr)")
            let expected = try CommandRunner.files(under: URL(fileURLWithPath: rebuilt))
            #expect(site.keys.sorted() == expected.keys.sorted())
            for (path, data) in expected { #expect(site[path] == data, "\(path) differs from a full build of the state it was built from") }
        }
    }
}
