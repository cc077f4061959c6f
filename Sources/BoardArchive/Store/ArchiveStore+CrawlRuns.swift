import Foundation
import GRDB

/// Where a board's crawl stands inside a run, read back to resume after a crash.
struct BoardCrawlState: Sendable, Equatable {
    var completed: Bool
    /// The pass in progress (1 for the first pass, 2+ for re-verification).
    var pass: Int
    /// The offset of the next post to fetch in that pass.
    var nextOffset: Int
    /// The last post of the last stored page: the next page must start with it (the one-post overlap).
    var anchor: Int?
    /// The board's `total` on the first page of that pass.
    var firstTotal: Int?
    /// The post ids of that pass's first page, in order.
    var headIDs: [Int] = []
}

extension ArchiveStore {
    /// Starts a crawl run, or resumes the last one when it never finished (a kill, a crash, or a failure such as
    /// retries running out), provided it crawled the same API with the same page size.
    func beginRun(api: String, pageSize: Int, at date: Date) throws -> (runId: Int64, resumed: Bool) {
        try write { db in
            if let row = try Row.fetchOne(
                db, sql: "SELECT runId, api, pageSize FROM crawl_run WHERE status IN ('running', 'failed', 'interrupted') ORDER BY runId DESC LIMIT 1"
            ),
                (row["api"] as String) == api, (row["pageSize"] as Int) == pageSize
            {
                try db.execute(sql: "UPDATE crawl_run SET status = 'running' WHERE runId = ?", arguments: [row["runId"] as Int64])
                return (row["runId"], true)
            }
            try db.execute(sql: "UPDATE crawl_run SET status = 'abandoned' WHERE status IN ('running', 'failed', 'interrupted')")
            try db.execute(
                sql: "INSERT INTO crawl_run (api, startedAt, status, pageSize) VALUES (?, ?, 'running', ?)",
                arguments: [api, date.timeIntervalSince1970, pageSize])
            return (db.lastInsertedRowID, false)
        }
    }

    func finishRun(_ runId: Int64, status: String, summary: String, at date: Date) throws {
        try write { db in
            try db.execute(
                sql: "UPDATE crawl_run SET status = ?, finishedAt = ?, summary = ? WHERE runId = ?",
                arguments: [status, date.timeIntervalSince1970, summary, runId])
        }
    }

    /// Records the board list of a run and marks boards no longer listed as gone, with their posts (kept, never
    /// deleted). Returns how many posts became gone.
    @discardableResult
    func recordBoards(_ boards: [RawItem<Board>], run: Int64, at date: Date) throws -> Int {
        try write { db in
            try Self.upsert(boards: boards, run: run, at: date, in: db)
            let delisted = "SELECT boardId FROM board WHERE goneSince IS NULL AND (lastSeenRun IS NULL OR lastSeenRun <> :run)"
            let arguments: StatementArguments = ["date": date.timeIntervalSince1970, "run": run]
            try db.execute(sql: "UPDATE post SET goneSince = :date WHERE goneSince IS NULL AND boardId IN (\(delisted))", arguments: arguments)
            let gone = db.changesCount
            try db.execute(sql: "UPDATE board SET goneSince = :date WHERE boardId IN (\(delisted))", arguments: arguments)
            return gone
        }
    }

    /// Stores one fetched page and its checkpoint in a single transaction.
    func recordPage(
        _ posts: [RawItem<Post>], board: Int, pass: Int, offset: Int, count: Int, lastPostId: Int?, total: Int, pageHash: String, run: Int64,
        pageIDs: [Int] = [], at date: Date, inTransaction: () -> Void = {}
    ) throws -> RecordCounts {
        try write { db in
            let counts = try Self.upsert(posts: posts, run: run, at: date, in: db)
            inTransaction()
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO page_checkpoint (runId, boardId, pass, pageOffset, pageCount, total, pageHash, lastPostId,
                        postIds, fetchedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    run, board, pass, offset, count, total, pageHash, lastPostId, pageIDs.map(String.init).joined(separator: ","),
                    date.timeIntervalSince1970,
                ])
            try db.execute(
                sql: """
                    INSERT INTO board_crawl (runId, boardId, status, passes) VALUES (?, ?, 'running', ?)
                    ON CONFLICT (runId, boardId) DO UPDATE SET passes = max(passes, excluded.passes)
                    """,
                arguments: [run, board, pass])
            return counts
        }
    }

    /// Stores posts outside a page checkpoint (the re-read of a board's first page at the end of a pass).
    func recordPosts(_ posts: [RawItem<Post>], run: Int64, at date: Date) throws -> RecordCounts {
        try write { db in try Self.upsert(posts: posts, run: run, at: date, in: db) }
    }

    /// Where a board stands in a run: nil when it has not started.
    func crawlState(ofBoard board: Int, run: Int64) throws -> BoardCrawlState? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT status, passes FROM board_crawl WHERE runId = ? AND boardId = ?", arguments: [run, board])
            else { return nil }
            let pass = max(row["passes"] as Int, 1)
            let last = try Row.fetchOne(
                db,
                sql: """
                    SELECT pageOffset + pageCount AS next, lastPostId FROM page_checkpoint WHERE runId = ? AND boardId = ? AND pass = ?
                    ORDER BY pageOffset DESC LIMIT 1
                    """, arguments: [run, board, pass])
            let first = try Row.fetchOne(
                db, sql: "SELECT total, postIds FROM page_checkpoint WHERE runId = ? AND boardId = ? AND pass = ? AND pageOffset = 0",
                arguments: [run, board, pass])
            return BoardCrawlState(
                completed: (row["status"] as String) == "completed", pass: pass, nextOffset: last?["next"] ?? 0, anchor: last?["lastPostId"],
                firstTotal: first?["total"], headIDs: ((first?["postIds"] as String?) ?? "").split(separator: ",").compactMap { Int($0) })
        }
    }

    /// The ids of a board's posts stored during a run (used to resume the de-duplication set).
    func postIDs(ofBoard board: Int, seenInRun run: Int64) throws -> Set<Int> {
        try read { db in Set(try Int.fetchAll(db, sql: "SELECT postId FROM post WHERE boardId = ? AND lastSeenRun = ?", arguments: [board, run])) }
    }

    /// Finishes a board: when `present` is known (a consistent pass), posts not in it are marked gone (kept, never
    /// deleted); when it is nil (the board never stopped moving), nothing is marked gone. Returns how many became gone.
    func completeBoard(_ board: Int, run: Int64, passes: Int, present: Set<Int>?, found: Int, total: Int, at date: Date) throws -> Int {
        try write { db in
            let known = try Int.fetchAll(db, sql: "SELECT postId FROM post WHERE boardId = ? AND goneSince IS NULL", arguments: [board])
            let gone = present.map { present in known.filter { !present.contains($0) } } ?? []
            let statement = try db.cachedStatement(sql: "UPDATE post SET goneSince = ? WHERE postId = ?")
            for id in gone { try statement.execute(arguments: [date.timeIntervalSince1970, id]) }
            try db.execute(
                sql: """
                    INSERT INTO board_crawl (runId, boardId, status, passes, uniquePosts, total) VALUES (?, ?, 'completed', ?, ?, ?)
                    ON CONFLICT (runId, boardId) DO UPDATE SET status = 'completed', passes = excluded.passes,
                        uniquePosts = excluded.uniquePosts, total = excluded.total
                    """,
                arguments: [run, board, passes, found, total])
            return gone.count
        }
    }

    /// Marks a board gone (it answered 404 after being listed) with its posts, which stay archived. Returns how many
    /// posts became gone.
    @discardableResult
    func markBoardGone(_ board: Int, at date: Date) throws -> Int {
        try write { db in
            let arguments: StatementArguments = [date.timeIntervalSince1970, board]
            try db.execute(sql: "UPDATE post SET goneSince = ? WHERE boardId = ? AND goneSince IS NULL", arguments: arguments)
            let gone = db.changesCount
            try db.execute(sql: "UPDATE board SET goneSince = ? WHERE boardId = ? AND goneSince IS NULL", arguments: arguments)
            return gone
        }
    }

    /// How many posts of the archive are marked gone.
    public func gonePostCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM post WHERE goneSince IS NOT NULL") ?? 0 }
    }

    /// The API addresses the archive was crawled from, one per source, in the order of their first run.
    public func crawledSources() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT api FROM crawl_run GROUP BY api ORDER BY MIN(runId)") }
    }

    /// The status of the most recent crawl run (`running`, `completed`, `failed`), or nil when none ran.
    public func lastRunStatus() throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT status FROM crawl_run ORDER BY runId DESC LIMIT 1") }
    }
}
