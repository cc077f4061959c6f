import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The real PostgreSQL server `./test.sh` starts (scripts/postgres-server.sh), as its variables describe it.
///
/// The store tests never skip: without the server they fail and say how to start it.
struct PostgresTestServer {
    let url: PostgresStoreURL
    let password: PostgresPassword?

    /// The server of this test run, or nil after recording why there is none.
    static func current(sourceLocation: SourceLocation = #_sourceLocation) -> PostgresTestServer? {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["BOARDARCHIVE_TEST_POSTGRES_URL"], let url = try? PostgresStoreURL(parsing: text),
            let file = environment["BOARDARCHIVE_TEST_POSTGRES_PASSWORD_FILE"], let password = try? String(contentsOfFile: file, encoding: .utf8)
        else {
            Issue.record(
                "No PostgreSQL server for the store tests: run ./test.sh, or `scripts/postgres-server.sh start pg.env && . pg.env` first.",
                sourceLocation: sourceLocation)
            return nil
        }
        return PostgresTestServer(url: url, password: PostgresPassword(password.trimmingCharacters(in: .newlines)))
    }

    /// A connector to the test database, or to `database` on the same server.
    func connector(database: String? = nil, tlsMode: PostgresStoreURL.TLSMode? = nil, password: PostgresPassword?? = nil) -> PostgresConnector {
        var target = url
        if let database { target.database = database }
        if let tlsMode { target.tlsMode = tlsMode }
        return PostgresConnector(url: target, password: password ?? self.password)
    }

    /// Runs `body` with a new, empty database on the server, dropped afterwards.
    func withFreshDatabase(_ body: (PostgresConnector) throws -> Void) throws {
        let (connector, drop) = try makeFreshDatabase()
        defer { drop() }
        try body(connector)
    }
}
