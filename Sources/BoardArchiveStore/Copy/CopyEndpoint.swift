import Foundation
import GRDB
import PostgresNIO

/// A store as `store copy` reads and writes it, table by table in key order.
protocol CopyEndpoint: AnyObject {
    var location: String { get }
    /// Rows of `table` after `key` (nil: from the first) in key order, at most `limit`.
    func rows(of table: ArchiveTable, after key: [StoredValue]?, limit: Int) throws -> [[StoredValue]]
    /// The greatest key of `table`, or nil when it is empty.
    func lastKey(of table: ArchiveTable) throws -> [StoredValue]?
    /// Writes `rows` (a row whose key is already there replaces it) in one transaction.
    func write(_ rows: [[StoredValue]], to table: ArchiveTable) throws
    /// After the last table: what the store needs so that rows it makes later get new ids.
    func finish() throws
}

extension ArchiveTable {
    /// `INSERT … ON CONFLICT (key) DO UPDATE` of `rows` rows, with parameters numbered by `placeholder` (SQLite and
    /// PostgreSQL both read this upsert); an update sets `updates` (default: every column but the key to the new row's).
    func upsertSQL(rows: Int, placeholder: (Int) -> String, updates: [String]? = nil) -> String {
        let tuples = (0..<rows).map { row in
            "(" + columns.indices.map { placeholder(row * columns.count + $0 + 1) }.joined(separator: ", ") + ")"
        }
        let updates = updates ?? columns.filter { !key.contains($0) }.map { "\($0) = excluded.\($0)" }
        let conflict = updates.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + updates.joined(separator: ", ")
        return "INSERT INTO \(name) (\(columns.joined(separator: ", "))) VALUES \(tuples.joined(separator: ", ")) "
            + "ON CONFLICT (\(key.joined(separator: ", "))) \(conflict)"
    }
}

/// A SQLite store's side of a copy: reads from one snapshot, writes through the store's writer.
final class SQLiteCopyEndpoint: CopyEndpoint {
    let reader: any DatabaseReader
    let writer: any DatabaseWriter
    let location: String

    init(store: ArchiveStore, snapshot: Bool) throws {
        reader = snapshot ? try ((store.writer as? DatabasePool)?.makeSnapshot() ?? store.writer) : store.writer
        writer = store.writer
        location = store.location
    }

    static func value(_ value: DatabaseValue) -> StoredValue {
        switch value.storage {
        case .null: .null
        case .int64(let number): .integer(Int(number))
        case .double(let number): .real(number)
        case .string(let text): .text(text)
        case .blob(let data): .blob([UInt8](data))
        }
    }

    static func databaseValue(_ value: StoredValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let bytes): Data(bytes).databaseValue
        }
    }

    func rows(of table: ArchiveTable, after key: [StoredValue]?, limit: Int) throws -> [[StoredValue]] {
        let sql = table.selectSQL(after: key != nil, placeholders: Array(repeating: "?", count: table.key.count), limitPlaceholder: "?")
        let arguments = StatementArguments((key ?? []).map(Self.databaseValue) + [limit.databaseValue])
        return try storeErrors {
            try reader.read { db in
                try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in row.databaseValues.map(Self.value) }
            }
        }
    }

    func lastKey(of table: ArchiveTable) throws -> [StoredValue]? {
        let order = table.key.map { "\($0) DESC" }.joined(separator: ", ")
        return try storeErrors {
            try writer.read { db in
                try Row.fetchOne(db, sql: "SELECT \(table.key.joined(separator: ", ")) FROM \(table.name) ORDER BY \(order) LIMIT 1")
                    .map { $0.databaseValues.map(Self.value) }
            }
        }
    }

    func write(_ rows: [[StoredValue]], to table: ArchiveTable) throws {
        let sql = table.upsertSQL(rows: 1) { _ in "?" }
        try storeErrors {
            try writer.write { db in
                let statement = try db.cachedStatement(sql: sql)
                for row in rows { try statement.execute(arguments: StatementArguments(row.map(Self.databaseValue))) }
            }
        }
    }

    func finish() throws {}

    private func storeErrors<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as DatabaseError {
            throw StoreError(location: location, reason: .query(ArchiveStore.plainReason(error)))
        }
    }
}

/// A PostgreSQL store's side of a copy: reads from a snapshot (its own connection in one REPEATABLE READ transaction),
/// writes on the archive's connection.
final class PostgresCopyEndpoint: CopyEndpoint {
    let archive: PostgresArchive
    let snapshot: PostgresSnapshot?
    var location: String { archive.location }

    init(archive: PostgresArchive, snapshot: Bool) throws {
        self.archive = archive
        self.snapshot = snapshot ? try PostgresSnapshot(connector: archive.connector, pseudonyms: nil) : nil
    }

    /// Runs `sql` on the snapshot (or the archive's connection) and reads every row's cells.
    private func cells(_ sql: String, _ binds: PostgresBindings, onSnapshot: Bool) throws -> [[StoredValue]] {
        if onSnapshot, let snapshot {
            return try snapshot.query(sql, binds) { row in try row.map(PostgresArchive.value) }
        }
        return try archive.rows(sql, binds) { row in try row.makeRandomAccess().map(PostgresArchive.value) }
    }

    func rows(of table: ArchiveTable, after key: [StoredValue]?, limit: Int) throws -> [[StoredValue]] {
        let count = key?.count ?? 0
        let sql = table.selectSQL(after: key != nil, placeholders: (0..<count).map { "$\($0 + 1)" }, limitPlaceholder: "$\(count + 1)")
        return try cells(sql, PostgresArchive.bind((key ?? []) + [.integer(limit)]), onSnapshot: true)
    }

    func lastKey(of table: ArchiveTable) throws -> [StoredValue]? {
        let order = table.key.map { "\($0) DESC" }.joined(separator: ", ")
        let sql = "SELECT \(table.key.joined(separator: ", ")) FROM \(table.name) ORDER BY \(order) LIMIT 1"
        return try cells(sql, PostgresBindings(), onSnapshot: false).first
    }

    func write(_ rows: [[StoredValue]], to table: ArchiveTable) throws {
        // PostgreSQL takes at most 65,535 parameters a statement.
        let perStatement = max(1, 60_000 / table.columns.count)
        try archive.transaction {
            var start = 0
            while start < rows.count {
                let part = rows[start..<min(rows.count, start + perStatement)]
                try archive.execute(table.upsertSQL(rows: part.count) { "$\($0)" }, PostgresArchive.bind(part.flatMap { $0 }))
                start += part.count
            }
        }
    }

    func finish() throws {
        for (table, column) in [("crawl_run", "runid"), ("redaction", "redactionid")] {
            try archive.execute(
                "SELECT setval(pg_get_serial_sequence('\(table)', '\(column)'), COALESCE((SELECT MAX(\(column)) FROM \(table)), 0) + 1, false)")
        }
        // Freshly loaded tables have no statistics and no visibility map: until autovacuum came by, a build's
        // index-only scans fetched every row from the table (the first build after a copy of 100,000 posts took 31 s,
        // the next ones 14 s). VACUUM (ANALYZE) makes the copy ready to build from at once.
        try archive.execute("VACUUM (ANALYZE) \(ArchiveTable.all.map(\.name).joined(separator: ", "))")
    }
}

extension PostgresRandomAccessRow {
    /// The row's cells, each read by `read`.
    func map<T>(_ read: (PostgresCell) throws -> T) throws -> [T] {
        try (0..<count).map { try read(self[$0]) }
    }
}
