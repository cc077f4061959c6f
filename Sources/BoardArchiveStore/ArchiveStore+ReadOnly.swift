import Foundation
import GRDB

extension ArchiveStore {
    /// Opens an existing store for reading only, as `build` does: nothing is ever written to it.
    ///
    /// The file is opened with SQLite's read-only flag, so no schema is created and no migration runs. Refused with a
    /// ``StoreError``: a missing file (`cannotOpen`), a file that is empty or not a boardarchive store
    /// (`notAnArchive`, a zero-byte file included), a store written by a newer boardarchive (`newerSchema`) and one
    /// an older boardarchive wrote that a crawl must first upgrade (`olderSchema`).
    public convenience init(readingOnly path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(location: path, reason: .cannotOpen("no such file; run boardarchive crawl first or pass --store"))
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let pool: DatabasePool
        let applied: [String]
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            applied = try pool.read { db -> [String] in
                guard try db.tableExists("grdb_migrations"), try db.tableExists("post"), try db.tableExists("board") else { return [] }
                return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError(location: path, reason: .notAnArchive)
        } catch {
            throw StoreError(location: path, reason: .cannotOpen(Self.plainReason(error)))
        }
        let known = Self.migrator.migrations
        guard !applied.isEmpty else {
            try? pool.close()
            throw StoreError(location: path, reason: .notAnArchive)
        }
        if applied.contains(where: { !known.contains($0) }) {
            try? pool.close()
            throw StoreError(location: path, reason: .newerSchema(found: applied.count, supported: known.count))
        }
        if applied.count < known.count {
            try? pool.close()
            throw StoreError(location: path, reason: .olderSchema(found: applied.count, supported: known.count))
        }
        self.init(writer: pool, location: path)
    }
}
