import BoardArchive
import Foundation
import GRDB
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The store's schema version, and the refusal to touch a store written by a newer boardarchive.
@Suite("Archive store schema")
struct StoreSchemaTests {
    /// Every file of `folder` (the store and any WAL or shared-memory file) by name, with its bytes.
    static func snapshot(of folder: TemporaryFolder) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) {
            files[name] = try Data(contentsOf: folder.url.appendingPathComponent(name))
        }
        return files
    }

    @Test func aFreshStoreIsAtSchemaVersionOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try ArchiveStore(path: folder.path("archive.sqlite")).schemaVersion() == 7)
        #expect(try ArchiveStore(path: folder.path("archive.sqlite")).schemaVersion() == 7)
        #expect(try ArchiveStore.inMemory().schemaVersion() == 7)
    }

    @Test func aStoreFromANewerBoardArchiveIsRefusedAndLeftUntouched() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("archive.sqlite")
        do {
            // A newer boardarchive applied a migration this one does not know.
            let store = try ArchiveStore(path: path)
            try store.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-from-the-future')") }
        }
        let before = try Self.snapshot(of: folder)
        #expect(before.keys.sorted() == ["archive.sqlite"])
        let error = #expect(throws: StoreError.self) { _ = try ArchiveStore(path: path) }
        #expect(error == StoreError(location: path, reason: .newerSchema(found: 8, supported: 7)))
        #expect(
            error?.localizedDescription
                == "The archive store \(path) has schema version 8, newer than this boardarchive supports (7); upgrade boardarchive to use it.")
        let after = try Self.snapshot(of: folder)
        #expect(after == before)
    }
}
