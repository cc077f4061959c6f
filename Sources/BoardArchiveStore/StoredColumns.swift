import BoardArchiveModel
import Foundation
import GRDB

/// A row of the store read by position, whichever database it came from.
///
/// The SQLite and PostgreSQL stores hold the same columns (the PostgreSQL schema maps `INTEGER` ids to `BIGINT` and
/// keeps flags as 0/1 integers), so one definition of each value read from a row (``ListingKey``, ``ListedPost``,
/// ``Board``) serves both: this protocol is the only thing each backend supplies.
protocol StoredColumns {
    func int(_ index: Int) throws -> Int
    func optionalInt(_ index: Int) throws -> Int?
    func string(_ index: Int) throws -> String
    func optionalString(_ index: Int) throws -> String?
    func optionalDouble(_ index: Int) throws -> Double?
}

extension StoredColumns {
    /// A 0/1 flag.
    func bool(_ index: Int) throws -> Bool { try int(index) != 0 }
    /// A 0/1 flag or NULL.
    func optionalBool(_ index: Int) throws -> Bool? { try optionalInt(index).map { $0 != 0 } }
}

extension Row: StoredColumns {
    func int(_ index: Int) -> Int { self[index] }
    func optionalInt(_ index: Int) -> Int? { self[index] }
    func string(_ index: Int) -> String { self[index] }
    func optionalString(_ index: Int) -> String? { self[index] }
    func optionalDouble(_ index: Int) -> Double? { self[index] }
}

extension ListingKey {
    /// A key from a row of ``columns``, as the site under `rule` shows it.
    init(_ row: some StoredColumns, rule: Publication = Publication()) throws {
        postId = try row.int(0)
        boardId = try row.int(1)
        isNotice = try row.string(2) == PostType.notice.rawValue
        created = Date(timeIntervalSince1970: TimeInterval(try row.int(3)))
        parentPostId = try row.optionalInt(4)
        let mode = try row.optionalString(6)
        contentHash = try row.string(5)
        if mode == RedactionMode.anonymize.rawValue { contentHash += ListedPost.anonymizedSuffix }
        removedAt = mode == RedactionMode.remove.rawValue ? Date(timeIntervalSince1970: try row.optionalDouble(7) ?? 0) : nil
        goneSince = try row.optionalDouble(8).map(Date.init(timeIntervalSince1970:))
        versionCount = try row.int(9)
        if removedAt == nil, rule.leavesOutGone, let goneSince {
            removedAt = goneSince
            removedAtSource = true
        }
    }
}

extension ArchiveStore {
    /// The boards the source no longer lists (`goneSince`), with when they were last seen.
    static let goneBoardsSQL = "SELECT boardId, lastSeen FROM board WHERE goneSince IS NOT NULL ORDER BY boardId"

    /// The columns of a board, in the order ``board(_:)`` reads them.
    static let boardColumns = "boardId, displayName, boardType, isFavorite, hasNewPost, orderNo, capabilityWritable, capabilityManageable"

    /// A board from a row of ``boardColumns``.
    static func board(_ row: some StoredColumns) throws -> Board {
        let writable = try row.optionalBool(6)
        let manageable = try row.optionalBool(7)
        return Board(
            boardId: try row.int(0), displayName: try row.string(1), boardType: try row.optionalString(2), isFavorite: try row.optionalBool(3),
            hasNewPost: try row.optionalBool(4), orderNo: try row.optionalInt(5),
            capability: writable.flatMap { w in manageable.map { Board.Capability(writable: w, manageable: $0) } })
    }

    /// A post from a row of ``listedColumns`` (and `contents` at ``contentsColumn`` when `withContents`), as the site may show it:
    /// anonymized when a redaction withholds its writer, with the writer's pseudonym when `pseudonyms` is given.
    static func listedPost(_ row: some StoredColumns, withContents: Bool = false, pseudonyms: WriterPseudonyms?) throws -> ListedPost {
        // By position, in the order of `listedColumns` (looking columns up by name cost more than reading them).
        var post = Post(
            postId: try row.int(0), title: try row.string(2), boardId: try row.int(1), boardDisplayName: try row.optionalString(3),
            writer: Writer(displayName: try row.string(4), emailAddress: try row.optionalString(5), profileImage: try row.optionalString(6)),
            contents: withContents ? try row.optionalString(contentsColumn) ?? "" : "",
            createdDateTime: Date(timeIntervalSince1970: TimeInterval(try row.int(7))),
            viewCount: try row.int(8), postType: PostType(rawValue: try row.string(9)) ?? .normal, isNewPost: try row.optionalBool(11),
            hasInlineImage: try row.optionalBool(12), commentsCount: try row.int(13), attachmentsCount: try row.int(14),
            isAnonymous: try row.bool(15), isOwner: try row.optionalBool(16), hasReply: try row.optionalBool(17),
            parentPostId: try row.optionalInt(18),
            hasAttachment: try row.optionalBool(19))
        post.unknownPostType = try row.optionalString(10)
        var hash = try row.string(20)
        if try row.optionalString(21) == RedactionMode.anonymize.rawValue {
            post.withholdWriter()
            hash += ListedPost.anonymizedSuffix
        }
        pseudonyms?.apply(to: &post)
        let lastSeen = try row.optionalDouble(24).map(Date.init(timeIntervalSince1970:))
        return ListedPost(
            post: post, contentHash: hash, goneLastSeen: try row.optionalDouble(23) == nil ? nil : lastSeen,
            editedAt: try row.optionalDouble(25).map(Date.init(timeIntervalSince1970:)))
    }
}
