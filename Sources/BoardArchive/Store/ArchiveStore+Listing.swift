import Foundation
import GRDB

/// A post as listings and build digests need it: every field but the body, and the hash of what the API sent.
public struct ListedPost: Sendable, Equatable {
    /// The post, with empty `contents` (bodies are read only for the pages that are rendered).
    public var post: Post
    /// The content hash of the post as stored (changes whenever any of its fields changes); a post whose writer a
    /// redaction withholds has its own hash, so every page that shows it is rendered again.
    public var contentHash: String

    /// What a post's hash gets when a redaction withholds its writer.
    static let anonymizedSuffix = "~anonymized"
}

/// A place in a listing that a redaction emptied: the post is removed from the site, its address shows a tombstone.
///
/// The build keeps its place (so that listing pages and search blocks after it do not move) but shows nothing of it.
public struct RemovedPost: Sendable, Equatable {
    public var postId: Int
    public var boardId: Int
    public var isNotice: Bool
    /// When the redaction that removed it was made.
    public var redactedAt: Date
}

/// How many posts of a listing are notices and how many are not.
public struct ListingCounts: Sendable, Equatable {
    /// Notices, removed ones included.
    public var notices: Int
    /// Other posts, removed ones included.
    public var others: Int
    /// Posts a redaction removed (a place in the listing, no row).
    public var removed = 0

    /// The posts the listing shows.
    public var shown: Int { notices + others - removed }
}

extension ArchiveStore {
    /// The columns of a listed post: everything but `contents` and `raw`.
    static let listedColumns = """
        postId, boardId, title, boardDisplayName, writerName, writerEmail, writerProfileImage, createdAt, viewCount, postType,
        rawPostType, isNewPost, hasInlineImage, commentsCount, attachmentsCount, isAnonymous, isOwner, hasReply, parentPostId,
        hasAttachment, contentHash, redactionMode, redactedAt
        """

    /// The number of notices and other posts of a board, removed posts included (they keep their places; see
    /// ``ArchiveStore/readListingKeys(ofBoard:_:)``), and how many of them a redaction removed.
    public func listingCounts(ofBoard boardId: Int) throws -> ListingCounts {
        try read { db in
            let notices =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM post WHERE boardId = ? AND postType = 'notice'", arguments: [boardId]) ?? 0
            let all = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM post WHERE boardId = ?", arguments: [boardId]) ?? 0
            let removed = try Self.removedCount(in: db, board: boardId)
            return ListingCounts(notices: notices, others: all - notices, removed: removed)
        }
    }

    /// Runs `body` with lookups in one snapshot of the store, without a stream.
    public func withLookup<T>(_ body: (ListingLookup) throws -> T) throws -> T {
        try read { db in try body(ListingLookup(db: db, pseudonyms: pseudonyms)) }
    }

    /// The posts (with bodies) with these ids, by id.
    public func posts(ids: [Int]) throws -> [Int: Post] {
        try read { db in
            var result: [Int: Post] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(Self.listedColumns), contents FROM post WHERE postId \(ListingLookup.inIds) AND \(Self.publishedPosts)",
                arguments: ListingLookup.arguments(ids))
            while let row = try rows.next() {
                let post = published(from: row)
                result[post.postId] = post
            }
            return result
        }
    }

    static func listedPost(from row: Row, pseudonyms: WriterPseudonyms?) -> ListedPost {
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
        var hash: String = row[20]
        if (row[21] as String?) == RedactionMode.anonymize.rawValue {
            post.withholdWriter()
            hash += ListedPost.anonymizedSuffix
        }
        pseudonyms?.apply(to: &post)
        return ListedPost(post: post, contentHash: hash)
    }
}

/// Follow-up lookups inside a streaming read (same connection, same snapshot).
public struct ListingLookup {
    let db: Database
    /// The pseudonyms of the store that made the lookup, or nil.
    let pseudonyms: WriterPseudonyms?

    /// The posts (without bodies) with these ids that the site shows, by id.
    public func posts(ids: [Int]) throws -> [Int: ListedPost] {
        var result: [Int: ListedPost] = [:]
        try forEachRow(ids: ids, where: ArchiveStore.publishedPosts) { row in
            let listed = ArchiveStore.listedPost(from: row, pseudonyms: pseudonyms)
            result[listed.post.postId] = listed
        }
        return result
    }

    /// The posts with their bodies, with these ids, that the site shows, by id.
    public func postsWithBodies(ids: [Int]) throws -> [Int: ListedPost] {
        var result: [Int: ListedPost] = [:]
        try forEachRow(ids: ids, withContents: true, where: ArchiveStore.publishedPosts) { row in
            var listed = ArchiveStore.listedPost(from: row, pseudonyms: pseudonyms)
            listed.post.contents = (row[23] as String?) ?? ""
            result[listed.post.postId] = listed
        }
        return result
    }

    /// Calls `body` with the row (`listedColumns`, then `contents` when `withContents`) of each post with one of these
    /// ids that meets `condition`.
    private func forEachRow(ids: [Int], withContents: Bool = false, where condition: String, _ body: (Row) throws -> Void) throws {
        let columns = ArchiveStore.listedColumns + (withContents ? ", contents" : "")
        let rows = try Row.fetchCursor(
            db, sql: "SELECT \(columns) FROM post WHERE postId \(Self.inIds) AND \(condition)", arguments: Self.arguments(ids))
        while let row = try rows.next() { try body(row) }
    }

    /// The posts a redaction removed, with these ids, by id, with their text, for the keyword lists that keep their
    /// places (see ``RemovedPlaces``); purged posts are left out. Never published.
    public func removedPosts(ids: [Int]) throws -> [Int: Post] {
        var result: [Int: Post] = [:]
        // A purged post keeps nothing to match (its anonymous flag would still match the anonymous label).
        try forEachRow(ids: ids, withContents: true, where: ArchiveStore.removedPosts + " AND purged = 0") { row in
            var post = ArchiveStore.listedPost(from: row, pseudonyms: pseudonyms).post
            post.contents = (row[23] as String?) ?? ""
            result[post.postId] = post
        }
        return result
    }

    /// The condition on an id column that it is one of a list of ids passed as one argument (``arguments(_:)``): a JSON
    /// array read by `json_each`, so the statement's text is the same for any number of ids (SQLite prepares it once per
    /// connection) and binding is one string, not one parameter per id (GRDB converts those through key paths, about
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
