import Foundation
import Testing

/// The real PostgreSQL server `./test.sh` starts (scripts/postgres-server.sh), as the command-line tests reach it:
/// its URL and password, `psql` for statements, and fresh databases.
enum PostgresCLIServer {
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

    /// Runs one statement with `psql` as the test user on the test server's `database`; its rows, unaligned.
    static func psql(_ server: (url: String, password: String, passwordFile: String), _ sql: String, database: String = "archive_test") throws
        -> String
    {
        let url = try #require(URLComponents(string: server.url))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [
            "-X", "-q", "-tA", "-v", "ON_ERROR_STOP=1", "-h", url.host ?? "", "-p", "\(url.port ?? 5432)", "-U", "archiver", "-d", database, "-c",
            sql,
        ]
        process.environment = ["PGPASSWORD": server.password, "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "psql \(sql)")
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `body` with the URL of a new, empty database on the test server, dropped afterwards.
    static func withFreshDatabase(_ body: (String) async throws -> Void) async throws {
        guard let server = server() else { return }
        let name = "ba_cli_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased())"
        _ = try psql(server, "CREATE DATABASE \(name)")
        defer { _ = try? psql(server, "DROP DATABASE \(name) WITH (FORCE)") }
        let base = try #require(URLComponents(string: server.url))
        try await body("postgres://archiver@\(base.host ?? ""):\(base.port ?? 5432)/\(name)")
    }

    /// Copies `database` to a new database `copy` (a template copy, once no connection to `database` is left: the
    /// commands that used it have exited, and the server ends their backends a moment later).
    static func copyDatabase(_ server: (url: String, password: String, passwordFile: String), _ database: String, to copy: String) async throws {
        for _ in 0..<100 {
            let connected = try psql(server, "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = '\(database)'")
            if connected == "0" { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        _ = try psql(server, "CREATE DATABASE \(copy) TEMPLATE \(database)")
    }
}
