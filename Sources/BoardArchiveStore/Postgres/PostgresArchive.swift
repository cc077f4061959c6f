import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The archive store in a PostgreSQL database: opening it, its schema and what `store check` reports.
///
/// Opening connects (see ``PostgresConnector``), then checks the schema the way the SQLite store does: a database
/// without the archive's tables is created when `creating`, else refused as missing; migrations this build does not
/// know are refused as a newer schema; missing ones are applied, in one transaction under an advisory lock so that two
/// machines opening a new archive at once do not both create it. The crawl and `redact` write through it as an
/// ``ArchiveDatabase`` (`PostgresArchive+Database.swift`); the build reads a ``PostgresSnapshot`` on a connection of its own.
public final class PostgresArchive: Sendable {
    public let url: PostgresStoreURL
    /// The connection, replaced when a crawl reconnects; its lock is held for a whole transaction.
    let session: PostgresSession
    let logger: Logger
    /// How this archive connected, for the connections of its snapshots.
    let connector: PostgresConnector

    /// The key of the advisory lock held while the schema is created or migrated (any fixed 64-bit number).
    static let schemaLockKey: Int64 = 0x426F_6172_6441_7263

    /// How long a write waits for a server that went away to come back (reconnecting with backoff) before it fails;
    /// zero for every command but the crawl.
    let reconnectWindow: Duration

    private init(connector: PostgresConnector, connection: PostgresConnection, reconnectWindow: Duration = .zero) {
        url = connector.url
        session = PostgresSession(connection: connection)
        self.reconnectWindow = reconnectWindow
        logger = connector.logger
        self.connector = connector
    }

    /// Connects and checks the schema; when `migrating`, applies the migrations it lacks (and, when `creating`, creates
    /// it in a database without one). Without `migrating` nothing is written: an older schema is refused
    /// (`olderSchema`) and a database without the archive's tables too (`notAnArchive`), as `store check` needs.
    /// With a `reconnectWindow` (the crawl's), a write that loses the server reconnects with backoff for that long.
    public static func open(
        _ connector: PostgresConnector, creating: Bool, migrating: Bool = true, reconnectWindow: Duration = .zero
    ) throws -> PostgresArchive {
        let archive = PostgresArchive(connector: connector, connection: try connector.connect(), reconnectWindow: reconnectWindow)
        do {
            try archive.prepareSchema(creating: creating && migrating, migrating: migrating)
            return archive
        } catch {
            archive.close()
            throw error
        }
    }

    /// Connects without looking at the schema (for maintenance: creating or dropping databases in tests).
    static func connectOnly(_ connector: PostgresConnector) throws -> PostgresArchive {
        PostgresArchive(connector: connector, connection: try connector.connect())
    }

    deinit {
        close()
    }

    /// Closes the connection (again: a no-op).
    public func close() {
        session.withLock { try? $0.connection.close().wait() }
    }

    /// The migrations applied, in order; empty when the database holds no archive.
    func appliedMigrations() throws -> [String] {
        let exists = try rows("SELECT to_regclass('\(Self.migrationTable)') IS NOT NULL") { try $0.decode(Bool.self) }
        guard exists.first == true else { return [] }
        return try rows("SELECT identifier FROM \(Self.migrationTable) ORDER BY position") { try $0.decode(String.self) }
    }

    private func prepareSchema(creating: Bool, migrating: Bool) throws {
        let known = Self.migrations.map(\.identifier)
        let applied = try appliedMigrations()
        if applied.contains(where: { !known.contains($0) }) {
            throw StoreError(location: url.description, reason: .newerSchema(found: applied.count, supported: known.count))
        }
        guard applied.count < known.count else { return }
        if !migrating {
            let reason: StoreError.Reason = applied.isEmpty ? .notAnArchive : .olderSchema(found: applied.count, supported: known.count)
            throw StoreError(location: url.description, reason: reason)
        }
        guard creating || !applied.isEmpty else {
            throw StoreError(location: url.description, reason: .missing(detail: "holds no archive (no archive tables)"))
        }
        try transaction {
            try execute("SELECT pg_advisory_xact_lock(\(Self.schemaLockKey))")
            if let schema = url.schema { try execute("CREATE SCHEMA IF NOT EXISTS \(schema)") }
            try execute(
                "CREATE TABLE IF NOT EXISTS \(Self.migrationTable) (position INTEGER PRIMARY KEY, identifier TEXT NOT NULL UNIQUE, "
                    + "appliedAt DOUBLE PRECISION NOT NULL)")
            // Read again under the lock: another machine may have migrated meanwhile.
            let done = Set(try rows("SELECT identifier FROM \(Self.migrationTable)") { try $0.decode(String.self) })
            if done.contains(where: { !known.contains($0) }) {
                throw StoreError(location: url.description, reason: .newerSchema(found: done.count, supported: known.count))
            }
            for (position, migration) in Self.migrations.enumerated() where !done.contains(migration.identifier) {
                for statement in migration.statements { try execute(statement) }
                try execute(
                    "INSERT INTO \(Self.migrationTable) (position, identifier, appliedAt) VALUES (\(position + 1), '\(migration.identifier)', "
                        + "extract(epoch FROM clock_timestamp()))")
            }
        }
    }

    /// The schema version (the number of migrations applied).
    public func schemaVersion() throws -> Int { try appliedMigrations().count }

    /// The number of boards and posts held (removed posts included), and the server's version.
    public func summary() throws -> (boards: Int, posts: Int, server: String) {
        let counts = try rows("SELECT (SELECT COUNT(*) FROM board), (SELECT COUNT(*) FROM post), current_setting('server_version')") {
            let (boards, posts, server) = try $0.decode((Int64, Int64, String).self)
            return (Int(boards), Int(posts), server)
        }
        guard let first = counts.first else { throw StoreError(location: url.description, reason: .query("no answer to a count")) }
        return first
    }

    // MARK: Statements

    /// Runs `sql` with `binds` and discards its rows.
    func execute(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws {
        _ = try rows(sql, binds) { _ in () }
    }

    /// Runs `sql` with `binds` and decodes every row with `decode`.
    func rows<T>(_ sql: String, _ binds: PostgresBindings = PostgresBindings(), _ decode: (PostgresRow) throws -> T) throws -> [T] {
        try session.withLock { try $0.connection.rows(sql, binds, location: url.description, logger: logger, decode) }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. No other statement runs
    /// on the connection meanwhile (the crawl writes boards from several tasks).
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try session.withLock { session in
            try execute("BEGIN")
            session.depth += 1
            defer { session.depth -= 1 }
            do {
                let result = try body()
                try execute("COMMIT")
                return result
            } catch {
                try? execute("ROLLBACK")
                throw error
            }
        }
    }

    /// A cell as a ``StoredValue``: integers and flags as integers, real numbers as reals, anything else as text.
    static func value(_ cell: PostgresCell) throws -> StoredValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8: return .integer(try cell.decode(Int.self))
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .float4, .float8: return .real(try cell.decode(Double.self))
        case .bytea: return .blob(Array(try cell.decode(ByteBuffer.self).readableBytesView))
        default: return .text(try cell.decode(String.self))
        }
    }

    /// `values` as parameters, in order.
    static func bind(_ values: [StoredValue]) -> PostgresBindings {
        var binds = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: binds.appendNull()
            case .integer(let number): binds.append(number)
            case .real(let number): binds.append(number)
            case .text(let text): binds.append(text)
            case .blob(let bytes): binds.append(ByteBuffer(bytes: bytes))
            }
        }
        return binds
    }

    /// The server's message for a failed statement, or the error's code.
    static func plainReason(_ error: PSQLError) -> String {
        error.serverInfo?[.message] ?? "\(error.code)"
    }

    /// `error` as a ``StoreError``: a connection the server closed or lost (its shutdown, a crash, the network) is
    /// `unreachable`, so it exits 69 like a server that cannot be reached; anything else is a failed `query`.
    static func storeError(_ error: PSQLError, location: String) -> StoreError {
        // A statement queued on a connection that closed under it fails as `clientClosedConnection`: lost as well.
        let lost: Set<PSQLError.Code> = [.serverClosedConnection, .uncleanShutdown, .connectionError, .clientClosedConnection]
        // 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now.
        let shutdown = ["57P01", "57P02", "57P03"].contains(error.serverInfo?[.sqlState] ?? "")
        guard lost.contains(error.code) || shutdown else { return StoreError(location: location, reason: .query(plainReason(error))) }
        return StoreError(location: location, reason: .unreachable("the server closed the connection: \(plainReason(error))"))
    }
}
