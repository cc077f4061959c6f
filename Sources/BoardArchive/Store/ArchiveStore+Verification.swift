import Foundation
import GRDB

/// A stretch of a board re-read in full, counted in posts from the oldest end (new posts arrive at the other end, so
/// these positions do not move when a board grows).
public struct VerifiedPart: Sendable, Equatable {
    /// The first position covered, 0 being the board's oldest post.
    public var fromOldest: Int
    /// The position after the last one covered.
    public var toOldest: Int
    /// The board's `total` when the part was read.
    public var total: Int
    /// When the part was read.
    public var verifiedAt: Date
}

extension ArchiveStore {
    /// How many posts of a board the store holds and does not mark gone.
    func livePostCount(ofBoard board: Int) throws -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM post WHERE boardId = ? AND goneSince IS NULL", arguments: [board]) ?? 0
        }
    }

    /// Records how a board is being read in a run (`incremental`, `fallback`, `full`), so a resumed run keeps it.
    func recordMode(_ mode: BoardReadMode, ofBoard board: Int, run: Int64) throws {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO board_crawl (runId, boardId, status, passes, mode) VALUES (?, ?, 'running', 1, ?)
                    ON CONFLICT (runId, boardId) DO UPDATE SET mode = excluded.mode
                    """,
                arguments: [run, board, mode.rawValue])
        }
    }

    /// How a board was (being) read in a run, or nil when none was recorded.
    func mode(ofBoard board: Int, run: Int64) throws -> BoardReadMode? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT mode FROM board_crawl WHERE runId = ? AND boardId = ?", arguments: [run, board])
                .flatMap(BoardReadMode.init(rawValue:))
        }
    }

    /// Where the rota goes on for a board: the end of the part verified last, from the oldest end (0 when none was).
    func verificationCursor(ofBoard board: Int) throws -> Int {
        try read { db in
            try Int.fetchOne(
                db, sql: "SELECT toOldest FROM verified_part WHERE boardId = ? ORDER BY runId DESC, verifiedAt DESC, toOldest DESC LIMIT 1",
                arguments: [board]) ?? 0
        }
    }

    /// Records that positions `fromOldest..<toOldest` of a board were re-read in full; parts it covers are replaced.
    func recordVerified(board: Int, fromOldest: Int, toOldest: Int, total: Int, run: Int64, at date: Date) throws {
        try write { db in
            try db.execute(
                sql: "DELETE FROM verified_part WHERE boardId = ? AND fromOldest >= ? AND toOldest <= ?", arguments: [board, fromOldest, toOldest])
            try db.execute(
                sql: "INSERT OR REPLACE INTO verified_part (boardId, fromOldest, toOldest, total, verifiedAt, runId) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [board, fromOldest, toOldest, total, date.timeIntervalSince1970, run])
        }
    }

    /// The parts of a board verified so far, oldest end first.
    public func verifiedParts(ofBoard board: Int) throws -> [VerifiedPart] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT fromOldest, toOldest, total, verifiedAt FROM verified_part WHERE boardId = ? ORDER BY fromOldest",
                arguments: [board]
            ).map {
                VerifiedPart(
                    fromOldest: $0["fromOldest"], toOldest: $0["toOldest"], total: $0["total"],
                    verifiedAt: Date(timeIntervalSince1970: $0["verifiedAt"]))
            }
        }
    }

    /// Marks gone the board's live posts that sort between `newest` and `oldest` (server order: newest first, then
    /// higher id first) but are not in `listed`: the API listed those two neighbours and everything between them, so
    /// a stored post there that it did not list was deleted. Notices are left alone (an API may pin them elsewhere).
    /// Returns how many became gone.
    func markGone(
        ofBoard board: Int, between newest: (createdAt: Int64, postId: Int), and oldest: (createdAt: Int64, postId: Int), listed: Set<Int>,
        at date: Date
    ) throws -> Int {
        try write { db in
            let candidates = try Int.fetchAll(
                db,
                sql: """
                    SELECT postId FROM post WHERE boardId = ? AND goneSince IS NULL AND postType <> 'notice'
                    AND (createdAt < ? OR (createdAt = ? AND postId < ?)) AND (createdAt > ? OR (createdAt = ? AND postId > ?))
                    """,
                arguments: [board, newest.createdAt, newest.createdAt, newest.postId, oldest.createdAt, oldest.createdAt, oldest.postId])
            let gone = candidates.filter { !listed.contains($0) }
            let statement = try db.cachedStatement(sql: "UPDATE post SET goneSince = ? WHERE postId = ?")
            for id in gone { try statement.execute(arguments: [date.timeIntervalSince1970, id]) }
            return gone.count
        }
    }
}
