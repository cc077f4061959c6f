import Foundation
import GRDB

// Takedowns in the store.
//
// Each post row carries the redaction that applies to it now (`redactionId`, `redactionMode`, `redactedAt`) and how
// much of it the store still holds (`purged`: 0 all, 1 all but the writer, 2 only ids and dates). The columns are
// set in two places only: `upsert(posts:)` (every write of a post, crawls included, checks the rules in force) and
// `reapplyRedactions(in:)` (after `redact` and `redact --undo`). Every read the build uses honours them (see
// `ArchiveStore.publishedPosts`), so no phase of the build has to know about takedowns.

extension ArchiveStore {
    /// Records a redaction, applies it to the archived posts and, with `purge`, wipes what it hides from the store
    /// file and its WAL (`secure_delete`, `VACUUM`, `wal_checkpoint(TRUNCATE)`).
    ///
    /// - Returns: the redaction as `--list` shows it.
    /// - Throws: ``RedactionError`` for a blank reason, anonymize on a post or board, or a post, board or writer the
    ///   store does not hold; ``StoreError`` when SQLite fails.
    @discardableResult
    public func redact(_ request: RedactionRequest, at date: Date) throws -> Redaction {
        guard !request.reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw RedactionError(location: location, reason: .missingReason)
        }
        let id: Int = try write { db in
            let target: String
            switch request.target {
            case .post(let postId):
                guard request.mode == .remove else { throw RedactionError(location: location, reason: .anonymizeNeedsWriter) }
                guard try Bool.fetchOne(db, sql: "SELECT 1 FROM post WHERE postId = ?", arguments: [postId]) == true else {
                    throw RedactionError(location: location, reason: .unknownPost(postId))
                }
                target = String(postId)
            case .board(let boardId):
                guard request.mode == .remove else { throw RedactionError(location: location, reason: .anonymizeNeedsWriter) }
                let known = try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM board WHERE boardId = ? UNION ALL SELECT 1 FROM post WHERE boardId = ? LIMIT 1",
                    arguments: [boardId, boardId])
                guard known == true else { throw RedactionError(location: location, reason: .unknownBoard(boardId)) }
                target = String(boardId)
            case .writer(let name):
                let key = RedactionRules.writerKey(name)
                guard !key.isEmpty, try Self.writerNames(matching: [key], in: db).isEmpty == false else {
                    throw RedactionError(location: location, reason: .unknownWriter(name))
                }
                target = request.purge ? RedactionRules.hashedWriterKey(key) : key
            }
            try db.execute(
                sql: "INSERT INTO redaction (kind, target, mode, purge, reason, createdAt) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    request.target.kind, target, request.mode.rawValue, request.purge, Self.storable(request.reason), date.timeIntervalSince1970,
                ])
            let id = Int(db.lastInsertedRowID)
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
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT undoneAt FROM redaction WHERE redactionId = ?", arguments: [id]) else {
                throw RedactionError(location: location, reason: .unknownRedaction(id))
            }
            guard (row["undoneAt"] as Double?) == nil else { throw RedactionError(location: location, reason: .alreadyUndone(id)) }
            try db.execute(sql: "UPDATE redaction SET undoneAt = ? WHERE redactionId = ?", arguments: [date.timeIntervalSince1970, id])
            try Self.reapplyRedactions(in: db)
        }
        guard let redaction = try redactions().first(where: { $0.id == id }) else {
            throw RedactionError(location: location, reason: .unknownRedaction(id))
        }
        return redaction
    }

    /// Every redaction ever recorded, oldest first, with how many posts each decides now.
    public func redactions() throws -> [Redaction] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT r.*, (SELECT COUNT(*) FROM post WHERE post.redactionId = r.redactionId) AS posts
                    FROM redaction AS r ORDER BY r.redactionId
                    """
            ).map { row in
                let target: String = row["target"]
                return Redaction(
                    id: row["redactionId"], kind: row["kind"], target: target.hasPrefix("#") ? nil : target,
                    mode: RedactionMode(rawValue: row["mode"]) ?? .remove, purge: row["purge"], reason: row["reason"],
                    createdAt: Date(timeIntervalSince1970: row["createdAt"]),
                    undoneAt: (row["undoneAt"] as Double?).map(Date.init(timeIntervalSince1970:)),
                    postCount: (row["undoneAt"] as Double?) == nil ? row["posts"] : 0)
            }
        }
    }

    /// The distinct stored writer names whose normalised form is one of `keys`.
    static func writerNames(matching keys: Set<String>, in db: Database) throws -> [String] {
        var names: [String] = []
        let rows = try String.fetchCursor(db, sql: "SELECT DISTINCT writerName FROM post")
        while let name = try rows.next() {
            if keys.contains(RedactionRules.writerKey(name)) { names.append(name) }
        }
        return names
    }

    /// Sets every post's redaction columns from the redactions in force, and blanks what a purge hides.
    ///
    /// Looks only at posts that are redacted now or that a redaction in force names (by id, board or writer).
    static func reapplyRedactions(in db: Database) throws {
        let rules = try RedactionRules.load(db)
        var candidates = Set(try Int.fetchAll(db, sql: "SELECT postId FROM post WHERE redactionId IS NOT NULL OR purged > 0"))
        candidates.formUnion(
            try Int.fetchAll(
                db, sql: "SELECT postId FROM post WHERE postId \(SQLiteSnapshot.inIds)", arguments: SQLiteSnapshot.arguments(Array(rules.posts.keys)))
        )
        for board in rules.boards.keys {
            candidates.formUnion(try Int.fetchAll(db, sql: "SELECT postId FROM post WHERE boardId = ?", arguments: [board]))
        }
        if !rules.writers.isEmpty {
            let rows = try Row.fetchCursor(db, sql: "SELECT DISTINCT writerName FROM post")
            var names: [String] = []
            while let row = try rows.next() {
                let name: String = row[0]
                if !rules.writerRules(name).isEmpty { names.append(name) }
            }
            for name in names {
                candidates.formUnion(try Int.fetchAll(db, sql: "SELECT postId FROM post WHERE writerName = ?", arguments: [name]))
            }
        }
        let select = try db.cachedStatement(
            sql: "SELECT boardId, writerName, redactionId, redactionMode, redactedAt, purged FROM post WHERE postId = ?")
        for postId in candidates.sorted() {
            guard let row = try Row.fetchOne(select, arguments: [postId]) else { continue }
            let stored = RedactionRules.PurgeLevel(rawValue: row["purged"]) ?? .none
            var state: (id: Int?, mode: String?, at: Double?) = (nil, nil, nil)
            var purge = stored
            if let verdict = rules.verdict(postId: postId, boardId: row["boardId"], writerName: row["writerName"]) {
                state = (verdict.id, verdict.mode.rawValue, verdict.createdAt)
                purge = max(stored, verdict.purge)
                if purge == .all { state.mode = RedactionMode.remove.rawValue }
            } else if stored != .none {
                // What a purge wiped stays hidden until a crawl stores the post again.
                state = (row["redactionId"], stored == .all ? RedactionMode.remove.rawValue : RedactionMode.anonymize.rawValue, row["redactedAt"])
            }
            try db.execute(
                sql: "UPDATE post SET redactionId = ?, redactionMode = ?, redactedAt = ? WHERE postId = ?",
                arguments: [state.id, state.mode, state.at, postId])
            if purge > stored { try purgePost(postId, level: purge, in: db) }
        }
    }

    /// Blanks what `level` hides of a stored post; the raw JSON always goes (it holds every field).
    static func purgePost(_ postId: Int, level: RedactionRules.PurgeLevel, in db: Database) throws {
        let all = level == .all
        try db.execute(
            sql: """
                UPDATE post SET writerName = '', writerEmail = NULL, writerProfileImage = NULL, raw = '{}', purged = ?,
                    title = CASE WHEN ? THEN '' ELSE title END, contents = CASE WHEN ? THEN '' ELSE contents END
                WHERE postId = ?
                """, arguments: [level.rawValue, all, all, postId])
    }

    /// Rewrites the store file without free pages and empties its WAL, so that no byte of a purged post survives in
    /// either (`secure_delete` is on for every connection, so freed cells are zeroed too).
    func wipeFreedSpace() throws {
        do {
            try writer.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM")
                if location != ":memory:" { try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            }
        } catch {
            throw StoreError(location: location, reason: .query(Self.plainReason(error)))
        }
    }
}
