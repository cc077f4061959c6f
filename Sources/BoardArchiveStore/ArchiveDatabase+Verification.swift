import BoardArchiveModel
import Foundation

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

extension ArchiveDatabase {
    /// How many posts of a board the store holds and does not mark gone.
    package func livePostCount(ofBoard board: Int) throws -> Int {
        try readOnly { db in try db.value("SELECT COUNT(*) FROM post WHERE boardId = ? AND goneSince IS NULL", [.init(board)])?.int ?? 0 }
    }

    /// Records how a board is being read in a run (`incremental`, `fallback`, `full`), so a resumed run keeps it.
    package func recordMode(_ mode: BoardReadMode, ofBoard board: Int, run: Int64) throws {
        try transact { db in
            try db.execute(
                """
                INSERT INTO board_crawl (runId, boardId, status, passes, mode) VALUES (?, ?, 'running', 1, ?)
                ON CONFLICT (runId, boardId) DO UPDATE SET mode = excluded.mode
                """,
                [.init(run), .init(board), .init(mode.rawValue)])
        }
    }

    /// How a board was (being) read in a run, or nil when none was recorded.
    package func mode(ofBoard board: Int, run: Int64) throws -> BoardReadMode? {
        try readOnly { db in
            try db.value("SELECT mode FROM board_crawl WHERE runId = ? AND boardId = ?", [.init(run), .init(board)])?.string
                .flatMap(BoardReadMode.init(rawValue:))
        }
    }

    /// Where the rota goes on for a board: the end of the part verified last, from the oldest end (0 when none was).
    package func verificationCursor(ofBoard board: Int) throws -> Int {
        try readOnly { db in
            try db.value(
                "SELECT toOldest FROM verified_part WHERE boardId = ? ORDER BY runId DESC, verifiedAt DESC, toOldest DESC LIMIT 1", [.init(board)]
            )?.int ?? 0
        }
    }

    /// Records that positions `fromOldest..<toOldest` of a board were re-read in full; parts it covers are replaced.
    package func recordVerified(board: Int, fromOldest: Int, toOldest: Int, total: Int, run: Int64, at date: Date) throws {
        try transact { db in
            try db.execute(
                "DELETE FROM verified_part WHERE boardId = ? AND fromOldest >= ? AND toOldest <= ?",
                [.init(board), .init(fromOldest), .init(toOldest)])
            try db.execute(
                """
                INSERT INTO verified_part (boardId, fromOldest, toOldest, total, verifiedAt, runId) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (boardId, fromOldest) DO UPDATE SET toOldest = excluded.toOldest, total = excluded.total,
                    verifiedAt = excluded.verifiedAt, runId = excluded.runId
                """,
                [.init(board), .init(fromOldest), .init(toOldest), .init(total), .init(date), .init(run)])
        }
    }

    /// The parts of a board verified so far, oldest end first.
    public func verifiedParts(ofBoard board: Int) throws -> [VerifiedPart] {
        try readOnly { db in
            try db.rows("SELECT fromOldest, toOldest, total, verifiedAt FROM verified_part WHERE boardId = ? ORDER BY fromOldest", [.init(board)])
                .map {
                    VerifiedPart(
                        fromOldest: $0[0].int ?? 0, toOldest: $0[1].int ?? 0, total: $0[2].int ?? 0,
                        verifiedAt: Date(timeIntervalSince1970: $0[3].double ?? 0))
                }
        }
    }

    /// Marks gone the board's live posts that sort between `newest` and `oldest` (server order: newest first, then
    /// higher id first) but are not in `listed`: the API listed those two neighbours and everything between them, so
    /// a stored post there that it did not list was deleted. Notices are left alone (an API may pin them elsewhere).
    /// Returns how many became gone.
    package func markGone(
        ofBoard board: Int, between newest: (createdAt: Int64, postId: Int), and oldest: (createdAt: Int64, postId: Int), listed: Set<Int>,
        at date: Date
    ) throws -> Int {
        try transact { db in
            let candidates = try db.integers(
                """
                SELECT postId FROM post WHERE boardId = ? AND goneSince IS NULL AND postType <> 'notice'
                AND (createdAt < ? OR (createdAt = ? AND postId < ?)) AND (createdAt > ? OR (createdAt = ? AND postId > ?))
                """,
                [
                    .init(board), .init(newest.createdAt), .init(newest.createdAt), .init(newest.postId), .init(oldest.createdAt),
                    .init(oldest.createdAt), .init(oldest.postId),
                ])
            let gone = candidates.filter { !listed.contains($0) }
            try Self.markGone(gone, at: date, in: db)
            return gone.count
        }
    }
}
