import FixtureAPI
import Foundation
import Testing

/// `boardarchive crawl` into a PostgreSQL store as a process: killed with SIGKILL and resumed, and two crawls of one
/// archive at once.
@Suite("Crawl into PostgreSQL end to end", .serialized)
struct PostgresCrawlCommandTests {
    static let paging = ["--page-size", "10", "--concurrency", "1", "--verify-fraction", "0"]

    @Test(arguments: ["page-stored:3", "inside-page-transaction:5"])
    func aKilledCrawlResumesWithoutLossOrDuplicates(point: String) async throws {
        guard let server = PostgresCLIServer.server() else { return }
        try await PostgresCLIServer.withFreshDatabase { url in
            try await NightlyHarness.with { nightly in
                nightly.storeURL = url
                let database = String(url.split(separator: "/").last ?? "")
                let environment = ["PGPASSWORD": server.password, "PGPASSFILE": "/dev/null"]
                let (killed, _) = try await nightly.run(Self.paging, environment: environment.merging(["BOARDARCHIVE_TEST_KILL_AT": point]) { $1 })
                #expect(killed.status == SIGKILL, "stderr: \(killed.stderr)")
                #expect(try PostgresCLIServer.psql(server, "SELECT status FROM crawl_run", database: database) == "running")
                let pages = try PostgresCLIServer.psql(server, "SELECT COUNT(*) FROM page_checkpoint", database: database)
                #expect(pages == (point.hasPrefix("page-stored") ? "3" : "4"), "the page being written when killed was rolled back")
                let (resumed, _) = try await nightly.run(Self.paging, environment: environment)
                #expect(resumed.status == 0, "stderr: \(resumed.stderr)")
                #expect(resumed.stdout.contains("resumed an interrupted run"))
                let counts = try PostgresCLIServer.psql(server, "SELECT COUNT(*), COUNT(DISTINCT postId) FROM post", database: database)
                #expect(counts == "\(nightly.dataset.posts.count)|\(nightly.dataset.posts.count)")
            }
        }
    }

    @Test func twoCrawlProcessesOfOneArchiveAtOnceLoseNothing() async throws {
        guard let server = PostgresCLIServer.server() else { return }
        try await PostgresCLIServer.withFreshDatabase { url in
            try await NightlyHarness.with(faults: FixtureFaults(latency: 40)) { nightly in
                nightly.storeURL = url
                let database = String(url.split(separator: "/").last ?? "")
                let environment = ["PGPASSWORD": server.password, "PGPASSFILE": "/dev/null"]
                // The archive exists first (two crawls creating one database's schema at once is the schema lock's
                // business, tested with the store's opening).
                let (created, _) = try await nightly.run(["--page-size", "50"], environment: environment)
                #expect(created.status == 0, "stderr: \(created.stderr)")
                _ = try PostgresCLIServer.psql(server, "DELETE FROM post", database: database)
                let arguments = ["--page-size", "5", "--concurrency", "2", "--full"]
                let first = try nightly.start(arguments, environment: environment)
                let second = try nightly.start(arguments, environment: environment)
                let results = [await first.wait(), await second.wait()]
                for result in results { #expect(result.status == 0, "stderr: \(result.stderr)") }
                let counts = try PostgresCLIServer.psql(server, "SELECT COUNT(*), COUNT(DISTINCT postId) FROM post", database: database)
                #expect(counts == "\(nightly.dataset.posts.count)|\(nightly.dataset.posts.count)")
                let runs = try PostgresCLIServer.psql(server, "SELECT string_agg(status, ',' ORDER BY runId) FROM crawl_run", database: database)
                #expect(runs == "completed,completed,completed")
                // Every board was completed by at least one of the two runs.
                let boards = try PostgresCLIServer.psql(
                    server, "SELECT COUNT(DISTINCT boardId) FROM board_crawl WHERE status = 'completed' AND runId > 1", database: database)
                #expect(boards == "\(nightly.dataset.boards.count)")
            }
        }
    }

    @Test func twoSourcesInTwoSchemasOfOneDatabaseCrawlAtOnceAndKeepApart() async throws {
        guard let server = PostgresCLIServer.server() else { return }
        try await PostgresCLIServer.withFreshDatabase { url in
            // Two sources with the same board ids (the demo, and the demo with 12 more posts): their boards' locks would
            // be one lock if the schemas did not set them apart, and one crawl would skip every board the other holds.
            try await NightlyHarness.with(faults: FixtureFaults(latency: 30)) { first in
                try await NightlyHarness.with(faults: FixtureFaults(latency: 30)) { second in
                    await second.serve(NightlyHarness.withNewPosts(12, in: second.dataset))
                    first.storeURL = url + "?schema=forum_a"
                    second.storeURL = url + "?schema=forum_b"
                    let environment = ["PGPASSWORD": server.password, "PGPASSFILE": "/dev/null"]
                    let arguments = ["--page-size", "10", "--concurrency", "2"]
                    let crawls = [try first.start(arguments, environment: environment), try second.start(arguments, environment: environment)]
                    for crawl in crawls {
                        let result = await crawl.wait()
                        #expect(result.status == 0, "stderr: \(result.stderr)")
                        #expect(!result.stdout.contains("skipped"), "stdout: \(result.stdout)")
                    }
                    let database = String(url.split(separator: "/").last ?? "")
                    for (schema, nightly) in [("forum_a", first), ("forum_b", second)] {
                        let counts = try PostgresCLIServer.psql(
                            server, "SELECT COUNT(*), COUNT(*) FILTER (WHERE goneSince IS NOT NULL) FROM \(schema).post", database: database)
                        #expect(counts == "\(nightly.dataset.posts.count)|0", "\(schema)")
                        let boards = try PostgresCLIServer.psql(
                            server, "SELECT COUNT(*) FILTER (WHERE goneSince IS NULL) FROM \(schema).board", database: database)
                        #expect(boards == "\(nightly.dataset.boards.count)", "\(schema)")
                    }
                    #expect(first.dataset.posts.count != second.dataset.posts.count)
                    // Each archive builds its own source's site.
                    let site = second.folder.appendingPathComponent("site-b")
                    let built = try await CommandRunner.run(
                        ["build", "--store", url + "?schema=forum_b", "--out", site.path] + NightlyHarness.clock, environment: environment)
                    #expect(built.status == 0, "stderr: \(built.stderr)")
                    let pages = try CommandRunner.files(under: site).keys.filter { $0.hasPrefix("posts/") }
                    #expect(pages.count == second.dataset.posts.count)
                    // Nothing of either archive went to `public`.
                    let tables = try PostgresCLIServer.psql(
                        server, "SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'public' AND tablename = 'post'", database: database)
                    #expect(tables == "0")
                }
            }
        }
    }
}
