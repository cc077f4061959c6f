import BoardArchive
import FixtureAPI
import Foundation
import GRDB
import Testing

/// A run that expects an archive never starts a new one silently, a store value is never mistaken for a path, two
/// crawls never share one SQLite store, and `store backup` makes a copy that builds the same site.
@Suite("Store safety end to end", .serialized)
struct StoreSafetyCommandTests {
    /// The stderr lines that are errors.
    static func errorLines(_ result: CommandRunner.Result) -> [Substring] {
        result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
    }

    @Test(arguments: [
        (["--no-create-store"], [String: String]()),
        ([], ["BOARDARCHIVE_STORE_CREATE": "false"]),
    ])
    func aMissingStoreIsRefusedInNightlyModeWithTheSiteUntouched(flags: [String], environment: [String: String]) async throws {
        try await NightlyHarness.with { nightly in
            let (first, _) = try await nightly.run(command: "export")
            #expect(first.status == 0, "stderr: \(first.stderr)")
            let site = try nightly.siteSnapshot()
            // The cache was lost: the store and its WAL files are gone.
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: nightly.store + suffix) }
            let (refused, requests) = try await nightly.run(flags, command: "export", environment: environment)
            #expect(refused.status == 73, "stderr: \(refused.stderr)")
            #expect(Self.errorLines(refused).count == 1)
            #expect(refused.stderr.contains("The archive store \(nightly.store) does not exist, so nothing was crawled, changed or published"))
            #expect(requests == 0)
            #expect(!FileManager.default.fileExists(atPath: nightly.store))
            try nightly.expectSiteUnchanged(since: site)
        }
    }

    @Test func anEmptyFileOrANonArchiveIsRefusedInNightlyModeAndLeftAsItWas() async throws {
        try await NightlyHarness.with { nightly in
            FileManager.default.createFile(atPath: nightly.store, contents: Data())
            let (empty, _) = try await nightly.run(["--no-create-store"])
            #expect(empty.status == 73 && empty.stderr.contains("is an empty file, so nothing was crawled"), "stderr: \(empty.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: nightly.store)).isEmpty)
            // Created by hand: a SQLite file without the archive's tables.
            try FileManager.default.removeItem(atPath: nightly.store)
            let other = try DatabaseQueue(path: nightly.store)
            try await other.write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
            try other.close()
            let (foreign, _) = try await nightly.run(["--no-create-store"])
            #expect(foreign.status == 73 && foreign.stderr.contains("holds no archive (no archive tables)"), "stderr: \(foreign.stderr)")
            let tables = try await DatabaseQueue(path: nightly.store).read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master") }
            #expect(tables == ["notes"])
            // The same store is created when the run says it is a new archive.
            let (created, _) = try await nightly.run(["--create-store"])
            #expect(created.status == 0, "stderr: \(created.stderr)")
        }
    }

    @Test func theSettingInTheConfigurationFileRefusesAMissingStoreToo() async throws {
        try await NightlyHarness.with { nightly in
            let config = nightly.folder.appendingPathComponent("boardarchive.yaml")
            try "store: archive.sqlite\nstore.create: false\n".write(to: config, atomically: true, encoding: .utf8)
            let result = try await CommandRunner.run(
                ["crawl", "--api", nightly.server.baseURL.absoluteString, "--config", config.path],
                environment: ["BOARD_API_TOKEN": NightlyHarness.token])
            #expect(result.status == 73, "stderr: \(result.stderr)")
            #expect(result.stderr.contains("archive.sqlite does not exist"))
            #expect(!FileManager.default.fileExists(atPath: nightly.store))
        }
    }

    @Test(arguments: [
        ("mysql://archiver:hunter2-secret@db.example:3306/archive", "does not know the scheme mysql://"),
        ("postgres://archiver:hunter2-secret@127.0.0.1:5432/archive", "(it holds a password, which belongs in PGPASSWORD, ~/.pgpass"),
        ("postgresql://archiver:hunter2-secret@127.0.0.1/archive", "(it holds a password, which belongs in PGPASSWORD, ~/.pgpass"),
    ])
    func aStoreURLIsNeverTakenForAPath(store: String, message: String) async throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for command in [["crawl", "--api", "http://127.0.0.1:9/api"], ["redact", "--list"], ["store", "backup", "--to", "b.sqlite"]] {
            let result = try await CommandRunner.run(command + ["--store", store], in: folder)
            #expect(result.status == 64, "\(command): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(command): \(result.stderr)")
            #expect(Self.errorLines(result).count == 1, "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("hunter2") && !result.stdout.contains("hunter2"), "\(command): the password was shown")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "a folder or file was created for the URL")
        let variable = try await CommandRunner.run(["build"], environment: ["BOARDARCHIVE_STORE": store], in: folder)
        #expect(variable.status == 64 && variable.stderr.contains("BOARDARCHIVE_STORE must be"), "stderr: \(variable.stderr)")
    }

    @Test func aPostgresURLIsNeverTakenForAPathAndStoreBackupSendsItToPgDump() async throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = "postgres://archiver@127.0.0.1:1/archive"
        // Crawl and redact work on PostgreSQL: a server that is not there is exit 69, one sentence.
        for command in [["crawl", "--api", "http://127.0.0.1:9/api"], ["redact", "--list"]] {
            let result = try await CommandRunner.run(command + ["--store", store], environment: ["BOARD_API_TOKEN": "token"], in: folder)
            #expect(result.status == 69, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("The PostgreSQL server of the store \(store) cannot be reached"), "\(result.stderr)")
        }
        let backup = try await CommandRunner.run(["store", "backup", "--to", "b.sqlite", "--store", store], in: folder)
        #expect(backup.status == 64, "\(backup.stderr)")
        #expect(backup.stderr.contains("store backup copies SQLite files only; back it up with pg_dump"), "\(backup.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "a folder or file was created for the URL")
    }

    @Test func aFileURLNamesASQLiteFile() async throws {
        try await NightlyHarness.with { nightly in
            let (crawled, _) = try await nightly.run()
            #expect(crawled.status == 0, "stderr: \(crawled.stderr)")
            let result = try await CommandRunner.run(["redact", "--list", "--store", URL(fileURLWithPath: nightly.store).absoluteString])
            #expect(result.status == 0 && result.stdout == "No redactions.\n", "stderr: \(result.stderr)")
        }
    }

    @Test func demoKeepsItsArchiveInTheStoreTheConfigurationNamesButNeverInARealSourcesArchive() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("boardarchive-demo-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("store: kept/demo.sqlite\n".utf8).write(to: folder.appendingPathComponent("boardarchive.yaml"))
        // The store boardarchive.yaml names is where the demo keeps its archive, and a second demo reuses it.
        for _ in 0..<2 {
            let demo = try await CommandRunner.run(["demo", "--out", "demo-site"], in: folder)
            #expect(demo.status == 0, "stderr: \(demo.stderr)")
        }
        let kept = try ArchiveStore(path: folder.appendingPathComponent("kept/demo.sqlite").path, creating: false)
        #expect(try kept.boards().count == 6 && kept.crawledSources().count == 2)
        // A store holding an archive crawled from a real source is left untouched: the demo's boards would mark its boards gone.
        let real = folder.appendingPathComponent("real.sqlite").path
        let archive = try ArchiveStore(path: real)
        let queue = try DatabaseQueue(path: real)
        try await queue.write { db in
            try db.execute(
                sql: "INSERT INTO crawl_run (api, startedAt, status, pageSize) VALUES ('https://board.example.com/api/v2', 0, 'completed', 30)")
        }
        try queue.close()
        let refused = try await CommandRunner.run(["demo", "--out", "real-site", "--store", real], in: folder)
        #expect(refused.status == 73, "stderr: \(refused.stderr)")
        #expect(refused.stderr.contains("holds an archive crawled from https://board.example.com/api/v2, so demo left it untouched"))
        #expect(Self.errorLines(refused).count == 1)
        #expect(try archive.boards().isEmpty && archive.crawledSources() == ["https://board.example.com/api/v2"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("real-site").path))
        // The same when the variable names it (it beats boardarchive.yaml).
        let byVariable = try await CommandRunner.run(["demo", "--out", "real-site"], environment: ["BOARDARCHIVE_STORE": real], in: folder)
        #expect(byVariable.status == 73 && byVariable.stderr.contains("so demo left it untouched"), "stderr: \(byVariable.stderr)")
        #expect(try archive.boards().isEmpty)
    }

    @Test func aSecondCrawlOfAStoreThatACrawlHoldsSaysWhoHoldsIt() async throws {
        try await NightlyHarness.with(faults: FixtureFaults(latency: 200)) { nightly in
            let paging = ["--page-size", "5", "--concurrency", "1", "--verify-fraction", "0"]
            let first = try nightly.start(paging)
            while await nightly.server.requestCount < 2 { try await Task.sleep(for: .milliseconds(10)) }
            let (second, _) = try await nightly.run()
            #expect(second.status == 73, "stderr: \(second.stderr)")
            #expect(
                second.stderr.contains("is being crawled by boardarchive process \(first.process.processIdentifier) on "), "stderr: \(second.stderr)")
            #expect(second.stderr.contains("wait for that crawl to finish (or stop it), then run this one again"))
            #expect(Self.errorLines(second).count == 1)
            first.send(SIGKILL)
            _ = await first.wait()
            // The kernel dropped the killed crawl's lock: the next crawl resumes its run.
            let (resumed, _) = try await nightly.run(paging)
            #expect(resumed.status == 0, "stderr: \(resumed.stderr)")
            #expect(resumed.stdout.contains("resumed an interrupted run"))
            try nightly.expectStoreHoldsTheSource()
        }
    }

    @Test func aBackupIsACheckedCopyThatBuildsTheSameSite() async throws {
        try await NightlyHarness.with { nightly in
            let (crawled, _) = try await nightly.run()
            // Never over the store itself.
            let onItself = try await CommandRunner.run(["store", "backup", "--store", nightly.store, "--to", nightly.store])
            #expect(onItself.status == 64 && onItself.stderr.contains("would replace the store itself, so nothing was written"), "\(onItself.stderr)")
            #expect(crawled.status == 0, "stderr: \(crawled.stderr)")
            let backup = nightly.folder.appendingPathComponent("backups/archive-backup.sqlite").path
            let result = try await CommandRunner.run(["store", "backup", "--store", nightly.store, "--to", backup])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("212 posts") && result.stdout.contains("integrity_check ok"))
            var sites: [[String: Data]] = []
            for (store, out) in [(nightly.store, "site-a"), (backup, "site-b")] {
                let site = nightly.folder.appendingPathComponent(out).path
                let built = try await CommandRunner.run(["build", "--store", store, "--out", site] + NightlyHarness.clock)
                #expect(built.status == 0, "stderr: \(built.stderr)")
                sites.append(try CommandRunner.files(under: URL(fileURLWithPath: site)))
            }
            #expect(sites[0].count > 200 && sites[0] == sites[1])
            let missing = try await CommandRunner.run([
                "store", "backup", "--store", nightly.folder.appendingPathComponent("no.sqlite").path, "--to", backup,
            ])
            #expect(missing.status == 73 && missing.stderr.contains("does not exist"), "stderr: \(missing.stderr)")
            #expect(!FileManager.default.fileExists(atPath: nightly.folder.appendingPathComponent("no.sqlite").path))
        }
    }
}
