import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// A store that cannot be opened is explained in plain words, not with a dump of the underlying error.
@Suite("Archive store open errors")
struct StoreOpenErrorTests {
    /// The message for opening `path`, which must fail.
    func openingError(_ path: String) throws -> String {
        let error = #expect(throws: StoreError.self) { _ = try ArchiveStore(path: path) }
        let message = try #require(error?.localizedDescription)
        for dump in ["Error Domain", "NSError", "userInfo", "NSUnderlying", "SQLite error", "while executing"] {
            #expect(!message.contains(dump), "\(message)")
        }
        return message
    }

    @Test func aFolderThatCannotBeCreatedIsNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data("not a folder".utf8).write(to: folder.url.appendingPathComponent("file"))
        let path = folder.path("file/archive/archive.sqlite")
        let message = try openingError(path)
        #expect(
            message
                == "Cannot open the archive store \(path) (its folder \(folder.path("file/archive")) cannot be created: Not a directory); check that the path is a writable SQLite file."
        )
    }

    @Test func aFileThatIsNotSQLiteIsSaidSo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("archive.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let message = try openingError(path)
        #expect(message == "Cannot open the archive store \(path) (file is not a database); check that the path is a writable SQLite file.")
    }

    @Test func aFolderInPlaceOfTheFileIsSaidSo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let message = try openingError(folder.url.path)
        #expect(message.contains("(unable to open database file)"))
    }
}
