import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// `--store` values: paths stay paths, a URL scheme is never taken for a path, and no message shows a password.
@Suite("Store locations")
struct StoreLocationTests {
    @Test(arguments: [
        ("archive.sqlite", "archive.sqlite"), ("/srv/a/archive.sqlite", "/srv/a/archive.sqlite"),
        ("file:///srv/a/archive.sqlite", "/srv/a/archive.sqlite"),
        ("file://localhost/srv/b.sqlite", "/srv/b.sqlite"), ("dir:with:colons/a.sqlite", "dir:with:colons/a.sqlite"), ("c:/x.sqlite", "c:/x.sqlite"),
    ])
    func pathsAndFileURLsNameASQLiteFile(text: String, path: String) throws {
        #expect(try StoreLocation(parsing: text) == .sqliteFile(path: path))
    }

    @Test func postgresURLsNameAPostgreSQLStore() throws {
        #expect(
            try StoreLocation(parsing: "postgresql://archiver@db/archive")
                == .postgres(try PostgresStoreURL(parsing: "postgres://archiver@db:5432/archive")))
        #expect(throws: StoreError(location: "postgres://archiver@db:5432/archive", reason: .unsupportedBackend("postgres"))) {
            try StoreLocation(parsing: "postgres://archiver@db/archive").sqlitePath()
        }
    }

    @Test(arguments: [
        (
            "postgres://archiver:s3cret@db:5432/archive",
            StoreError.Reason.invalidURL("it holds a password, which belongs in PGPASSWORD, ~/.pgpass, store.password-env or store.password-file"),
            "postgres://archiver:***@db:5432/archive"
        ),
        ("PostgreSQL://db/archive", .invalidURL("it names no user (postgres://USER@HOST/DB)"), "PostgreSQL://db/archive"),
        ("mysql://u:p@q@h/db", .unknownScheme("mysql"), "mysql://u:***@h/db"),
        ("s3://bucket/archive.sqlite", .unknownScheme("s3"), "s3://bucket/archive.sqlite"),
        (
            "file://otherhost/archive.sqlite",
            .invalidURL("a file:// URL names an absolute path, as file:///srv/archive.sqlite; here \"otherhost\" is read as a host"),
            "file://otherhost/archive.sqlite"
        ),
        (
            "file://archive.sqlite",
            .invalidURL("a file:// URL names an absolute path, as file:///srv/archive.sqlite; here \"archive.sqlite\" is read as a host"),
            "file://archive.sqlite"
        ),
    ])
    func otherSchemesAreRefusedWithoutThePassword(text: String, reason: StoreError.Reason, shown: String) {
        #expect(throws: StoreError(location: shown, reason: reason)) { try StoreLocation(parsing: text) }
        let message = StoreError(location: shown, reason: reason).errorDescription ?? ""
        #expect(!message.contains("s3cret") && !message.contains(":p@"))
    }

    @Test(arguments: [
        ("postgres://archiver:pa/ss@db:5432/archive", "postgres://archiver:***@db:5432/archive"),
        ("postgres://archiver:p?w#x@db/archive", "postgres://archiver:***@db/archive"),
        ("postgres://archiver:a@b/c?d#e@db/archive?sslmode=require", "postgres://archiver:***@db/archive?sslmode=require"),
        ("mysql://u:@h/db", "mysql://u:***@h/db"),
        ("postgres://archiver@db:5432/archive", "postgres://archiver@db:5432/archive"),
        ("postgres://db:5432/archive", "postgres://db:5432/archive"),
    ])
    func everyCharacterOfAPasswordIsMasked(text: String, shown: String) throws {
        #expect(StoreLocation.withoutPassword(text) == shown)
        let error = try #require(throws: StoreError.self) { try StoreLocation(parsing: text).sqlitePath() }
        #expect(!error.location.contains("pa/ss") && !error.location.contains("p?w") && !error.location.contains("d#e"))
    }
}
