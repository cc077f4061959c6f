import BoardArchiveModel
import Foundation

/// Where a board's crawl stands inside a run, read back to resume after a crash.
public struct BoardCrawlState: Sendable, Equatable {
    package var completed: Bool
    /// The pass in progress (1 for the first pass, 2+ for re-verification).
    package var pass: Int
    /// The offset of the next post to fetch in that pass.
    package var nextOffset: Int
    /// The last post of the last stored page: the next page must start with it (the one-post overlap).
    package var anchor: Int?
    /// The board's `total` on the first page of that pass.
    package var firstTotal: Int?
    /// The post ids of that pass's first page, in order.
    package var headIDs: [Int] = []
}

extension ArchiveDatabase {
    /// Starts a crawl run, or resumes the last one when it never finished (a kill, a crash, or a failure such as
    /// retries running out), provided it crawled the same API with the same page size.
    ///
    /// The run is locked (``ArchiveLock/run(_:)``) until ``finishRun(_:status:summary:at:)``: an unfinished run whose
    /// lock another process holds is a crawl still going on another machine, neither resumed nor abandoned here.
    package func beginRun(api: String, pageSize: Int, at date: Date) throws -> (runId: Int64, resumed: Bool) {
        try transact { db in
            let unfinished = try db.rows(
                "SELECT runId, api, pageSize FROM crawl_run WHERE status IN ('running', 'failed', 'interrupted') ORDER BY runId DESC")
            var resumed: Int64?
            var decided = false
            for row in unfinished {
                let runId = Int64(row[0].int ?? 0)
                guard try tryLock(.run(runId)) == nil else { continue }
                // The newest run nobody holds decides: resumed when it read the same source the same way; it and every
                // older one otherwise abandoned.
                if !decided {
                    decided = true
                    if row[1].string == api, row[2].int == pageSize {
                        resumed = runId
                        continue
                    }
                }
                try db.execute("UPDATE crawl_run SET status = 'abandoned' WHERE runId = ?", [.init(runId)])
                try unlock(.run(runId))
            }
            if let resumed {
                try db.execute("UPDATE crawl_run SET status = 'running' WHERE runId = ?", [.init(resumed)])
                return (resumed, true)
            }
            let inserted = try db.value(
                "INSERT INTO crawl_run (api, startedAt, status, pageSize) VALUES (?, ?, 'running', ?) RETURNING runId",
                [.init(api), .init(date), .init(pageSize)])
            guard let runId = inserted?.int else { throw StoreError(location: location, reason: .query("a new crawl run got no id")) }
            guard try tryLock(.run(Int64(runId))) == nil else {
                throw StoreError(location: location, reason: .query("the new crawl run \(runId) is locked by another process"))
            }
            return (Int64(runId), false)
        }
    }

    /// Records how a run ended and gives its lock up.
    package func finishRun(_ runId: Int64, status: String, summary: String, at date: Date) throws {
        try transact { db in
            try db.execute(
                "UPDATE crawl_run SET status = ?, finishedAt = ?, summary = ? WHERE runId = ?",
                [.init(status), .init(date), .init(summary), .init(runId)])
        }
        try unlock(.run(runId))
    }

    /// Records the board list of a run and marks boards no longer listed as gone, with their posts (kept, never
    /// deleted). Returns how many posts became gone.
    @discardableResult
    package func recordBoards(_ boards: [RawItem<Board>], run: Int64, at date: Date) throws -> Int {
        try transact { db in
            try Self.upsert(boards: boards, run: run, at: date, in: db)
            let delisted = "SELECT boardId FROM board WHERE goneSince IS NULL AND (lastSeenRun IS NULL OR lastSeenRun <> ?)"
            let gone = try db.rows(
                "UPDATE post SET goneSince = ? WHERE goneSince IS NULL AND boardId IN (\(delisted)) RETURNING postId", [.init(date), .init(run)]
            ).count
            try db.execute("UPDATE board SET goneSince = ? WHERE boardId IN (\(delisted))", [.init(date), .init(run)])
            return gone
        }
    }

    /// Stores one fetched page and its checkpoint in a single transaction.
    package func recordPage(
        _ posts: [RawItem<Post>], board: Int, pass: Int, offset: Int, count: Int, lastPostId: Int?, total: Int, pageHash: String, run: Int64,
        pageIDs: [Int] = [], at date: Date, media: MediaReferencing? = nil, inTransaction: () -> Void = {}
    ) throws -> RecordCounts {
        try transact { db in
            let counts = try Self.upsert(posts: posts, run: run, at: date, media: media, in: db)
            inTransaction()
            try db.execute(
                """
                INSERT INTO page_checkpoint (runId, boardId, pass, pageOffset, pageCount, total, pageHash, lastPostId, postIds, fetchedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (runId, boardId, pass, pageOffset) DO UPDATE SET pageCount = excluded.pageCount, total = excluded.total,
                    pageHash = excluded.pageHash, lastPostId = excluded.lastPostId, postIds = excluded.postIds, fetchedAt = excluded.fetchedAt
                """,
                [
                    .init(run), .init(board), .init(pass), .init(offset), .init(count), .init(total), .init(pageHash), .init(lastPostId),
                    .init(pageIDs.map(String.init).joined(separator: ",")), .init(date),
                ])
            try db.execute(
                """
                INSERT INTO board_crawl (runId, boardId, status, passes) VALUES (?, ?, 'running', ?)
                ON CONFLICT (runId, boardId) DO UPDATE SET
                    passes = CASE WHEN excluded.passes > board_crawl.passes THEN excluded.passes ELSE board_crawl.passes END
                """,
                [.init(run), .init(board), .init(pass)])
            return counts
        }
    }

    /// Stores posts outside a page checkpoint (the re-read of a board's first page at the end of a pass).
    package func recordPosts(_ posts: [RawItem<Post>], run: Int64, at date: Date, media: MediaReferencing? = nil) throws -> RecordCounts {
        try transact { db in try Self.upsert(posts: posts, run: run, at: date, media: media, in: db) }
    }

    /// Where a board stands in a run: nil when it has not started.
    package func crawlState(ofBoard board: Int, run: Int64) throws -> BoardCrawlState? {
        try readOnly { db in
            guard let row = try db.row("SELECT status, passes FROM board_crawl WHERE runId = ? AND boardId = ?", [.init(run), .init(board)])
            else { return nil }
            let pass = max(row[1].int ?? 0, 1)
            let last = try db.row(
                """
                SELECT pageOffset + pageCount AS next, lastPostId FROM page_checkpoint WHERE runId = ? AND boardId = ? AND pass = ?
                ORDER BY pageOffset DESC LIMIT 1
                """, [.init(run), .init(board), .init(pass)])
            let first = try db.row(
                "SELECT total, postIds FROM page_checkpoint WHERE runId = ? AND boardId = ? AND pass = ? AND pageOffset = 0",
                [.init(run), .init(board), .init(pass)])
            return BoardCrawlState(
                completed: row[0].string == "completed", pass: pass, nextOffset: last?[0].int ?? 0, anchor: last?[1].int, firstTotal: first?[0].int,
                headIDs: (first?[1].string ?? "").split(separator: ",").compactMap { Int($0) })
        }
    }

    /// The ids of a board's posts stored during a run (used to resume the de-duplication set).
    package func postIDs(ofBoard board: Int, seenInRun run: Int64) throws -> Set<Int> {
        try readOnly { db in Set(try db.integers("SELECT postId FROM post WHERE boardId = ? AND lastSeenRun = ?", [.init(board), .init(run)])) }
    }

    /// Finishes a board: when `present` is known (a consistent pass), posts not in it are marked gone (kept, never
    /// deleted); when it is nil (the board never stopped moving), nothing is marked gone. Returns how many became gone.
    package func completeBoard(_ board: Int, run: Int64, passes: Int, present: Set<Int>?, found: Int, total: Int, at date: Date) throws -> Int {
        try transact { db in
            let known = try db.integers("SELECT postId FROM post WHERE boardId = ? AND goneSince IS NULL", [.init(board)])
            let gone = present.map { present in known.filter { !present.contains($0) } } ?? []
            try Self.markGone(gone, at: date, in: db)
            try db.execute(
                """
                INSERT INTO board_crawl (runId, boardId, status, passes, uniquePosts, total) VALUES (?, ?, 'completed', ?, ?, ?)
                ON CONFLICT (runId, boardId) DO UPDATE SET status = 'completed', passes = excluded.passes,
                    uniquePosts = excluded.uniquePosts, total = excluded.total
                """,
                [.init(run), .init(board), .init(passes), .init(found), .init(total)])
            return gone.count
        }
    }

    /// Marks the posts `ids` gone since `date`.
    static func markGone(_ ids: [Int], at date: Date, in db: any StoreTransaction) throws {
        for id in ids { try db.execute("UPDATE post SET goneSince = ? WHERE postId = ?", [.init(date), .init(id)]) }
    }

    /// Marks a board gone (it answered 404 after being listed) with its posts, which stay archived. Returns how many
    /// posts became gone.
    @discardableResult
    package func markBoardGone(_ board: Int, at date: Date) throws -> Int {
        try transact { db in
            let arguments: [StoredValue] = [.init(date), .init(board)]
            let gone = try db.rows("UPDATE post SET goneSince = ? WHERE boardId = ? AND goneSince IS NULL RETURNING postId", arguments).count
            try db.execute("UPDATE board SET goneSince = ? WHERE boardId = ? AND goneSince IS NULL", arguments)
            return gone
        }
    }

    /// How many posts of the archive are marked gone.
    public func gonePostCount() throws -> Int {
        try readOnly { db in try db.value("SELECT COUNT(*) FROM post WHERE goneSince IS NOT NULL")?.int ?? 0 }
    }

    /// The API addresses the archive was crawled from, one per source, in the order of their first run.
    public func crawledSources() throws -> [String] {
        try readOnly { db in try db.column("SELECT api FROM crawl_run GROUP BY api ORDER BY MIN(runId)").compactMap(\.string) }
    }

    /// The status of the most recent crawl run (`running`, `completed`, `failed`), or nil when none ran.
    public func lastRunStatus() throws -> String? {
        try readOnly { db in try db.value("SELECT status FROM crawl_run ORDER BY runId DESC LIMIT 1")?.string }
    }
}

extension ArchiveDatabase {
    /// The number of posts archived for a board (removed ones left out).
    public func postCount(inBoard boardId: Int) throws -> Int {
        try readOnly { db in
            let all = try db.value("SELECT COUNT(*) FROM post WHERE boardId = ?", [.init(boardId)])?.int ?? 0
            let removed = try db.value("SELECT COUNT(*) FROM post WHERE \(ArchiveStore.removedPosts) AND +boardId = ?", [.init(boardId)])?.int ?? 0
            return all - removed
        }
    }

    /// The number of posts in the whole archive (removed ones left out).
    public func postCount() throws -> Int {
        try readOnly { db in
            let all = try db.value("SELECT COUNT(*) FROM post")?.int ?? 0
            return all - (try db.value("SELECT COUNT(*) FROM post WHERE \(ArchiveStore.removedPosts)")?.int ?? 0)
        }
    }

    /// When a post was first and last seen upstream, and since when it is gone (nil while it exists).
    public func history(ofPost id: Int) throws -> PostHistory? {
        try readOnly { db in
            try db.row("SELECT firstSeen, lastSeen, goneSince FROM post WHERE postId = ?", [.init(id)]).map {
                PostHistory(
                    firstSeen: Date(timeIntervalSince1970: $0[0].double ?? 0), lastSeen: Date(timeIntervalSince1970: $0[1].double ?? 0),
                    goneSince: $0[2].double.map(Date.init(timeIntervalSince1970:)))
            }
        }
    }
}
