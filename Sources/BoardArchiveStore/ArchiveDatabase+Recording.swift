import BoardArchiveModel
import Foundation

/// How many posts a write added, changed or found unchanged.
public struct RecordCounts: Sendable, Equatable {
    public var new = 0
    public var changed = 0
    public var unchanged = 0

    public init(new: Int = 0, changed: Int = 0, unchanged: Int = 0) {
        self.new = new
        self.changed = changed
        self.unchanged = unchanged
    }

    package static func + (lhs: RecordCounts, rhs: RecordCounts) -> RecordCounts {
        RecordCounts(new: lhs.new + rhs.new, changed: lhs.changed + rhs.changed, unchanged: lhs.unchanged + rhs.unchanged)
    }
}

/// An API item with the exact JSON it arrived as (keys sorted), so fields this version does not know are kept too.
public struct RawItem<Item: Sendable>: Sendable {
    public var item: Item
    public var json: String

    public init(item: Item, json: String) {
        self.item = item
        self.json = json
    }
}

extension RawItem where Item: Encodable {
    /// Wraps an item built in code, its JSON encoded with sorted keys.
    public init(_ item: Item) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(item)) ?? Data()
        self.init(item: item, json: String(decoding: data, as: UTF8.self))
    }
}

extension ArchiveDatabase {
    /// Upserts boards outside any crawl run (tests and imports).
    public func record(boards: [Board], at date: Date) throws {
        try transact { db in try Self.upsert(boards: boards.map(RawItem.init), run: nil, at: date, in: db) }
    }

    /// Upserts posts outside any crawl run (tests and imports).
    @discardableResult
    public func record(posts: [Post], at date: Date, media: MediaReferencing? = nil) throws -> RecordCounts {
        try transact { db in try Self.upsert(posts: posts.map(RawItem.init), run: nil, at: date, media: media, in: db) }
    }

    static func upsert(boards: [RawItem<Board>], run: Int64?, at date: Date, in db: any StoreTransaction) throws {
        for raw in boards {
            let board = raw.item
            try db.execute(
                """
                INSERT INTO board (boardId, displayName, boardType, isFavorite, hasNewPost, orderNo, capabilityWritable,
                    capabilityManageable, raw, firstSeen, lastSeen, lastSeenRun, goneSince)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
                ON CONFLICT (boardId) DO UPDATE SET displayName = excluded.displayName, boardType = excluded.boardType,
                    isFavorite = excluded.isFavorite, hasNewPost = excluded.hasNewPost, orderNo = excluded.orderNo,
                    capabilityWritable = excluded.capabilityWritable, capabilityManageable = excluded.capabilityManageable,
                    raw = excluded.raw, lastSeen = excluded.lastSeen, lastSeenRun = excluded.lastSeenRun, goneSince = NULL
                """,
                [
                    .init(board.boardId), .init(ArchiveStore.storable(board.displayName)), .init(ArchiveStore.storable(board.boardType)),
                    .init(board.isFavorite), .init(board.hasNewPost), .init(board.orderNo), .init(board.capability?.writable),
                    .init(board.capability?.manageable), .init(raw.json), .init(date), .init(date), .init(run),
                ])
        }
    }

    /// The values of a post's row, in the order of ``ArchiveTable/post``'s columns (``upsertBatch`` checks the count).
    static func postValues(_ post: Post, json: String, hash: String, run: Int64?, at date: Date, verdict: RedactionRules.Verdict?) -> [StoredValue] {
        let created = Int64(post.createdDateTime.timeIntervalSince1970.rounded(.down))
        let mode = verdict.map { $0.purge == .all ? RedactionMode.remove.rawValue : $0.mode.rawValue }
        return [
            .init(post.postId), .init(post.boardId), .init(ArchiveStore.storable(post.title)), .init(ArchiveStore.storable(post.boardDisplayName)),
            .init(ArchiveStore.storable(post.writer.displayName)), .init(ArchiveStore.storable(post.writer.emailAddress)),
            .init(ArchiveStore.storable(post.writer.profileImage)), .init(ArchiveStore.storable(post.contents)), .init(created),
            .init(post.viewCount),
            .init(post.postType.rawValue), .init(ArchiveStore.storable(post.unknownPostType)), .init(post.isNewPost), .init(post.hasInlineImage),
            .init(post.commentsCount), .init(post.attachmentsCount), .init(post.isAnonymous), .init(post.isOwner), .init(post.hasReply),
            .init(post.parentPostId), .init(post.hasAttachment), .init(json), .init(hash), .init(date), .init(date), .init(run), .null,
            .init(verdict?.id), .init(mode), .init(verdict?.createdAt), .init(verdict?.purge.rawValue ?? 0), .null, .init(0),
        ]
    }

    /// Posts written by one statement at most (33 parameters each: within SQLite's 32,766 and PostgreSQL's 65,535).
    static var postsPerStatement: Int { 500 }

    static func upsert(
        posts: [RawItem<Post>], run: Int64?, at date: Date, media: MediaReferencing? = nil, in db: any StoreTransaction
    ) throws -> RecordCounts {
        var counts = RecordCounts()
        // Takedowns apply to every write: a redacted post the API still serves stays redacted, and what a purge
        // hides is never stored again (the hash of what the API sent is kept, to tell "unchanged" on the next crawl).
        let rules = try RedactionRules.load(db)
        // One lookup and one upsert per batch of distinct ids; a post listed twice starts a new batch, so that it is
        // counted and checked against its first write, as if written one by one.
        var start = posts.startIndex
        while start < posts.endIndex {
            var ids = Set<Int>()
            var end = start
            while end < posts.endIndex, end - start < postsPerStatement, ids.insert(posts[end].item.postId).inserted { end += 1 }
            counts = counts + (try upsertBatch(posts[start..<end], rules: rules, run: run, at: date, media: media, in: db))
            start = end
        }
        return counts
    }

    /// Writes posts of distinct ids with one lookup and one statement.
    private static func upsertBatch(
        _ posts: ArraySlice<RawItem<Post>>, rules: RedactionRules, run: Int64?, at date: Date, media: MediaReferencing?,
        in db: any StoreTransaction
    ) throws -> RecordCounts {
        var counts = RecordCounts()
        let marks = placeholders(posts.count)
        var stored: [Int: [StoredValue]] = [:]
        for row in try db.rows(
            "SELECT postId, contentHash, goneSince, boardId, lastSeenRun, writerName FROM post WHERE postId IN (\(marks))",
            posts.map { .init($0.item.postId) })
        {
            if let id = row[0].int { stored[id] = row }
        }
        // The names the posts had before, for writer rules (only read when there are any).
        var earlierWriters: [Int: [String]] = [:]
        if !rules.writers.isEmpty {
            for (id, row) in stored { earlierWriters[id, default: []].append(row[5].string ?? "") }
            for row in try db.rows(
                "SELECT postId, writerName FROM post_version WHERE postId IN (\(marks))", posts.map { .init($0.item.postId) })
            {
                if let id = row[0].int { earlierWriters[id, default: []].append(row[1].string ?? "") }
            }
        }
        var rewritten: [Int: Post] = [:]
        // The posts whose pictures are read: new ones, and those whose stored text changed.
        var added: [Post] = []
        var changed: [Post] = []
        var values: [StoredValue] = []
        values.reserveCapacity(posts.count * PostUpsert.table.columns.count)
        for raw in posts {
            let hash = ContentHash.hex(of: raw.json)
            let verdict = rules.verdict(
                postId: raw.item.postId, boardId: raw.item.boardId, writerName: raw.item.writer.displayName,
                earlierWriters: earlierWriters[raw.item.postId] ?? [])
            let (post, json) = ArchiveStore.keepable(raw, purge: verdict?.purge ?? .none)
            if let row = stored[post.postId] {
                // One id, one page (posts/<postId>.html): a post another board listed in this same run cannot also be
                // this board's. A post last seen in an earlier run under another board has moved, and follows.
                let storedBoard = row[3].int ?? 0
                if let run, row[4].int == Int(run), storedBoard != post.boardId {
                    throw CrawlError(request: "", reason: .postInTwoBoards(post: post.postId, first: storedBoard, second: post.boardId))
                }
                if row[1].string == hash && row[2] == .null { counts.unchanged += 1 } else { counts.changed += 1 }
                // Under a purge nothing of the stored text is kept again as a version.
                if row[1].string != hash, verdict.map({ $0.purge == RedactionRules.PurgeLevel.none }) ?? true { rewritten[post.postId] = post }
                if row[1].string != hash { changed.append(post) }
            } else {
                counts.new += 1
                added.append(post)
            }
            values += postValues(post, json: json, hash: hash, run: run, at: date, verdict: verdict)
        }
        precondition(values.count == posts.count * PostUpsert.table.columns.count, "postValues gives every column of the post table")
        let edited = rewritten.isEmpty ? [] : try editedPosts(rewritten, in: db)
        try keepVersions(of: edited, in: db)
        try db.execute(PostUpsert.sql(rows: posts.count), values)
        if let media {
            try referMedia(added, replacing: false, media: media, at: date, in: db)
            try referMedia(changed, replacing: true, media: media, at: date, in: db)
        }
        if !edited.isEmpty {
            try db.execute(
                "UPDATE post SET versionCount = versionCount + 1, editedAt = ? WHERE postId IN (\(placeholders(edited.count)))",
                [.init(date)] + edited.map { .init($0) })
        }
        return counts
    }

    /// `?, ?, …`: `count` parameters.
    static func placeholders(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ", ") }

    /// Of posts whose content hash changed, the ids of those whose text changed: title, contents or writer's name (what
    /// a reader sees of the post itself). Counters, flags (views, comments, "new") and the writer's e-mail address and
    /// picture (never published) change in place, without a version. A stored post a purge blanked has no text to keep.
    private static func editedPosts(_ incoming: [Int: Post], in db: any StoreTransaction) throws -> [Int] {
        let ids = incoming.keys.sorted()
        return try db.rows(
            "SELECT postId, title, contents, writerName, purged FROM post WHERE postId IN (\(placeholders(ids.count)))",
            ids.map { .init($0) }
        ).compactMap { row -> Int? in
            guard let id = row[0].int, let post = incoming[id], row[4].int == 0 else { return nil }
            let now: [String?] = [
                ArchiveStore.storable(post.title), ArchiveStore.storable(post.contents), ArchiveStore.storable(post.writer.displayName),
            ]
            return (1...3).map { row[$0].string } == now ? nil : id
        }.sorted()
    }

    /// Copies the stored rows of `ids` into `post_version` as their next earlier version, before they are overwritten:
    /// every column as it was, first seen when its text was (`editedAt`, or the post's first sighting), last seen last.
    static func keepVersions(of ids: [Int], in db: any StoreTransaction) throws {
        guard !ids.isEmpty else { return }
        let columns = ArchiveTable.versionedColumns.joined(separator: ", ")
        try db.execute(
            """
            INSERT INTO post_version (postId, version, contentHash, firstSeen, lastSeen, purged, \(columns))
            SELECT postId, versionCount + 1, contentHash, COALESCE(editedAt, firstSeen), lastSeen, purged, \(columns) FROM post
            WHERE postId IN (\(placeholders(ids.count)))
            """, ids.map { .init($0) })
    }

    /// The exact JSON a post was last received as.
    public func rawJSON(ofPost id: Int) throws -> String? {
        try readOnly { db in try db.value("SELECT raw FROM post WHERE postId = ?", [.init(id)])?.string }
    }
}

/// The statement that writes posts: the post table's one definition (``ArchiveTable/post``, which `store copy` and its
/// tests check against both schemas) upserted as `store copy` upserts it, except that an update keeps `firstSeen` (the
/// first sighting), `editedAt` and `versionCount` (set by ``ArchiveDatabase/keepVersions``), and clears `goneSince` (the
/// post is listed again).
enum PostUpsert {
    static let table = ArchiveTable.post

    /// `column = excluded.column, …` for the columns an upsert changes.
    static let updates = table.columns.filter { !table.key.contains($0) && !["firstSeen", "editedAt", "versionCount"].contains($0) }
        .map { $0 == "goneSince" ? "goneSince = NULL" : "\($0) = excluded.\($0)" }

    /// The upsert of `rows` posts.
    static func sql(rows: Int) -> String {
        table.upsertSQL(rows: rows, placeholder: { _ in "?" }, updates: updates)
    }
}

extension ArchiveStore {
    /// What the store may keep of a post under `purge`: all of it, all but the writer, or only ids, dates and counts.
    static func keepable(_ raw: RawItem<Post>, purge: RedactionRules.PurgeLevel) -> (Post, String) {
        guard purge != .none else { return (raw.item, raw.json) }
        var post = raw.item
        post.writer = Writer(displayName: "", emailAddress: nil, profileImage: nil)
        if purge == .all {
            post.title = ""
            post.contents = ""
        }
        return (post, "{}")
    }
}

/// A 64-bit FNV-1a content hash, in hex: cheap, stable across runs and platforms, enough to tell "changed".
package enum ContentHash {
    package static func hex(of text: String) -> String {
        hex(value(of: text.utf8))
    }

    /// The FNV-1a hash of `bytes`.
    static func value(of bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// `value` as 16 lowercase hex digits, the way the store spells a hash.
    package static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The number a stored hash spells: its 16 lowercase hex digits read back; any other text (a store written by
    /// something else) as the FNV-1a hash of its bytes. Eight bytes instead of a 16-digit string on the heap.
    package static func key(_ hash: some Collection<UInt8>) -> UInt64 {
        if hash.count == 16 {
            var key: UInt64 = 0
            var isHex = true
            for byte in hash {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): key = key << 4 | UInt64(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): key = key << 4 | UInt64(byte - UInt8(ascii: "a") + 10)
                default: isHex = false
                }
                if !isHex { break }
            }
            if isHex { return key }
        }
        return value(of: hash)
    }
}
