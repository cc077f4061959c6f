import Foundation
import GRDB

/// A post as listings and build digests need it: every field but the body, and the hash of what the API sent.
public struct ListedPost: Sendable, Equatable {
    /// The post, with empty `contents` (bodies are read only for the pages that are rendered).
    public var post: Post
    /// The content hash of the post as stored (changes whenever any of its fields changes).
    public var contentHash: String
}

/// How many posts of a listing are notices and how many are not.
public struct ListingCounts: Sendable, Equatable {
    public var notices: Int
    public var others: Int
}

extension ArchiveStore {
    /// The columns of a listed post: everything but `contents` and `raw`.
    static let listedColumns = """
        postId, boardId, title, boardDisplayName, writerName, writerEmail, writerProfileImage, createdAt, viewCount, postType,
        rawPostType, isNewPost, hasInlineImage, commentsCount, attachmentsCount, isAnonymous, isOwner, hasReply, parentPostId,
        hasAttachment, contentHash
        """

    /// The number of notices and other posts of a board.
    public func listingCounts(ofBoard boardId: Int) throws -> ListingCounts {
        try read { db in
            let notices =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM post WHERE boardId = ? AND postType = 'notice'", arguments: [boardId]) ?? 0
            let all = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM post WHERE boardId = ?", arguments: [boardId]) ?? 0
            return ListingCounts(notices: notices, others: all - notices)
        }
    }

    /// Reads a board's posts without bodies in board order (notices first, newest first) over the board-order index:
    /// `body` pulls them one by one from the cursor, which also answers follow-up lookups in the same snapshot.
    public func readListing<T>(ofBoard boardId: Int, _ body: (ListingCursor) throws -> T) throws -> T {
        try read { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(Self.listedColumns) FROM post WHERE boardId = ? ORDER BY \(Self.boardOrder)", arguments: [boardId])
            return try body(ListingCursor(rows: rows, lookup: ListingLookup(db: db)))
        }
    }

    /// Reads every post of the archive without bodies in search-block order: notices, then the others, each oldest
    /// first (ties by `postId`), over the chronological index; `body` pulls them from the cursor.
    public func readChronologically<T>(_ body: (ListingCursor) throws -> T) throws -> T {
        try read { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(Self.listedColumns) FROM post ORDER BY (postType = 'notice') DESC, createdAt, postId")
            return try body(ListingCursor(rows: rows, lookup: ListingLookup(db: db)))
        }
    }

    /// The posts (with bodies) with these ids, by id.
    public func posts(ids: [Int]) throws -> [Int: Post] {
        try read { db in
            var result: [Int: Post] = [:]
            for chunk in ListingLookup.chunks(of: ids) {
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT \(Self.listedColumns), contents FROM post WHERE postId IN \(ListingLookup.placeholders(chunk.count))",
                    arguments: StatementArguments(chunk))
                while let row = try rows.next() {
                    let post = Self.post(from: row)
                    result[post.postId] = post
                }
            }
            return result
        }
    }

    static func listedPost(from row: Row) -> ListedPost {
        // By position, in the order of `listedColumns` (looking columns up by name cost more than reading them).
        var post = Post(
            postId: row[0], title: row[2], boardId: row[1], boardDisplayName: row[3],
            writer: Writer(displayName: row[4], emailAddress: row[5], profileImage: row[6]),
            contents: "", createdDateTime: Date(timeIntervalSince1970: TimeInterval(row[7] as Int64)),
            viewCount: row[8], postType: PostType(rawValue: row[9]) ?? .normal, isNewPost: row[11],
            hasInlineImage: row[12], commentsCount: row[13], attachmentsCount: row[14],
            isAnonymous: row[15], isOwner: row[16], hasReply: row[17], parentPostId: row[18],
            hasAttachment: row[19])
        post.unknownPostType = row[10]
        return ListedPost(post: post, contentHash: row[20])
    }
}

/// A board's posts, streamed, with lookups in the same read.
public struct ListingCursor {
    let rows: RowCursor
    /// Lookups in the same snapshot.
    public let lookup: ListingLookup

    /// The next post, or nil at the end.
    public func next() throws -> ListedPost? {
        try rows.next().map(ArchiveStore.listedPost(from:))
    }
}

/// Follow-up lookups inside a streaming read (same connection, same snapshot).
public struct ListingLookup {
    let db: Database

    /// The posts (without bodies) with these ids, by id.
    public func posts(ids: [Int]) throws -> [Int: ListedPost] {
        var result: [Int: ListedPost] = [:]
        for chunk in Self.chunks(of: ids) {
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(ArchiveStore.listedColumns) FROM post WHERE postId IN \(Self.placeholders(chunk.count))",
                arguments: StatementArguments(chunk))
            while let row = try rows.next() {
                let listed = ArchiveStore.listedPost(from: row)
                result[listed.post.postId] = listed
            }
        }
        return result
    }

    /// The replies (without bodies) to posts with these ids, each parent's replies in board order of their own board,
    /// boards by id.
    public func replies(toPostIds ids: [Int]) throws -> [Int: [ListedPost]] {
        var result: [Int: [ListedPost]] = [:]
        for chunk in Self.chunks(of: ids) {
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT \(ArchiveStore.listedColumns) FROM post WHERE parentPostId IN \(Self.placeholders(chunk.count))
                    ORDER BY boardId, \(ArchiveStore.boardOrder)
                    """, arguments: StatementArguments(chunk))
            while let row = try rows.next() {
                let listed = ArchiveStore.listedPost(from: row)
                if let parent = listed.post.parentPostId { result[parent, default: []].append(listed) }
            }
        }
        return result
    }

    /// The bodies of the posts with these ids, by id.
    public func bodies(ofPostIds ids: [Int]) throws -> [Int: String] {
        var result: [Int: String] = [:]
        for chunk in Self.chunks(of: ids) {
            let rows = try Row.fetchCursor(
                db, sql: "SELECT postId, contents FROM post WHERE postId IN \(Self.placeholders(chunk.count))", arguments: StatementArguments(chunk))
            while let row = try rows.next() { result[row["postId"]] = row["contents"] }
        }
        return result
    }

    /// `ids` in runs of at most 500, SQLite's comfortable number of bound parameters.
    static func chunks(of ids: [Int]) -> [[Int]] {
        stride(from: 0, to: ids.count, by: 500).map { Array(ids[$0..<min(ids.count, $0 + 500)]) }
    }

    /// `(?,?,…)` with `count` parameters.
    static func placeholders(_ count: Int) -> String {
        "(" + Array(repeating: "?", count: count).joined(separator: ",") + ")"
    }
}
