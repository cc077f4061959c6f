import Foundation

/// A table of the archive store as `store copy` moves it: its columns and its key, the same on SQLite and PostgreSQL.
///
/// The list is checked against both schemas (`StoreCopyTableTests`): a column a migration adds must be added here, or the
/// test fails before a copy could leave it behind.
struct ArchiveTable: Sendable, Equatable {
    var name: String
    var columns: [String]
    /// The primary key's columns, a prefix-free subset of `columns`: rows are copied and compared in this order.
    var key: [String]
    /// Rows copied and compared at a time, when fewer than usual (kept images are up to megabytes each).
    var pageRows: Int? = nil

    /// The tables in the order they are copied (a crawl run before the boards' and pages' rows that name it).
    static let all: [ArchiveTable] = [
        ArchiveTable(
            name: "board",
            columns: [
                "boardId", "displayName", "boardType", "isFavorite", "hasNewPost", "orderNo", "capabilityWritable", "capabilityManageable", "raw",
                "firstSeen", "lastSeen", "lastSeenRun", "goneSince",
            ], key: ["boardId"]),
        ArchiveTable(
            name: "redaction", columns: ["redactionId", "kind", "target", "mode", "purge", "reason", "createdAt", "undoneAt"], key: ["redactionId"]),
        ArchiveTable(name: "crawl_run", columns: ["runId", "api", "startedAt", "finishedAt", "status", "pageSize", "summary"], key: ["runId"]),
        ArchiveTable(
            name: "board_crawl", columns: ["runId", "boardId", "status", "passes", "uniquePosts", "total", "mode"], key: ["runId", "boardId"]),
        ArchiveTable(
            name: "page_checkpoint",
            columns: ["runId", "boardId", "pass", "pageOffset", "pageCount", "total", "pageHash", "lastPostId", "postIds", "fetchedAt"],
            key: ["runId", "boardId", "pass", "pageOffset"]),
        ArchiveTable(
            name: "verified_part", columns: ["boardId", "fromOldest", "toOldest", "total", "verifiedAt", "runId"], key: ["boardId", "fromOldest"]),
        post,
        postVersion,
        ArchiveTable(
            name: "media", columns: ["hash", "format", "width", "height", "size", "firstSeen", "bytes"], key: ["hash"], pageRows: 16),
        ArchiveTable(
            name: "media_source", columns: ["address", "status", "hash", "reason", "attempts", "firstSeen", "lastTried", "nextAttempt"],
            key: ["address"]),
        ArchiveTable(name: "post_media", columns: ["postId", "position", "address"], key: ["postId", "position"]),
        ArchiveTable(name: "archive_flag", columns: ["name", "value"], key: ["name"]),
    ]

    /// The post table, also the one definition of what a crawl writes of a post (``PostUpsert``, in this column order).
    static let post = ArchiveTable(
        name: "post",
        columns: [
            "postId", "boardId", "title", "boardDisplayName", "writerName", "writerEmail", "writerProfileImage", "contents", "createdAt",
            "viewCount", "postType", "rawPostType", "isNewPost", "hasInlineImage", "commentsCount", "attachmentsCount", "isAnonymous",
            "isOwner", "hasReply", "parentPostId", "hasAttachment", "raw", "contentHash", "firstSeen", "lastSeen", "lastSeenRun", "goneSince",
            "redactionId", "redactionMode", "redactedAt", "purged", "editedAt", "versionCount",
        ], key: ["postId"])

    /// The columns of a post that an earlier version keeps besides its hash (``postVersion``'s last ones), in order.
    static let versionedColumns = [
        "boardId", "title", "boardDisplayName", "writerName", "writerEmail", "writerProfileImage", "contents", "createdAt", "viewCount",
        "postType", "rawPostType", "isNewPost", "hasInlineImage", "commentsCount", "attachmentsCount", "isAnonymous", "isOwner", "hasReply",
        "parentPostId", "hasAttachment", "raw",
    ]

    /// Earlier versions of posts (migration `v6-versions`): the post's columns as they were, when the version was first
    /// and last seen, and how much of it a purge left.
    static let postVersion = ArchiveTable(
        name: "post_version", columns: ["postId", "version", "contentHash", "firstSeen", "lastSeen", "purged"] + versionedColumns,
        key: ["postId", "version"])

    /// The positions of the key's columns in a row.
    var keyPositions: [Int] { key.compactMap { columns.firstIndex(of: $0) } }

    /// `SELECT` of every column, after `key` when given (`placeholders` names the parameters), in key order.
    func selectSQL(after hasKey: Bool, placeholders: [String], limitPlaceholder: String) -> String {
        var sql = "SELECT \(columns.joined(separator: ", ")) FROM \(name)"
        if hasKey { sql += " WHERE (\(key.joined(separator: ", "))) > (\(placeholders.joined(separator: ", ")))" }
        return sql + " ORDER BY \(key.joined(separator: ", ")) LIMIT \(limitPlaceholder)"
    }
}
