import BoardArchiveModel
import Foundation

// Takedowns in the store.
//
// Each post row carries the redaction that applies to it now (`redactionId`, `redactionMode`, `redactedAt`) and how
// much of it the store still holds (`purged`: 0 all, 1 all but the writer, 2 only ids and dates). The columns are
// set in two places only: `upsert(posts:)` (every write of a post, crawls included, checks the rules in force) and
// `reapplyRedactions(in:)` (after `redact` and `redact --undo`), on SQLite and PostgreSQL alike. Every read the build
// uses honours them (see `ArchiveStore.publishedPosts`), so no phase of the build has to know about takedowns.

extension ArchiveDatabase {
    /// Records a redaction, applies it to the archived posts and, with `purge`, wipes what it hides from the store's
    /// files as far as its database allows (``ArchiveDatabase/wipeFreedSpace()``).
    ///
    /// - Returns: the redaction as `--list` shows it.
    /// - Throws: ``RedactionError`` for a blank reason, anonymize on a post or board, or a post, board or writer the
    ///   store does not hold; ``StoreError`` when the database fails.
    @discardableResult
    public func redact(_ request: RedactionRequest, at date: Date) throws -> Redaction {
        guard !request.reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw RedactionError(location: location, reason: .missingReason)
        }
        let id: Int = try transact { db in
            let target: String
            switch request.target {
            case .post(let postId):
                guard request.mode == .remove else { throw RedactionError(location: location, reason: .anonymizeNeedsWriter) }
                guard try db.row("SELECT 1 FROM post WHERE postId = ?", [.init(postId)]) != nil else {
                    throw RedactionError(location: location, reason: .unknownPost(postId))
                }
                target = String(postId)
            case .board(let boardId):
                guard request.mode == .remove else { throw RedactionError(location: location, reason: .anonymizeNeedsWriter) }
                let known = try db.row(
                    "SELECT 1 FROM board WHERE boardId = ? UNION ALL SELECT 1 FROM post WHERE boardId = ? LIMIT 1", [.init(boardId), .init(boardId)])
                guard known != nil else { throw RedactionError(location: location, reason: .unknownBoard(boardId)) }
                target = String(boardId)
            case .writer(let name):
                let key = RedactionRules.writerKey(name)
                guard !key.isEmpty, try Self.writerNames(matching: [key], in: db).isEmpty == false else {
                    throw RedactionError(location: location, reason: .unknownWriter(name))
                }
                target = request.purge ? RedactionRules.hashedWriterKey(key) : key
            }
            let inserted = try db.value(
                "INSERT INTO redaction (kind, target, mode, purge, reason, createdAt) VALUES (?, ?, ?, ?, ?, ?) RETURNING redactionId",
                [
                    .init(request.target.kind), .init(target), .init(request.mode.rawValue), .init(request.purge),
                    .init(ArchiveStore.storable(request.reason)), .init(date),
                ])
            guard let id = inserted?.int else { throw StoreError(location: location, reason: .query("a new redaction got no id")) }
            try Self.reapplyRedactions(in: db)
            return id
        }
        if request.purge { try wipeFreedSpace() }
        return try redactions().first { $0.id == id }
            ?? Redaction(
                id: id, kind: request.target.kind, target: nil, mode: request.mode, purge: request.purge, reason: request.reason, createdAt: date,
                undoneAt: nil, postCount: 0)
    }

    /// Lifts redaction `id`: its posts come back, unless another redaction applies to them or it purged them (a
    /// purged post comes back when a crawl serves it again).
    @discardableResult
    public func undoRedaction(_ id: Int, at date: Date) throws -> Redaction {
        try transact { db in
            guard let row = try db.row("SELECT undoneAt FROM redaction WHERE redactionId = ?", [.init(id)]) else {
                throw RedactionError(location: location, reason: .unknownRedaction(id))
            }
            guard row[0] == .null else { throw RedactionError(location: location, reason: .alreadyUndone(id)) }
            try db.execute("UPDATE redaction SET undoneAt = ? WHERE redactionId = ?", [.init(date), .init(id)])
            try Self.reapplyRedactions(in: db)
        }
        guard let redaction = try redactions().first(where: { $0.id == id }) else {
            throw RedactionError(location: location, reason: .unknownRedaction(id))
        }
        return redaction
    }

    /// Every redaction ever recorded, oldest first, with how many posts each decides now.
    public func redactions() throws -> [Redaction] {
        try readOnly { db in
            try db.rows(
                """
                SELECT r.redactionId, r.kind, r.target, r.mode, r.purge, r.reason, r.createdAt, r.undoneAt,
                    (SELECT COUNT(*) FROM post WHERE post.redactionId = r.redactionId) AS posts
                FROM redaction AS r ORDER BY r.redactionId
                """
            ).map { row in
                let target = row[2].string ?? ""
                let undoneAt = row[7].double.map(Date.init(timeIntervalSince1970:))
                return Redaction(
                    id: row[0].int ?? 0, kind: row[1].string ?? "", target: target.hasPrefix("#") ? nil : target,
                    mode: RedactionMode(rawValue: row[3].string ?? "") ?? .remove, purge: row[4].int == 1, reason: row[5].string ?? "",
                    createdAt: Date(timeIntervalSince1970: row[6].double ?? 0), undoneAt: undoneAt, postCount: undoneAt == nil ? row[8].int ?? 0 : 0)
            }
        }
    }

    /// The distinct stored writer names whose normalised form is one of `keys`.
    static func writerNames(matching keys: Set<String>, in db: any StoreTransaction) throws -> [String] {
        try db.column("SELECT writerName FROM post UNION SELECT writerName FROM post_version").compactMap(\.string)
            .filter { keys.contains(RedactionRules.writerKey($0)) }
    }

    /// Sets every post's redaction columns from the redactions in force, and blanks what a purge hides.
    ///
    /// Looks only at posts that are redacted now or that a redaction in force names (by id, board or writer).
    static func reapplyRedactions(in db: any StoreTransaction) throws {
        let rules = try RedactionRules.load(db)
        var candidates = Set(try db.integers("SELECT postId FROM post WHERE redactionId IS NOT NULL OR purged > 0"))
        let named = Array(rules.posts.keys)
        var start = 0
        while start < named.count {
            let part = named[start..<min(named.count, start + 500)]
            candidates.formUnion(try db.integers("SELECT postId FROM post WHERE postId IN (\(placeholders(part.count)))", part.map { .init($0) }))
            start += part.count
        }
        for board in rules.boards.keys {
            candidates.formUnion(try db.integers("SELECT postId FROM post WHERE boardId = ?", [.init(board)]))
        }
        // A writer's posts, and the posts an earlier version of which the writer wrote (a renamed writer's).
        var earlierWriters: [Int: [String]] = [:]
        if !rules.writers.isEmpty {
            let names = try db.column("SELECT writerName FROM post UNION SELECT writerName FROM post_version").compactMap(\.string)
                .filter { !rules.writerRules($0).isEmpty }
            for name in names {
                candidates.formUnion(try db.integers("SELECT postId FROM post WHERE writerName = ?", [.init(name)]))
                for id in try db.integers("SELECT DISTINCT postId FROM post_version WHERE writerName = ?", [.init(name)]) {
                    candidates.insert(id)
                    earlierWriters[id, default: []].append(name)
                }
            }
        }
        for postId in candidates.sorted() {
            guard
                let row = try db.row(
                    "SELECT boardId, writerName, redactionId, redactionMode, redactedAt, purged FROM post WHERE postId = ?", [.init(postId)])
            else { continue }
            let stored = RedactionRules.PurgeLevel(rawValue: row[5].int ?? 0) ?? .none
            var state: (id: StoredValue, mode: String?, at: StoredValue) = (.null, nil, .null)
            var purge = stored
            if let verdict = rules.verdict(
                postId: postId, boardId: row[0].int ?? 0, writerName: row[1].string ?? "", earlierWriters: earlierWriters[postId] ?? [])
            {
                state = (.init(verdict.id), verdict.mode.rawValue, .init(verdict.createdAt))
                purge = max(stored, verdict.purge)
                if purge == .all { state.mode = RedactionMode.remove.rawValue }
            } else if stored != .none {
                // What a purge wiped stays hidden until a crawl stores the post again.
                state = (row[2], stored == .all ? RedactionMode.remove.rawValue : RedactionMode.anonymize.rawValue, row[4])
            }
            try db.execute(
                "UPDATE post SET redactionId = ?, redactionMode = ?, redactedAt = ? WHERE postId = ?",
                [state.id, .init(state.mode), state.at, .init(postId)])
            if purge > stored { try purgePost(postId, level: purge, in: db) }
        }
    }

    /// Blanks what `level` hides of a stored post and of its earlier versions; the raw JSON always goes (it holds every
    /// field).
    static func purgePost(_ postId: Int, level: RedactionRules.PurgeLevel, in db: any StoreTransaction) throws {
        let all = level == .all
        // The pictures its earlier versions showed, read before their text is blanked (the post's own rows in
        // `post_media` are its current text's only).
        let earlierPictures = all ? try picturesOfEarlierVersions(of: postId, in: db) : []
        // The post and every earlier version alike: a takedown covers the post's history.
        for table in ["post", "post_version"] {
            try db.execute(
                """
                UPDATE \(table) SET writerName = '', writerEmail = NULL, writerProfileImage = NULL, raw = '{}', purged = ?,
                    title = CASE WHEN ? = 1 THEN '' ELSE title END, contents = CASE WHEN ? = 1 THEN '' ELSE contents END
                WHERE postId = ?
                """, [.init(level.rawValue), .init(all), .init(all), .init(postId)])
        }
        if all { try purgePictures(of: postId, alsoShown: earlierPictures, in: db) }
    }

    /// The hashes of kept pictures whose address an earlier version of the post writes (a `LIKE` of the address, its
    /// wildcards escaped, in each version's text: the store does not parse Markdown).
    static func picturesOfEarlierVersions(of postId: Int, in db: any StoreTransaction) throws -> [String] {
        try db.column(
            #"""
            SELECT DISTINCT s.hash FROM post_version v JOIN media_source s ON s.hash IS NOT NULL
                AND v.contents LIKE '%' || REPLACE(REPLACE(REPLACE(s.address, '!', '!!'), '%', '!%'), '_', '!_') || '%' ESCAPE '!'
            WHERE v.postId = ?
            """#, [.init(postId)]
        ).compactMap(\.string)
    }

    /// Forgets the pictures a purged post showed (now or in an earlier version), and deletes the bytes of each that no
    /// published post shows: its addresses are marked `purged`, so that no crawl fetches them again.
    static func purgePictures(of postId: Int, alsoShown earlier: [String] = [], in db: any StoreTransaction) throws {
        let current = try db.column(
            "SELECT DISTINCT s.hash FROM post_media pm JOIN media_source s ON s.address = pm.address WHERE pm.postId = ? AND s.hash IS NOT NULL",
            [.init(postId)]
        ).compactMap(\.string)
        let hashes = Array(Set(current + earlier)).sorted()
        try db.execute("DELETE FROM post_media WHERE postId = ?", [.init(postId)])
        for hash in hashes {
            let shown = try db.value(
                """
                SELECT COUNT(*) FROM post_media pm JOIN media_source s ON s.address = pm.address JOIN post p ON p.postId = pm.postId
                WHERE s.hash = ? AND \(ArchiveStore.publishedPosts)
                """, [.init(hash)])
            guard shown?.int == 0 else { continue }
            try db.execute("DELETE FROM media WHERE hash = ?", [.init(hash)])
            try db.execute(
                "UPDATE media_source SET status = 'purged', hash = NULL, reason = ?, nextAttempt = NULL WHERE hash = ?",
                [.init("purged with post \(postId)"), .init(hash)])
        }
    }
}
