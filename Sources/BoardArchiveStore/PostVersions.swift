import BoardArchiveModel
import Foundation

/// An earlier version of a post: every field as it was (as the site may show it: a redaction that withholds the post's
/// writer withholds it in every version), and when the archive first and last saw it.
public struct PostVersion: Sendable, Equatable {
    /// 1 for the oldest version kept, counting up; the current text is version ``PostVersions/earlier``'s count + 1.
    public var version: Int
    public var post: Post
    public var firstSeen: Date
    public var lastSeen: Date
}

/// What the store keeps of a post's past: its earlier versions, oldest first, and since when its current text is seen.
public struct PostVersions: Sendable, Equatable {
    public var earlier: [PostVersion]
    /// When a crawl first saw the current text (the edit's date), nil while there is no earlier version.
    public var currentSince: Date?

    public init(earlier: [PostVersion], currentSince: Date?) {
        self.earlier = earlier
        self.currentSince = currentSince
    }
}

extension ArchiveStore {
    /// The earlier versions (not purged: a purge leaves nothing of a version to show) of the published posts whose ids the
    /// condition `ids` (on `v.postId`) names: the columns of ``listedColumns`` from the version (the redaction from the
    /// post; no deletion or edit dates), then `contents`, `version`, `firstSeen`, `lastSeen` and the post's `editedAt`, in
    /// order of post and version.
    static func versionsSQL(ids: String) -> String {
        """
        SELECT v.postId, v.boardId, v.title, v.boardDisplayName, v.writerName, v.writerEmail, v.writerProfileImage, v.createdAt,
            v.viewCount, v.postType, v.rawPostType, v.isNewPost, v.hasInlineImage, v.commentsCount, v.attachmentsCount, v.isAnonymous,
            v.isOwner, v.hasReply, v.parentPostId, v.hasAttachment, v.contentHash, p.redactionMode, p.redactedAt,
            CAST(NULL AS DOUBLE PRECISION), CAST(NULL AS DOUBLE PRECISION), CAST(NULL AS DOUBLE PRECISION), v.contents, v.version, v.firstSeen,
            v.lastSeen, p.editedAt
        FROM post_version AS v JOIN post AS p ON p.postId = v.postId
        WHERE v.postId \(ids) AND (p.redactionMode IS NULL OR p.redactionMode <> 'remove') AND v.purged = 0
        ORDER BY v.postId, v.version
        """
    }

    /// A row of ``versionsSQL(ids:)``: the post's id, the version, and the post's `editedAt`.
    static func versionRow(_ row: some StoredColumns, pseudonyms: WriterPseudonyms?) throws -> (Int, PostVersion, Date?) {
        let version = PostVersion(
            version: try row.int(contentsColumn + 1), post: try listedPost(row, withContents: true, pseudonyms: pseudonyms).post,
            firstSeen: Date(timeIntervalSince1970: try row.optionalDouble(contentsColumn + 2) ?? 0),
            lastSeen: Date(timeIntervalSince1970: try row.optionalDouble(contentsColumn + 3) ?? 0))
        return (version.post.postId, version, try row.optionalDouble(contentsColumn + 4).map(Date.init(timeIntervalSince1970:)))
    }

    /// Rows of a post's versions (its id, the version, its `editedAt`), in order of post and version, grouped by post
    /// with `make` (posts with no earlier version are left out).
    static func grouped<Item, Group>(_ rows: [(Int, Item, Date?)], _ make: ([Item], Date?) -> Group) -> [Int: Group] {
        Dictionary(grouping: rows, by: \.0).mapValues { rows in make(rows.map(\.1), rows[0].2) }
    }
}

/// What the build's digests need of one earlier version: its number, hash and dates; no text.
public struct VersionKey: Sendable, Equatable, Hashable {
    public var version: Int
    public var contentHash: String
    public var firstSeen: Date
    public var lastSeen: Date

    public init(version: Int, contentHash: String, firstSeen: Date, lastSeen: Date) {
        self.version = version
        self.contentHash = contentHash
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
    }
}

/// A post's earlier versions as keys, oldest first, and since when its current text is seen.
public struct VersionKeys: Sendable, Equatable, Hashable {
    public var earlier: [VersionKey]
    public var currentSince: Date?

    public init(earlier: [VersionKey], currentSince: Date?) {
        self.earlier = earlier
        self.currentSince = currentSince
    }
}

extension ArchiveStore {
    /// The keys of the earlier versions (not purged) of the posts whose ids the condition `ids` (on `v.postId`) names, with each post's
    /// `editedAt`: `postId`, `version`, `contentHash`, `firstSeen`, `lastSeen`, `editedAt`.
    static func versionKeysSQL(ids: String) -> String {
        """
        SELECT v.postId, v.version, v.contentHash, v.firstSeen, v.lastSeen, p.editedAt
        FROM post_version AS v JOIN post AS p ON p.postId = v.postId WHERE v.postId \(ids) AND v.purged = 0 ORDER BY v.postId, v.version
        """
    }

    /// A row of ``versionKeysSQL(ids:)``.
    static func versionKeyRow(_ row: some StoredColumns) throws -> (Int, VersionKey, Date?) {
        (
            try row.int(0),
            VersionKey(
                version: try row.int(1), contentHash: try row.string(2), firstSeen: Date(timeIntervalSince1970: try row.optionalDouble(3) ?? 0),
                lastSeen: Date(timeIntervalSince1970: try row.optionalDouble(4) ?? 0)),
            try row.optionalDouble(5).map(Date.init(timeIntervalSince1970:))
        )
    }
}
