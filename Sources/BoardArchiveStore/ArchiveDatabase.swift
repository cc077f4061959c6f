import Foundation

/// The writing side of the store seam: an archive store's database, SQLite (``ArchiveStore``) or PostgreSQL
/// (``PostgresArchive``), as the crawler and `redact` use it.
///
/// Their statements are written once, over ``StoreTransaction`` (`ArchiveDatabase+CrawlRuns.swift`, `+Recording`,
/// `+Verification`, `+Redaction`), in SQL both databases read: `?` parameters, `ON CONFLICT … DO UPDATE`, `RETURNING`,
/// `CASE` instead of SQLite's two-argument `max`. A store only runs transactions, takes locks and wipes what a purge
/// freed; it decides nothing about the archive. The reading side the build streams is ``ArchiveSnapshot``.
public protocol ArchiveDatabase: AnyObject, Sendable {
    /// Where the store lives, for messages (a PostgreSQL URL without its password).
    var location: String { get }

    /// Runs `body` in one write transaction: committed when it returns, rolled back when it throws. A PostgreSQL store
    /// opened for a crawl reconnects with backoff when the server goes away and runs `body` again (every write of the
    /// crawl is an upsert by key, so a page stored before the connection broke is not stored twice).
    func transact<T>(_ body: (any StoreTransaction) throws -> T) throws -> T

    /// Runs `body` in a read transaction.
    func readOnly<T>(_ body: (any StoreTransaction) throws -> T) throws -> T

    /// Takes `lock` for this process unless another process holds it; returns nil when taken, else who holds it.
    /// A lock is held until ``unlock(_:)`` or the end of the process (`kill -9` included). SQLite stores, which one
    /// crawl at a time holds whole (``CrawlLease``), grant every lock.
    func tryLock(_ lock: ArchiveLock) throws -> String?

    /// Gives `lock` up.
    func unlock(_ lock: ArchiveLock) throws

    /// The right to crawl into this store for the whole run (a SQLite file's ``CrawlLease``; nothing on PostgreSQL,
    /// where runs and boards are locked one by one).
    func leaseForCrawl(at date: Date) throws -> CrawlLease

    /// After a purge: what the database can do so that no byte of what was purged stays in its files.
    func wipeFreedSpace() throws

    /// Where purged text may still be after ``wipeFreedSpace()``, in one clause for `redact` to say; nil when the
    /// store's own files keep no byte of it (SQLite's `secure_delete` and `VACUUM`).
    var purgeLeftovers: String? { get }
}

/// A lock two crawls of one archive take so that they never work on the same thing at once: a crawl run (so that a
/// crawl resumes only a run nobody is running) or a board (so that two crawls never interleave one board's pages).
public enum ArchiveLock: Sendable, Hashable, CustomStringConvertible {
    case run(Int64)
    case board(Int)
    /// Fetching the archive's pictures (one crawl at a time; another crawl leaves them to it).
    case media

    /// The 64-bit key of a PostgreSQL advisory lock: 16 bits naming the archive among those of one database (see
    /// ``PostgresArchive/lockKey(_:)``), 8 bits of kind, then the id.
    func key(namespace: UInt16) -> Int64 {
        let prefix = Int64(namespace) << 48
        switch self {
        case .run(let id): return prefix | (1 << 40) | (id & 0xFF_FFFF_FFFF)
        case .board(let id): return prefix | (2 << 40) | (Int64(id) & 0xFF_FFFF_FFFF)
        case .media: return prefix | (3 << 40)
        }
    }

    public var description: String {
        switch self {
        case .run(let id): "crawl run \(id)"
        case .board(let id): "board \(id)"
        case .media: "the pictures"
        }
    }
}

/// One transaction on an archive store's database.
public protocol StoreTransaction {
    /// Runs `sql` (parameters written `?`) with `arguments` and returns every row's cells, in column order.
    func rows(_ sql: String, _ arguments: [StoredValue]) throws -> [[StoredValue]]
}

extension StoreTransaction {
    /// Runs `sql`, which takes no parameters, and returns its rows.
    func rows(_ sql: String) throws -> [[StoredValue]] {
        try rows(sql, [])
    }

    /// Runs `sql` and discards its rows.
    func execute(_ sql: String, _ arguments: [StoredValue] = []) throws {
        _ = try rows(sql, arguments)
    }

    /// The first row of `sql`, or nil.
    func row(_ sql: String, _ arguments: [StoredValue] = []) throws -> [StoredValue]? {
        try rows(sql, arguments).first
    }

    /// The first column of every row of `sql`.
    func column(_ sql: String, _ arguments: [StoredValue] = []) throws -> [StoredValue] {
        try rows(sql, arguments).compactMap(\.first)
    }

    /// The first column of `sql`'s rows as integers (NULLs left out).
    func integers(_ sql: String, _ arguments: [StoredValue] = []) throws -> [Int] {
        try column(sql, arguments).compactMap(\.int)
    }

    /// The first cell of `sql`, or nil when it has no row.
    func value(_ sql: String, _ arguments: [StoredValue] = []) throws -> StoredValue? {
        try row(sql, arguments)?.first
    }
}

/// One value of a stored row, as both databases hold it.
public enum StoredValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case integer(Int)
    case real(Double)
    case text(String)
    /// Bytes (a kept image, migration `v7-media`): `BLOB` in SQLite, `bytea` in PostgreSQL.
    case blob([UInt8])

    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): value.count > 40 ? "\"\(value.prefix(40))…\"" : "\"\(value)\""
        case .blob(let bytes): "<\(bytes.count) bytes>"
        }
    }

    init(_ value: Int?) { self = value.map { .integer($0) } ?? .null }
    init(_ value: Int64?) { self = value.map { .integer(Int($0)) } ?? .null }
    init(_ value: Double?) { self = value.map { .real($0) } ?? .null }
    init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    init(_ value: Bool?) { self = value.map { .integer($0 ? 1 : 0) } ?? .null }
    init(_ value: Date) { self = .real(value.timeIntervalSince1970) }

    /// The value as an integer (a whole real number too), or nil.
    var int: Int? {
        switch self {
        case .integer(let value): value
        case .real(let value): Int(exactly: value)
        default: nil
        }
    }

    /// The value as a real number, or nil.
    var double: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    /// The value as text, or nil.
    var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The value as bytes, or nil.
    var bytes: [UInt8]? {
        if case .blob(let value) = self { return value }
        return nil
    }
}
