import BoardArchiveModel
import Foundation
import GRDB

/// The archive store: every board and post ever crawled, with crawl runs and per-page checkpoints, in SQLite.
///
/// A file store opens a `DatabasePool` (WAL mode, so a build can read while a crawl writes); tests use
/// `inMemory()`. The schema is versioned and migrated on open (see `ArchiveStore+Schema.swift`).
/// Posts that disappear upstream are marked gone (`goneSince`), never deleted.
public final class ArchiveStore: Sendable {
    let writer: any DatabaseWriter
    /// Where the store lives, for messages; `:memory:` for an in-memory store.
    public let location: String
    /// Writers' pseudonyms every read returns instead of their names (`build --pseudonymize-writers`), or nil.
    let pseudonyms: WriterPseudonyms?

    /// Opens the store at `path` and migrates it to the current schema; when `creating`, a missing store (and its
    /// folder) is created.
    ///
    /// A store written by a newer boardarchive (one with migrations this build does not know) is refused with
    /// `StoreError.Reason.newerSchema` before anything is written to it. Without `creating`, a missing file, an empty
    /// one and one without the archive's tables are refused with `StoreError.Reason.missing`, and nothing is written:
    /// a run that expects an archive never silently starts a new one.
    public init(path: String, creating: Bool = true) throws {
        location = path
        if !creating { try Self.requireArchive(at: path) }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw StoreError(location: path, reason: .cannotOpen("its folder \(folder.path) cannot be created: \(Self.plainReason(error))"))
        }
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            // Freed cells are zeroed, so a purged takedown leaves no byte of the post in the file (see redact).
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = ON") }
            if FileManager.default.fileExists(atPath: path) { try Self.refuseNewerSchema(at: path) }
            writer = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(writer)
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            throw StoreError(location: path, reason: .busy)
        } catch {
            throw StoreError(location: path, reason: .cannotOpen(Self.plainReason(error)))
        }
        pseudonyms = nil
    }

    /// Throws `missing` unless `path` is a SQLite file holding the archive's tables; only reads, never creates.
    private static func requireArchive(at path: String) throws {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let attributes else { throw StoreError(location: path, reason: .missing(detail: "does not exist")) }
        guard (attributes[.size] as? NSNumber)?.intValue ?? 0 > 0 else {
            throw StoreError(location: path, reason: .missing(detail: "is an empty file"))
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let hasTables: Bool
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            hasTables = try queue.read { db in try db.tableExists("grdb_migrations") && db.tableExists("post") && db.tableExists("board") }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError(location: path, reason: .notAnArchive)
        } catch {
            throw StoreError(location: path, reason: .cannotOpen(Self.plainReason(error)))
        }
        guard hasTables else { throw StoreError(location: path, reason: .missing(detail: "holds no archive (no archive tables)")) }
    }

    /// The reason an open failed in a few words: SQLite's message without its code and statement, or the system's
    /// message for a file error, instead of a dump of the error value.
    static func plainReason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "SQLite error \(error.resultCode.rawValue)" }
        let error = error as NSError
        let posix = error.domain == NSPOSIXErrorDomain ? error : (error.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        if let posix, posix.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(posix.code))) }
        return error.localizedDescription
    }

    init(writer: any DatabaseWriter, location: String, pseudonyms: WriterPseudonyms? = nil) {
        self.writer = writer
        self.location = location
        self.pseudonyms = pseudonyms
    }

    /// The same store, whose reads give every writer a pseudonym instead of a name (the build uses it for
    /// `--pseudonymize-writers`, so that every phase publishes pseudonyms without knowing about them).
    public func pseudonymizingWriters(_ pseudonyms: WriterPseudonyms) -> ArchiveStore {
        ArchiveStore(writer: writer, location: location, pseudonyms: pseudonyms)
    }

    /// A post row as the site may show it: redactions applied (``post(from:)``), and the writer's pseudonym when set.
    func published(from row: Row) -> Post {
        var post = Self.post(from: row)
        pseudonyms?.apply(to: &post)
        return post
    }

    /// A fresh, migrated store in memory, for tests.
    public static func inMemory() throws -> ArchiveStore {
        let queue = try DatabaseQueue()
        try migrator.migrate(queue)
        return ArchiveStore(writer: queue, location: ":memory:")
    }

    /// Throws `newerSchema` when the store at `path` has applied migrations this build does not know. It only reads,
    /// through a plain connection: opening a `DatabasePool` writes to the file, and a read-only connection to a WAL
    /// store leaves its `-wal` and `-shm` files behind.
    private static func refuseNewerSchema(at path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        let migrator = Self.migrator
        let applied = try queue.read { db in try migrator.hasBeenSuperseded(db) ? try migrator.appliedIdentifiers(db).count : nil }
        if let applied {
            throw StoreError(location: path, reason: .newerSchema(found: applied, supported: migrator.migrations.count))
        }
    }

    /// The schema version this store is at (the number of applied migrations).
    public func schemaVersion() throws -> Int {
        try read { db in try Self.migrator.appliedIdentifiers(db).count }
    }

    // MARK: Reading (the build reads only these)
    //
    // Every read of posts here and in ArchiveStore+Listing.swift honours takedowns: posts a redaction removes are left
    // out (`publishedPosts`), and posts whose writer it withholds come back anonymous (`post(from:)`). A new phase of
    // the build that reads posts through these functions publishes no redacted post without further work.

    /// The SQL condition of a post the site shows: not removed by a redaction.
    static let publishedPosts = "(redactionMode IS NULL OR redactionMode <> 'remove')"
    /// The SQL condition of a post a redaction removed, over the partial index `post_redaction` (a removed post
    /// always names its redaction), so counting them never reads the other rows; write a board condition as
    /// `+boardId = ?` so that SQLite keeps to that index instead of reading the whole board.
    static let removedPosts = "(redactionId IS NOT NULL AND redactionMode = 'remove')"

    /// The number of posts a redaction removed, of one board or (nil) of the archive, over `post_redaction`.
    static func removedCount(in db: Database, board boardId: Int? = nil, rule: Publication = Publication()) throws -> Int {
        guard let boardId else { return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM post WHERE \(rule.removed)") ?? 0 }
        // Redactions alone: through the partial index of redacted posts. With deleted posts left out: the board's key
        // index, which holds both columns the condition reads.
        let board = rule.leavesOutGone ? "boardId = ?" : "+boardId = ?"
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM post WHERE \(rule.removed) AND \(board)", arguments: [boardId]) ?? 0
    }

    /// Every board, in display order: `orderNo` ascending (boards without one last), then `boardId`.
    public func boards() throws -> [Board] {
        try reading.boards()
    }

    /// The store's reads as a snapshot's, each in a transaction of its own (for tests and tools; the build opens a
    /// real snapshot with ``snapshot(pseudonyms:)``).
    public var reading: SQLiteSnapshot {
        SQLiteSnapshot(reader: writer, location: location, pseudonyms: pseudonyms)
    }

    /// A board's posts in board order: notices first (newest first), then all others newest first; ties by `postId` descending.
    public func posts(inBoard boardId: Int) throws -> [Post] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM post WHERE boardId = ? AND \(Self.publishedPosts) ORDER BY \(Self.boardOrder)", arguments: [boardId]
            )
            .map(published(from:))
        }
    }

    /// Calls `body` for every archived post, board by board in board order, without holding the archive in memory.
    public func forEachPost(_ body: (Post) throws -> Void) throws {
        try read { db in
            let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM post WHERE \(Self.publishedPosts) ORDER BY boardId, \(Self.boardOrder)")
            while let row = try cursor.next() { try body(published(from: row)) }
        }
    }

    /// The posts of other boards that reply to a post of `boardId`, in board order of their own boards.
    public func replies(fromOtherBoardsTo boardId: Int) throws -> [Post] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT reply.* FROM post AS reply JOIN post AS parent ON reply.parentPostId = parent.postId
                    WHERE parent.boardId = ? AND reply.boardId != ? AND (reply.redactionMode IS NULL OR reply.redactionMode <> 'remove')
                    ORDER BY reply.boardId, (reply.postType = 'notice') DESC, reply.createdAt DESC, reply.postId DESC
                    """, arguments: [boardId, boardId]
            ).map(published(from:))
        }
    }

    /// One post by id, or `nil`.
    public func post(id: Int) throws -> Post? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM post WHERE postId = ? AND \(Self.publishedPosts)", arguments: [id]).map(published(from:))
        }
    }

    static let boardOrder = "(postType = 'notice') DESC, createdAt DESC, postId DESC"

    /// Runs `body` in a read transaction; SQLite's errors become ``StoreError``, errors of `body` itself (a build
    /// rendering inside a streaming read) pass through unchanged.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try writer.read(body) } catch let error as DatabaseError {
            throw StoreError(location: location, reason: error.resultCode == .SQLITE_BUSY ? .busy : .query(Self.plainReason(error)))
        }
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try writer.write(body) } catch let error as StoreError { throw error } catch let error as CrawlError {
            throw error
        } catch let error as RedactionError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            throw StoreError(location: location, reason: .busy)
        } catch {
            throw StoreError(location: location, reason: .query(Self.plainReason(error)))
        }
    }
}

/// When a post was seen upstream.
public struct PostHistory: Sendable, Equatable {
    public var firstSeen: Date
    public var lastSeen: Date
    public var goneSince: Date?
}

/// Which posts a snapshot publishes: every post but those a redaction removed, and, when the site leaves out the posts
/// the source deleted (`build.deleted-posts: left-out`), not those either. A post left out keeps its place, as a removed
/// one does (its address shows a tombstone that says the source deleted it).
public struct Publication: Sendable, Equatable {
    /// Whether posts the source deleted (`goneSince`) are left out of the site.
    public var leavesOutGone = false

    public init(leavesOutGone: Bool = false) {
        self.leavesOutGone = leavesOutGone
    }

    /// The SQL condition on a `post` row that the site shows it.
    var published: String { leavesOutGone ? "(\(ArchiveStore.publishedPosts) AND goneSince IS NULL)" : ArchiveStore.publishedPosts }
    /// The SQL condition on a `post` row that the site shows a tombstone at its address.
    var removed: String { leavesOutGone ? "(redactionMode = 'remove' OR goneSince IS NOT NULL)" : ArchiveStore.removedPosts }
}
