import Foundation
import Testing

@testable import BoardArchive

/// The two stores every conformance test runs against: SQLite (in memory) and the real PostgreSQL server of the test
/// run (a fresh database per test).
enum StoreBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }
}

/// A store of one backend for one test; `remove()` drops a PostgreSQL test database (call it in a `defer`).
final class TestStore: @unchecked Sendable {
    let database: any ArchiveDatabase & ArchiveSource
    private let cleanup: () -> Void

    init(_ backend: StoreBackend, reconnectWindow: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation) throws {
        switch backend {
        case .sqlite:
            database = try ArchiveStore.inMemory()
            cleanup = {}
        case .postgres:
            guard let server = PostgresTestServer.current(sourceLocation: sourceLocation) else { throw NoPostgresServer() }
            let (connector, drop) = try server.makeFreshDatabase()
            let archive = try PostgresArchive.open(connector, creating: true, reconnectWindow: reconnectWindow)
            database = archive
            cleanup = {
                archive.close()
                drop()
            }
        }
    }

    /// Another connection to the same PostgreSQL database (a second machine), or the same SQLite store.
    func secondConnection() throws -> any ArchiveDatabase & ArchiveSource {
        guard let archive = database as? PostgresArchive else { return database }
        return try PostgresArchive.open(archive.connector, creating: false)
    }

    func remove() { cleanup() }

    struct NoPostgresServer: Error {}
}

extension PostgresTestServer {
    /// A new, empty database on the server and the function that drops it.
    func makeFreshDatabase() throws -> (PostgresConnector, drop: () -> Void) {
        let name = "ba_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased())"
        let admin = try PostgresArchive.connectOnly(connector())
        try admin.execute("CREATE DATABASE \(name)")
        return (
            connector(database: name),
            {
                try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
                admin.close()
            }
        )
    }
}
