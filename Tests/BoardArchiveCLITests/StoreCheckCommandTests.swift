import BoardArchive
import Foundation
import Testing

/// `boardarchive store check` against a real PostgreSQL server and a SQLite file: the password from each of its
/// sources, each failure with its exit code and one sentence, and the password in no output.
@Suite("store check end to end", .serialized)
struct StoreCheckCommandTests {
    @Test func thePasswordComesFromEachOfItsSourcesAndNeverShows() async throws {
        guard let server = PostgresCLIServer.server() else { return }
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let passFile = folder.appendingPathComponent("pgpass")
        let host = try #require(URLComponents(string: server.url))
        try "# test\n\(host.host ?? ""):\(host.port ?? 5432):*:archiver:\(server.password)\n".write(to: passFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passFile.path)
        let empty = folder.appendingPathComponent("empty-pgpass").path
        let sources: [(String, [String], [String: String])] = [
            ("PGPASSWORD", [], ["PGPASSWORD": server.password, "PGPASSFILE": empty]),
            ("store.password-env", ["--store-password-env", "ARCHIVE_DB_PASSWORD"], ["ARCHIVE_DB_PASSWORD": server.password, "PGPASSFILE": empty]),
            ("store.password-file", ["--store-password-file", server.passwordFile], ["PGPASSFILE": empty]),
            ("~/.pgpass", [], ["PGPASSFILE": passFile.path]),
        ]
        for (source, flags, environment) in sources {
            // The test database holds no archive, so check says so (exit 73) once it has logged in.
            let result = try await CommandRunner.run(["store", "check", "--store", server.url] + flags, environment: environment, in: folder)
            #expect(result.status == 73, "\(source): \(result.stderr)")
            #expect(result.stderr.contains("is empty or is not a boardarchive store"), "\(source): logged in, found no archive: \(result.stderr)")
            #expect(!result.stderr.contains(server.password) && !result.stdout.contains(server.password), "\(source)")
        }
        let none = try await CommandRunner.run(["store", "check", "--store", server.url], environment: ["PGPASSFILE": empty], in: folder)
        #expect(none.status == 77 && none.stderr.contains("the server asks for a password and none was given"), "\(none.stderr)")
        // As libpq: a password file others may read is ignored, and says so.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: passFile.path)
        let open = try await CommandRunner.run(["store", "check", "--store", server.url], environment: ["PGPASSFILE": passFile.path], in: folder)
        #expect(open.status == 77, "\(open.stderr)")
        #expect(open.stderr.contains("warning: password file \(passFile.path) can be read by group or others, so it was ignored"), "\(open.stderr)")
        // An empty password file is a configuration error, not a login without a password.
        let emptyFile = folder.appendingPathComponent("empty-password").path
        #expect(FileManager.default.createFile(atPath: emptyFile, contents: Data()))
        let blank = try await CommandRunner.run(["store", "check", "--store", server.url, "--store-password-file", emptyFile], in: folder)
        #expect(blank.status == 64 && blank.stderr.contains("names an empty file; put the password in it"), "\(blank.stderr)")
    }

    @Test func eachFailureHasItsExitCodeAndOneSentence() async throws {
        guard let server = PostgresCLIServer.server() else { return }
        let base = try #require(URLComponents(string: server.url))
        let root = "postgres://archiver@\(base.host ?? ""):\(base.port ?? 5432)"
        let cases: [(String, [String: String], Int32, String)] = [
            (server.url, ["PGPASSWORD": "not-the-password"], 77, "refused the login (password authentication failed"),
            ("\(root)/no_such_archive", ["PGPASSWORD": server.password], 73, "has no database no_such_archive"),
            ("postgres://archiver@127.0.0.1:1/archive", ["PGPASSWORD": server.password], 69, "cannot be reached (connection refused)"),
            ("\(server.url)?sslmode=require", ["PGPASSWORD": server.password], 69, "asks for TLS, but the server does not offer TLS"),
            ("\(server.url)?sslmode=verify-full&sslrootcert=/no/such/ca.pem", ["PGPASSWORD": server.password], 69, "its CA file /no/such/ca.pem"),
        ]
        for (url, environment, status, message) in cases {
            let result = try await CommandRunner.run(
                ["store", "check", "--store", url], environment: environment.merging(["PGPASSFILE": "/dev/null"]) { a, _ in a })
            #expect(result.status == status, "\(url): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(url): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(url): \(result.stderr)")
            #expect(!result.stderr.contains(server.password))
        }
    }

    @Test func aPostgreSQLArchiveIsReportedWithoutBeingChangedAndAnEmptyDatabaseIsNotTakenForOne() async throws {
        guard let server = PostgresCLIServer.server() else { return }
        let name = "ba_check_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased())"
        _ = try PostgresCLIServer.psql(server, "CREATE DATABASE \(name)")
        defer { _ = try? PostgresCLIServer.psql(server, "DROP DATABASE \(name) WITH (FORCE)") }
        let base = try #require(URLComponents(string: server.url))
        let url = "postgres://archiver@\(base.host ?? ""):\(base.port ?? 5432)/\(name)"
        let environment = ["PGPASSWORD": server.password, "PGPASSFILE": "/dev/null"]
        let empty = try await CommandRunner.run(["store", "check", "--store", url], environment: environment)
        #expect(empty.status == 73 && empty.stderr.contains("is empty or is not a boardarchive store"), "\(empty.stderr)")
        #expect(
            try PostgresCLIServer.psql(server, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: name) == "0",
            "check created nothing")
        // An archive: made by the library as a crawl would make it, then reported.
        let archive = try PostgresArchive.open(
            PostgresConnector(url: try PostgresStoreURL(parsing: url), password: PostgresPassword(server.password)), creating: true)
        archive.close()
        let tables = try PostgresCLIServer.psql(
            server, "SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'public'", database: name)
        let checked = try await CommandRunner.run(["store", "check", "--store", url], environment: environment)
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout.hasPrefix("PostgreSQL store \(url): schema version 7, 0 boards, 0 posts (server "), "\(checked.stdout)")
        #expect(!checked.stdout.contains(server.password) && checked.stderr.isEmpty)
        // An older schema (its last migration not applied) is reported, never upgraded, by check.
        _ = try PostgresCLIServer.psql(server, "DELETE FROM boardarchive_migration WHERE position = 7", database: name)
        let older = try await CommandRunner.run(["store", "check", "--store", url], environment: environment)
        #expect(older.status == 73 && older.stderr.contains("has schema version 6, older than this boardarchive needs (7)"), "\(older.stderr)")
        #expect(try PostgresCLIServer.psql(server, "SELECT count(*) FROM boardarchive_migration", database: name) == "6", "check migrated nothing")
        #expect(
            try PostgresCLIServer.psql(
                server, "SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'public'", database: name)
                == tables)
    }

    @Test func aSQLiteStoreIsCheckedWithoutBeingChanged() async throws {
        try await NightlyHarness.with { nightly in
            let (crawled, _) = try await nightly.run()
            #expect(crawled.status == 0, "stderr: \(crawled.stderr)")
            let before = try Data(contentsOf: URL(fileURLWithPath: nightly.store))
            let result = try await CommandRunner.run(["store", "check", "--store", nightly.store])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("6 boards, 212 posts, integrity_check ok"), "\(result.stdout)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: nightly.store)) == before)
            let missing = try await CommandRunner.run(["store", "check", "--store", nightly.folder.appendingPathComponent("none.sqlite").path])
            #expect(missing.status == 73, "\(missing.stderr)")
        }
    }
}
