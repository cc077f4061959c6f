import Foundation
import Testing

/// `store copy` between a SQLite file and a real PostgreSQL server, both ways, and `build` from PostgreSQL: the same
/// archive gives the same site byte for byte from either store.
@Suite("store copy and builds from PostgreSQL end to end", .serialized)
struct StoreCopyCommandTests {
    @Test func anArchiveCopiedToPostgreSQLAndBackBuildsTheSameSiteByteForByte() async throws {
        guard let server = PostgresCLIServer.server() else { return }
        let environment = ["PGPASSWORD": server.password, "PGPASSFILE": "/dev/null"]
        try await NightlyHarness.with { nightly in
            let (crawled, _) = try await nightly.run()
            #expect(crawled.status == 0, "stderr: \(crawled.stderr)")
            // A takedown and a withheld writer, so that redactions and their effect on pages travel too.
            for redaction in [["--post", "1590018", "--reason", "asked"], ["--writer", "강하은", "--mode", "anonymize", "--reason", "left"]] {
                let redacted = try await CommandRunner.run(["redact", "--store", nightly.store] + redaction)
                #expect(redacted.status == 0, "stderr: \(redacted.stderr)")
            }
            let clock = NightlyHarness.clock
            let fromSQLite = nightly.folder.appendingPathComponent("from-sqlite").path
            let built = try await CommandRunner.run(["build", "--store", nightly.store, "--out", fromSQLite] + clock)
            #expect(built.status == 0, "stderr: \(built.stderr)")
            let expected = try CommandRunner.files(under: URL(fileURLWithPath: fromSQLite))
            #expect(expected.count > 200)
            try await PostgresCLIServer.withFreshDatabase { url in
                let copied = try await CommandRunner.run(["store", "copy", "--from", nightly.store, "--to", url], environment: environment)
                #expect(copied.status == 0, "stderr: \(copied.stderr)")
                #expect(copied.stdout.contains("6 boards, 212 posts in 5 boards; every row of 12 tables"), "\(copied.stdout)")
                #expect(copied.stdout.contains("compared equal") && !copied.stdout.contains(server.password))
                let fromPostgres = nightly.folder.appendingPathComponent("from-postgres").path
                let pgBuild = try await CommandRunner.run(["build", "--store", url, "--out", fromPostgres] + clock, environment: environment)
                #expect(pgBuild.status == 0, "stderr: \(pgBuild.stderr)")
                let fromPG = try CommandRunner.files(under: URL(fileURLWithPath: fromPostgres))
                #expect(fromPG.keys.sorted() == expected.keys.sorted())
                for (path, data) in expected { #expect(fromPG[path] == data, "\(path) differs when built from PostgreSQL") }
                // A second copy into the same database is refused with nothing written; --resume goes on and checks.
                let again = try await CommandRunner.run(["store", "copy", "--from", nightly.store, "--to", url], environment: environment)
                #expect(again.status == 73 && again.stderr.contains("already holds rows (board, redaction, crawl_run"), "\(again.stderr)")
                let resumed = try await CommandRunner.run(
                    ["store", "copy", "--from", nightly.store, "--to", url, "--resume"], environment: environment)
                #expect(resumed.status == 0 && resumed.stdout.contains("(resumed)"), "\(resumed.stderr)")
                // And back into a new SQLite file: the same site again.
                let back = nightly.folder.appendingPathComponent("back.sqlite").path
                let home = try await CommandRunner.run(["store", "copy", "--from", url, "--to", back], environment: environment)
                #expect(home.status == 0, "stderr: \(home.stderr)")
                let fromBack = nightly.folder.appendingPathComponent("from-back").path
                let backBuild = try await CommandRunner.run(["build", "--store", back, "--out", fromBack] + clock)
                #expect(backBuild.status == 0, "stderr: \(backBuild.stderr)")
                #expect(try CommandRunner.files(under: URL(fileURLWithPath: fromBack)) == expected, "the site built from the copy brought back")
                // A row changed behind the copy's back is found by the comparison.
                let database = String(url.split(separator: "/").last ?? "")
                _ = try PostgresCLIServer.psql(server, "UPDATE post SET title = 'changed' WHERE postId = 1590005", database: database)
                let mismatched = try await CommandRunner.run(
                    ["store", "copy", "--from", nightly.store, "--to", url, "--resume"], environment: environment)
                #expect(mismatched.status == 73 && mismatched.stderr.contains("post (1590005) differs in title"), "\(mismatched.stderr)")
            }
        }
    }
}
