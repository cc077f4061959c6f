import Foundation
import GRDB

/// The SQLite store as an ``ArchiveDatabase``: transactions through GRDB (statements cached by their SQL), locks
/// granted at once (one crawl holds the whole file, see ``CrawlLease``).
extension ArchiveStore: ArchiveDatabase {
    public func transact<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try write { db in try body(SQLiteTransaction(db: db)) }
    }

    public func readOnly<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try read { db in try body(SQLiteTransaction(db: db)) }
    }

    public func tryLock(_ lock: ArchiveLock) throws -> String? { nil }

    public func unlock(_ lock: ArchiveLock) throws {}

    public func leaseForCrawl(at date: Date) throws -> CrawlLease {
        location == ":memory:" ? .none : try CrawlLease.acquire(forStoreAt: location, at: date)
    }

    /// Nothing: after ``wipeFreedSpace()`` the store's file and WAL keep no byte of a purged post.
    public var purgeLeftovers: String? { nil }

    /// Rewrites the store file without free pages and empties its WAL, so that no byte of a purged post survives in
    /// either (`secure_delete` is on for every connection, so freed cells are zeroed too).
    public func wipeFreedSpace() throws {
        do {
            try writer.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM")
                if location != ":memory:" { try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            }
        } catch {
            throw StoreError(location: location, reason: .query(Self.plainReason(error)))
        }
    }
}

/// A GRDB transaction as a ``StoreTransaction``.
struct SQLiteTransaction: StoreTransaction {
    let db: Database

    func rows(_ sql: String, _ arguments: [StoredValue]) throws -> [[StoredValue]] {
        let statement = try db.cachedStatement(sql: sql)
        let values = StatementArguments(arguments.map(SQLiteCopyEndpoint.databaseValue))
        return try Row.fetchAll(statement, arguments: values).map { row in row.databaseValues.map(SQLiteCopyEndpoint.value) }
    }
}
