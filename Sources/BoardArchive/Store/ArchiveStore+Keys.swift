import Foundation
import GRDB

/// What the build's digests need of a post: its place in the listings, its content hash, its parent and whether a
/// redaction removed it; no text. Read from covering indexes (``ArchiveStore`` migration `v5-listing-keys`), so a
/// rebuild finds the pages to render without reading a row of the post table.
public struct ListingKey: Sendable, Equatable, Hashable {
    public var postId: Int
    public var boardId: Int
    public var isNotice: Bool
    public var created: Date
    public var parentPostId: Int?
    /// The content hash as ``ListedPost/contentHash`` has it (a post whose writer a redaction withholds has its own).
    public var contentHash: String
    /// When a redaction removed the post from the site (its address shows a tombstone), else nil.
    public var removedAt: Date?

    /// The columns every key index holds besides its ordering columns.
    static let indexedColumns = "postType, contentHash, redactionMode, redactedAt"
    /// The columns of a key, in the order ``init(row:)`` reads them.
    static let columns = "postId, boardId, postType, createdAt, parentPostId, contentHash, redactionMode, redactedAt"

    init(row: Row) {
        postId = row[0]
        boardId = row[1]
        isNotice = (row[2] as String) == PostType.notice.rawValue
        created = Date(timeIntervalSince1970: TimeInterval(row[3] as Int64))
        parentPostId = row[4]
        let mode = row[6] as String?
        contentHash = row[5]
        if mode == RedactionMode.anonymize.rawValue { contentHash += ListedPost.anonymizedSuffix }
        removedAt = mode == RedactionMode.remove.rawValue ? Date(timeIntervalSince1970: (row[7] as Double?) ?? 0) : nil
    }

    /// The place of a removed post, as the listings keep it.
    public var removed: RemovedPost? {
        removedAt.map { RemovedPost(postId: postId, boardId: boardId, isNotice: isNotice, redactedAt: $0) }
    }
}

/// A listing streamed as keys, with lookups in the same read.
public struct ListingKeyCursor {
    let rows: RowCursor
    /// Lookups in the same snapshot.
    public let lookup: ListingLookup

    /// The next place in the listing, removed posts included, or nil at the end.
    public func next() throws -> ListingKey? {
        try rows.next().map(ListingKey.init(row:))
    }
}

extension ArchiveStore {
    /// Reads a board's keys in board order (notices first, newest first), removed posts included, over `post_board_keys`.
    public func readListingKeys<T>(ofBoard boardId: Int, _ body: (ListingKeyCursor) throws -> T) throws -> T {
        try read { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(ListingKey.columns) FROM post WHERE boardId = ? ORDER BY \(Self.boardOrder)", arguments: [boardId])
            return try body(ListingKeyCursor(rows: rows, lookup: ListingLookup(db: db, pseudonyms: pseudonyms)))
        }
    }

    /// Reads every post's key in search-block order (notices, then the others, each oldest first, ties by `postId`),
    /// removed posts included, over `post_chronological_keys`.
    public func readKeysChronologically<T>(_ body: (ListingKeyCursor) throws -> T) throws -> T {
        try read { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(ListingKey.columns) FROM post ORDER BY (postType = 'notice') DESC, createdAt, postId")
            return try body(ListingKeyCursor(rows: rows, lookup: ListingLookup(db: db, pseudonyms: pseudonyms)))
        }
    }
}

extension ListingLookup {
    /// The keys of the posts with these ids, removed ones included, by id, over `post_id_keys`.
    public func keys(ids: [Int]) throws -> [Int: ListingKey] {
        var result: [Int: ListingKey] = [:]
        let rows = try Row.fetchCursor(
            db, sql: "SELECT \(ListingKey.columns) FROM post INDEXED BY post_id_keys WHERE postId \(Self.inIds)", arguments: Self.arguments(ids))
        while let row = try rows.next() {
            let key = ListingKey(row: row)
            result[key.postId] = key
        }
        return result
    }

    /// The keys of the published replies to posts with these ids, each parent's replies in board order of their own
    /// board, boards by id, over `post_parent_keys`.
    public func replyKeys(toPostIds ids: [Int]) throws -> [Int: [ListingKey]] {
        var result: [Int: [ListingKey]] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT \(ListingKey.columns) FROM post WHERE parentPostId \(Self.inIds)
                AND \(ArchiveStore.publishedPosts) ORDER BY boardId, \(ArchiveStore.boardOrder)
                """, arguments: Self.arguments(ids))
        while let row = try rows.next() {
            let key = ListingKey(row: row)
            if let parent = key.parentPostId { result[parent, default: []].append(key) }
        }
        return result
    }
}
