import BoardArchiveModel
import Foundation
import Logging
import PostgresNIO

/// An ``ArchiveSnapshot`` of a PostgreSQL store: a connection of its own in one `REPEATABLE READ, READ ONLY`
/// transaction, so that the whole build reads the state committed when it began while crawls on other machines go on
/// writing. Its queries are the SQLite snapshot's, in PostgreSQL's words (`= ANY($1)` for a batch of ids); the rows
/// are read by the same definitions (``StoredColumns``), so both stores give the same values and the same site.
public final class PostgresSnapshot: ArchiveSnapshot {
    let connection: PostgresConnection
    let url: PostgresStoreURL
    let logger: Logger
    let pseudonyms: WriterPseudonyms?
    /// Which posts every read publishes.
    let rule: Publication

    public var location: String { url.description }

    /// Opens a connection and begins the snapshot's transaction.
    init(connector: PostgresConnector, pseudonyms: WriterPseudonyms?, rule: Publication = Publication()) throws {
        connection = try connector.connect()
        url = connector.url
        logger = connector.logger
        self.pseudonyms = pseudonyms
        self.rule = rule
        do { _ = try query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY") { _ in () } } catch {
            try? connection.close().wait()
            throw error
        }
    }

    deinit {
        // Closing ends the transaction (it only read).
        try? connection.close().wait()
    }

    /// Runs `sql` with `binds` and reads every row with `read`; the server's errors become ``StoreError``.
    func query<T>(_ sql: String, _ binds: PostgresBindings = PostgresBindings(), _ read: (PostgresRandomAccessRow) throws -> T) throws -> [T] {
        try connection.rows(sql, binds, location: location, logger: logger) { try read($0.makeRandomAccess()) }
    }

    /// Binds in order.
    static func binds(_ values: [any PostgresThrowingDynamicTypeEncodable]) throws -> PostgresBindings {
        var binds = PostgresBindings(capacity: values.count)
        for value in values { try binds.append(value) }
        return binds
    }

    /// The one number a query answers.
    private func count(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> Int {
        try query(sql, binds) { try $0.int(0) }.first ?? 0
    }

    public func boards() throws -> [Board] {
        try query("SELECT \(ArchiveStore.boardColumns) FROM board ORDER BY orderNo IS NULL, orderNo, boardId") { try ArchiveStore.board($0) }
    }

    public func goneBoards() throws -> [Int: Date] {
        let rows = try query(ArchiveStore.goneBoardsSQL) { (try $0.int(0), Date(timeIntervalSince1970: try $0.optionalDouble(1) ?? 0)) }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    public func postCountsByBoard() throws -> [Int: Int] {
        let rows = try query("SELECT boardId, COUNT(*) FROM post GROUP BY boardId") { (try $0.int(0), try $0.int(1)) }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    public func listingCounts(ofBoard boardId: Int) throws -> ListingCounts {
        let binds = try Self.binds([boardId])
        let notices = try count("SELECT COUNT(*) FROM post WHERE boardId = $1 AND postType = 'notice'", binds)
        let all = try count("SELECT COUNT(*) FROM post WHERE boardId = $1", binds)
        let removed = try count("SELECT COUNT(*) FROM post WHERE \(rule.removed) AND boardId = $1", binds)
        return ListingCounts(notices: notices, others: all - notices, removed: removed)
    }

    public func firstIdBeyondRule() throws -> (kind: String, id: Int)? {
        let binds = try Self.binds([ArchiveID.maximum, -ArchiveID.maximum])
        if let id = try query("SELECT boardId FROM board WHERE boardId > $1 OR boardId < $2 LIMIT 1", binds, { try $0.int(0) }).first {
            return ("board", id)
        }
        for column in ["postId", "boardId", "parentPostId"] {
            let sql = "SELECT postId FROM post WHERE \(column) > $1 OR \(column) < $2 LIMIT 1"
            if let id = try query(sql, binds, { try $0.int(0) }).first { return ("post", id) }
        }
        return nil
    }

    public func removedPostIds() throws -> [Int] {
        try query("SELECT postId FROM post WHERE \(rule.removed) ORDER BY postId") { try $0.int(0) }
    }

    public func removedPostCount() throws -> Int {
        try count("SELECT COUNT(*) FROM post WHERE \(rule.removed)")
    }

    // MARK: Streams

    public func listingKeys(ofBoard boardId: Int) -> KeyStream {
        KeyStream(segments: KeyStream.boardOrder) { [self] in try keyPage(board: boardId, segment: $0, after: $1, limit: $2) }
    }

    public func keysChronologically() -> KeyStream {
        KeyStream(segments: KeyStream.chronologicalOrder) { [self] in try keyPage(board: nil, segment: $0, after: $1, limit: $2) }
    }

    private func keyPage(board: Int?, segment: KeyStream.Segment, after: KeyStream.Position?, limit: Int) throws -> [ListingKey] {
        let (sql, parameters) = KeyStream.pageQuery(board: board, segment: segment, after: after, limit: limit, dialect: .postgres)
        var binds = PostgresBindings(capacity: parameters.count)
        for parameter in parameters {
            switch parameter {
            case .integer(let value): binds.append(value)
            case .flag(let value): binds.append(value)
            }
        }
        return try query(sql, binds) { try ListingKey($0, rule: rule) }
    }

    public func postStates() -> PostStateStream {
        PostStateStream { [self] after, limit in
            try query(
                "SELECT \(PostState.columns) FROM post WHERE postId > $1 ORDER BY postId LIMIT $2",
                try Self.binds([after ?? Int.min, limit])
            ) { row in
                PostState(
                    postId: try row.int(0), boardId: try row.int(1), contentHash: try row.string(2), redactionMode: try row.optionalString(3) ?? "",
                    redactedAtMilliseconds: try row.optionalDouble(4).map { Int($0 * 1_000) },
                    goneSinceMilliseconds: try row.optionalDouble(5).map { Int($0 * 1_000) }, versionCount: try row.int(6))
            }
        }
    }

    // MARK: Lookups

    public func keys(ids: [Int]) throws -> [Int: ListingKey] {
        let keys = try query("SELECT \(ListingKey.columns) FROM post WHERE postId = ANY($1)", try Self.binds([ids])) {
            try ListingKey($0, rule: rule)
        }
        return Dictionary(keys.map { ($0.postId, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func replyKeys(toPostIds ids: [Int]) throws -> [Int: [ListingKey]] {
        let keys = try query(
            "SELECT \(ListingKey.columns) FROM post WHERE parentPostId = ANY($1) AND \(rule.published) "
                + "ORDER BY boardId, \(ArchiveStore.boardOrder)", try Self.binds([ids])
        ) { try ListingKey($0, rule: rule) }
        var result: [Int: [ListingKey]] = [:]
        for key in keys { if let parent = key.parentPostId { result[parent, default: []].append(key) } }
        return result
    }

    public func listedPosts(ids: [Int]) throws -> [Int: ListedPost] {
        try posts(ids: ids, withContents: false, where: rule.published)
    }

    public func postsWithBodies(ids: [Int]) throws -> [Int: ListedPost] {
        try posts(ids: ids, withContents: true, where: rule.published)
    }

    public func posts(ids: [Int]) throws -> [Int: Post] {
        try postsWithBodies(ids: ids).mapValues(\.post)
    }

    public func removedPosts(ids: [Int]) throws -> [Int: Post] {
        // A purged post keeps nothing to match (its anonymous flag would still match the anonymous label).
        try posts(ids: ids, withContents: true, where: rule.removed + " AND purged = 0").mapValues(\.post)
    }

    public func versions(ids: [Int]) throws -> [Int: PostVersions] {
        let rows = try query(ArchiveStore.versionsSQL(ids: "= ANY($1)"), try Self.binds([ids])) {
            try ArchiveStore.versionRow($0, pseudonyms: pseudonyms)
        }
        return ArchiveStore.grouped(rows, PostVersions.init)
    }

    public func versionKeys(ids: [Int]) throws -> [Int: VersionKeys] {
        ArchiveStore.grouped(
            try query(ArchiveStore.versionKeysSQL(ids: "= ANY($1)"), try Self.binds([ids])) { try ArchiveStore.versionKeyRow($0) }, VersionKeys.init)
    }

    public var pictures: PictureReader {
        PictureReader(published: rule.published) { [self] sql, arguments in
            try query(PostgresTransaction.numbered(sql), PostgresArchive.bind(arguments)) { row in try row.map(PostgresArchive.value) }
        }
    }

    /// The posts with these ids that meet `condition`, by id.
    private func posts(ids: [Int], withContents: Bool, where condition: String) throws -> [Int: ListedPost] {
        let columns = ArchiveStore.listedColumns + (withContents ? ", contents" : "")
        let posts = try query("SELECT \(columns) FROM post WHERE postId = ANY($1) AND \(condition)", try Self.binds([ids])) {
            try ArchiveStore.listedPost($0, withContents: withContents, pseudonyms: pseudonyms)
        }
        return Dictionary(posts.map { ($0.post.postId, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

extension PostgresRandomAccessRow: StoredColumns {
    func int(_ index: Int) throws -> Int { try self[index].decode(Int.self) }
    func optionalInt(_ index: Int) throws -> Int? { try self[index].decode(Int?.self) }
    func string(_ index: Int) throws -> String { try self[index].decode(String.self) }
    func optionalString(_ index: Int) throws -> String? { try self[index].decode(String?.self) }
    func optionalDouble(_ index: Int) throws -> Double? { try self[index].decode(Double?.self) }
}

extension PostgresArchive: ArchiveSource {
    public var location: String { url.description }

    /// Opens a snapshot on a connection of its own (this archive's connection stays free for other work).
    public func snapshot(pseudonyms: WriterPseudonyms?, rule: Publication) throws -> any ArchiveSnapshot {
        try PostgresSnapshot(connector: connector, pseudonyms: pseudonyms, rule: rule)
    }
}
