import Foundation
import Testing

/// `boardarchive store check` against a real PostgreSQL server and a SQLite file: the password from each of its
/// sources, each failure with its exit code and one sentence, and the password in no output.
@Suite("store check end to end", .serialized)
struct StoreCheckCommandTests {
    /// The test server's URL and password (./test.sh starts it), or nil after recording why there is none.
    static func server() -> (url: String, password: String, passwordFile: String)? {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment["BOARDARCHIVE_TEST_POSTGRES_URL"], let file = environment["BOARDARCHIVE_TEST_POSTGRES_PASSWORD_FILE"],
            let password = try? String(contentsOfFile: file, encoding: .utf8)
        else {
            Issue.record("No PostgreSQL server for the store tests: run ./test.sh, or `scripts/postgres-server.sh start pg.env && . pg.env` first.")
            return nil
        }
        return (url, password.trimmingCharacters(in: .newlines), file)
    }

    @Test func thePasswordComesFromEachOfItsSourcesAndNeverShows() async throws {
        guard let server = Self.server() else { return }
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let passFile = folder.appendingPathComponent("pgpass")
        let host = try #require(URLComponents(string: server.url))
        try "# test\n\(host.host ?? ""):\(host.port ?? 5432):*:archiver:\(server.password)\n".write(to: passFile, atomically: true, encoding: .utf8)
        let empty = folder.appendingPathComponent("empty-pgpass").path
        let sources: [(String, [String], [String: String])] = [
            ("PGPASSWORD", [], ["PGPASSWORD": server.password, "PGPASSFILE": empty]),
            ("store.password-env", ["--store-password-env", "ARCHIVE_DB_PASSWORD"], ["ARCHIVE_DB_PASSWORD": server.password, "PGPASSFILE": empty]),
            ("store.password-file", ["--store-password-file", server.passwordFile], ["PGPASSFILE": empty]),
            ("~/.pgpass", [], ["PGPASSFILE": passFile.path]),
        ]
        for (source, flags, environment) in sources {
            // Run in a fresh database-less state: the test database holds no archive, so check says so (exit 73).
            let result = try await CommandRunner.run(["store", "check", "--store", server.url] + flags, environment: environment, in: folder)
            #expect(result.status == 73, "\(source): \(result.stderr)")
            #expect(result.stderr.contains("holds no archive (no archive tables)"), "\(source): logged in, found no archive: \(result.stderr)")
            #expect(!result.stderr.contains(server.password) && !result.stdout.contains(server.password), "\(source)")
        }
        let none = try await CommandRunner.run(["store", "check", "--store", server.url], environment: ["PGPASSFILE": empty], in: folder)
        #expect(none.status == 77 && none.stderr.contains("the server asks for a password and none was given"), "\(none.stderr)")
    }

    @Test func eachFailureHasItsExitCodeAndOneSentence() async throws {
        guard let server = Self.server() else { return }
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
