import BoardArchiveModel
import Foundation
import GRDB

/// An ``ArchiveSnapshot`` of a SQLite store: one read transaction that stays open for the snapshot's life.
///
/// A file store reads through a GRDB `DatabaseSnapshot` of its pool (a connection of its own whose deferred
/// transaction began when the snapshot was made), so a crawl may commit meanwhile without the build seeing any of it;
/// an in-memory store (tests) reads its queue. Each read is one query over the covering indexes of migration
/// `v5-listing-keys`, through the connection's cache of prepared statements: prepared anew, each of the thousand pages of
/// keys a stream of a million posts reads ran GRDB's statement authorizer again (about 1.6 % of a 1M night's rebuild).
/// A cursor is read to its end inside the ``read(_:)`` that made it, so no two share a cached statement.
public final class SQLiteSnapshot: ArchiveSnapshot {
    let reader: any DatabaseReader
    public let location: String
    /// The pseudonyms every read returns instead of writers' names, or nil.
    let pseudonyms: WriterPseudonyms?
    /// Which posts every read publishes.
    let rule: Publication

    init(reader: any DatabaseReader, location: String, pseudonyms: WriterPseudonyms?, rule: Publication = Publication()) {
        self.reader = reader
        self.location = location
        self.pseudonyms = pseudonyms
        self.rule = rule
    }

    /// Runs `body` on the snapshot's connection; SQLite's errors become ``StoreError``.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try reader.read(body) } catch let error as DatabaseError {
            throw StoreError(location: location, reason: error.resultCode == .SQLITE_BUSY ? .busy : .query(ArchiveStore.plainReason(error)))
        }
    }

    public func boards() throws -> [Board] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(ArchiveStore.boardColumns) FROM board ORDER BY orderNo IS NULL, orderNo, boardId").map(
                ArchiveStore.board)
        }
    }

    public func goneBoards() throws -> [Int: Date] {
        try read { db in
            var gone: [Int: Date] = [:]
            for row in try Row.fetchAll(db, sql: ArchiveStore.goneBoardsSQL) { gone[row[0]] = Date(timeIntervalSince1970: row[1]) }
            return gone
        }
    }

    public func postCountsByBoard() throws -> [Int: Int] {
        try read { db in
            var counts: [Int: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT boardId, COUNT(*) FROM post GROUP BY boardId") { counts[row[0]] = row[1] }
            return counts
        }
    }

    public func listingCounts(ofBoard boardId: Int) throws -> ListingCounts {
        try read { db in
            let notices =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM post WHERE boardId = ? AND postType = 'notice'", arguments: [boardId]) ?? 0
            let all = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM post WHERE boardId = ?", arguments: [boardId]) ?? 0
            let removed = try ArchiveStore.removedCount(in: db, board: boardId, rule: rule)
            return ListingCounts(notices: notices, others: all - notices, removed: removed)
        }
    }

    public func firstIdBeyondRule() throws -> (kind: String, id: Int)? {
        let arguments: StatementArguments = [ArchiveID.maximum, -ArchiveID.maximum]
        return try read { db in
            if let id = try Int.fetchOne(db, sql: "SELECT boardId FROM board WHERE boardId > ? OR boardId < ? LIMIT 1", arguments: arguments) {
                return ("board", id)
            }
            for column in ["postId", "boardId", "parentPostId"] {
                let sql = "SELECT postId FROM post WHERE \(column) > ? UNION ALL SELECT postId FROM post WHERE \(column) < ? LIMIT 1"
                if let id = try Int.fetchOne(db, sql: sql, arguments: arguments) { return ("post", id) }
            }
            return nil
        }
    }

    public func removedPostIds() throws -> [Int] {
        try read { db in try Int.fetchAll(db, sql: "SELECT postId FROM post WHERE \(rule.removed) ORDER BY +postId") }
    }

    public func removedPostCount() throws -> Int {
        try read { db in try ArchiveStore.removedCount(in: db, rule: rule) }
    }

    // MARK: Streams

    public func listingKeys(ofBoard boardId: Int) -> KeyStream {
        KeyStream(segments: KeyStream.boardOrder) { [self] in try keyPage(board: boardId, segment: $0, after: $1, limit: $2) }
    }

    public func keysChronologically() -> KeyStream {
        KeyStream(segments: KeyStream.chronologicalOrder) { [self] in try keyPage(board: nil, segment: $0, after: $1, limit: $2) }
    }

    private func keyPage(board: Int?, segment: KeyStream.Segment, after: KeyStream.Position?, limit: Int) throws -> [ListingKey] {
        let (sql, parameters) = KeyStream.pageQuery(board: board, segment: segment, after: after, limit: limit, dialect: .sqlite)
        let arguments = StatementArguments(
            parameters.map { parameter -> DatabaseValue in
                switch parameter {
                case .integer(let value): value.databaseValue
                case .flag(let value): (value ? 1 : 0).databaseValue
                }
            })
        return try read { db in
            var keys: [ListingKey] = []
            keys.reserveCapacity(limit)
            let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
            while let row = try rows.next() { keys.append(try ListingKey(row, rule: rule)) }
            return keys
        }
    }

    public func postStates() -> PostStateStream {
        PostStateStream { [self] after, limit in
            try read { db in
                let rows = try Row.fetchCursor(
                    db.cachedStatement(sql: "SELECT \(PostState.columns) FROM post WHERE postId > ? ORDER BY postId LIMIT ?"),
                    arguments: [after ?? Int.min, limit])
                var states: [PostState] = []
                while let row = try rows.next() {
                    states.append(
                        PostState(
                            postId: row[0], boardId: row[1], contentHash: row[2], redactionMode: (row[3] as String?) ?? "",
                            redactedAtMilliseconds: (row[4] as Double?).map { Int($0 * 1_000) },
                            goneSinceMilliseconds: (row[5] as Double?).map { Int($0 * 1_000) }, versionCount: row[6]))
                }
                return states
            }
        }
    }

    // MARK: Lookups

    public func keys(ids: [Int]) throws -> [Int: ListingKey] {
        try read { db in
            var result: [Int: ListingKey] = [:]
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT \(ListingKey.columns) FROM post INDEXED BY post_id_keys WHERE postId \(Self.inIds)"),
                arguments: Self.arguments(ids))
            while let row = try rows.next() {
                let key = try ListingKey(row, rule: rule)
                result[key.postId] = key
            }
            return result
        }
    }

    public func replyKeys(toPostIds ids: [Int]) throws -> [Int: [ListingKey]] {
        try read { db in
            var result: [Int: [ListingKey]] = [:]
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT \(ListingKey.columns) FROM post WHERE parentPostId \(Self.inIds)
                        AND \(rule.published) ORDER BY boardId, \(ArchiveStore.boardOrder)
                        """), arguments: Self.arguments(ids))
            while let row = try rows.next() {
                let key = try ListingKey(row, rule: rule)
                if let parent = key.parentPostId { result[parent, default: []].append(key) }
            }
            return result
        }
    }

    public func listedPosts(ids: [Int]) throws -> [Int: ListedPost] {
        var result: [Int: ListedPost] = [:]
        try forEachRow(ids: ids, where: rule.published) { row in
            let listed = try ArchiveStore.listedPost(row, pseudonyms: pseudonyms)
            result[listed.post.postId] = listed
        }
        return result
    }

    public func postsWithBodies(ids: [Int]) throws -> [Int: ListedPost] {
        var result: [Int: ListedPost] = [:]
        try forEachRow(ids: ids, withContents: true, where: rule.published) { row in
            let listed = try ArchiveStore.listedPost(row, withContents: true, pseudonyms: pseudonyms)
            result[listed.post.postId] = listed
        }
        return result
    }

    public func posts(ids: [Int]) throws -> [Int: Post] {
        try postsWithBodies(ids: ids).mapValues(\.post)
    }

    public func removedPosts(ids: [Int]) throws -> [Int: Post] {
        var result: [Int: Post] = [:]
        // A purged post keeps nothing to match (its anonymous flag would still match the anonymous label).
        try forEachRow(ids: ids, withContents: true, where: rule.removed + " AND purged = 0") { row in
            let post = try ArchiveStore.listedPost(row, withContents: true, pseudonyms: pseudonyms).post
            result[post.postId] = post
        }
        return result
    }

    public func versions(ids: [Int]) throws -> [Int: PostVersions] {
        try read { db in
            var rows: [(Int, PostVersion, Date?)] = []
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: ArchiveStore.versionsSQL(ids: Self.inIds)), arguments: Self.arguments(ids))
            while let row = try cursor.next() { rows.append(try ArchiveStore.versionRow(row, pseudonyms: pseudonyms)) }
            return ArchiveStore.grouped(rows, PostVersions.init)
        }
    }

    public func versionKeys(ids: [Int]) throws -> [Int: VersionKeys] {
        try read { db in
            var rows: [(Int, VersionKey, Date?)] = []
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: ArchiveStore.versionKeysSQL(ids: Self.inIds)), arguments: Self.arguments(ids))
            while let row = try cursor.next() { rows.append(try ArchiveStore.versionKeyRow(row)) }
            return ArchiveStore.grouped(rows, VersionKeys.init)
        }
    }

    public var pictures: PictureReader {
        PictureReader(published: rule.published) { [self] sql, arguments in
            try read { db in
                try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments.map(SQLiteCopyEndpoint.databaseValue))).map { row in
                    row.databaseValues.map(SQLiteCopyEndpoint.value)
                }
            }
        }
    }

    /// Calls `body` with the row (`listedColumns`, then `contents` when `withContents`) of each post with one of these
    /// ids that meets `condition`.
    private func forEachRow(ids: [Int], withContents: Bool = false, where condition: String, _ body: (Row) throws -> Void) throws {
        let columns = ArchiveStore.listedColumns + (withContents ? ", contents" : "")
        try read { db in
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT \(columns) FROM post WHERE postId \(Self.inIds) AND \(condition)"), arguments: Self.arguments(ids))
            while let row = try rows.next() { try body(row) }
        }
    }

    /// The condition on an id column that it is one of a list of ids passed as one argument (``arguments(_:)``): a JSON
    /// array read by `json_each`, so the statement's text is the same for any number of ids (prepared once per connection) and binding is one string, not one parameter per id (GRDB converts those through key paths, about
    /// a tenth of a rebuild's board step).
    static let inIds = "IN (SELECT value FROM json_each(?))"

    /// The argument of ``inIds``: `ids` as a JSON array.
    static func arguments(_ ids: [Int]) -> StatementArguments {
        var json = "["
        json.reserveCapacity(ids.count * 8 + 2)
        for (index, id) in ids.enumerated() {
            if index > 0 { json += "," }
            json += String(id)
        }
        json += "]"
        return [json]
    }
}

extension ArchiveStore: ArchiveSource {
    /// Opens a snapshot: a file store's own read transaction (a crawl may go on writing), an in-memory store's queue.
    public func snapshot(pseudonyms: WriterPseudonyms?, rule: Publication) throws -> any ArchiveSnapshot {
        let reader: any DatabaseReader
        do { reader = try (writer as? DatabasePool)?.makeSnapshot() ?? writer } catch let error as DatabaseError {
            throw StoreError(location: location, reason: error.resultCode == .SQLITE_BUSY ? .busy : .query(Self.plainReason(error)))
        }
        return SQLiteSnapshot(reader: reader, location: location, pseudonyms: pseudonyms ?? self.pseudonyms, rule: rule)
    }
}
