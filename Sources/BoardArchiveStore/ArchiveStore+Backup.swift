import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a backup wrote.
public struct StoreBackup: Sendable, Equatable {
    /// The backup file.
    public var path: String
    /// Its size in bytes.
    public var bytes: Int
    /// The posts it holds (removed ones included).
    public var posts: Int
}

extension ArchiveStore {
    /// Writes a consistent copy of the store to `destination`, checked before it replaces anything.
    ///
    /// SQLite's online backup API copies one snapshot of the store (a crawl may keep writing meanwhile) into a file
    /// beside `destination`; the copy must pass `PRAGMA integrity_check` and hold the same schema version before it is
    /// renamed over `destination`, so a failed or interrupted backup never replaces a good one.
    public func backup(to destination: String) throws -> StoreBackup {
        // Renaming the copy over the store itself would swap the live file under its open connections and WAL.
        let target = URL(fileURLWithPath: destination).resolvingSymlinksInPath().standardizedFileURL.path
        guard target != URL(fileURLWithPath: location).resolvingSymlinksInPath().standardizedFileURL.path else {
            throw StoreError(location: location, reason: .backupOverStore)
        }
        let folder = URL(fileURLWithPath: destination).deletingLastPathComponent()
        let partial = folder.appendingPathComponent(".\(URL(fileURLWithPath: destination).lastPathComponent).partial-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: partial) }
        let posts: Int
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let copy = try DatabaseQueue(path: partial)
            try writer.backup(to: copy)
            let (check, version, count) = try copy.read { db in
                (
                    try String.fetchAll(db, sql: "PRAGMA integrity_check"), try Self.migrator.appliedIdentifiers(db).count,
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM post") ?? 0
                )
            }
            try copy.close()
            guard check == ["ok"] else {
                throw StoreError(
                    location: destination, reason: .cannotOpen("the copy failed SQLite's integrity check: \(check.prefix(3).joined(separator: "; "))")
                )
            }
            guard version == (try schemaVersion()) else {
                throw StoreError(location: destination, reason: .cannotOpen("the copy has schema version \(version), not the store's"))
            }
            posts = count
            guard rename(partial, destination) == 0 else {
                throw StoreError(
                    location: destination, reason: .cannotOpen("the checked copy could not be moved into place: \(String(cString: strerror(errno)))"))
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(location: destination, reason: .cannotOpen("the backup could not be written: \(Self.plainReason(error))"))
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? NSNumber)?.intValue ?? 0
        return StoreBackup(path: destination, bytes: size, posts: posts)
    }
}

extension ArchiveStore {
    /// What `store check` reports of a SQLite store: `PRAGMA integrity_check`'s first lines (`["ok"]` when sound) and
    /// the boards and posts held (removed posts included).
    public func check() throws -> (integrity: [String], boards: Int, posts: Int) {
        try read { db in
            (
                Array(try String.fetchAll(db, sql: "PRAGMA integrity_check").prefix(5)), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM board") ?? 0,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM post") ?? 0
            )
        }
    }
}
