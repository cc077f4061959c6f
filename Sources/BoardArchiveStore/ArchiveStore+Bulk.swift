import BoardArchiveModel
import Foundation
import GRDB

/// Bulk writes for generated archives (the benchmark generator), outside any crawl run.
///
/// They reuse the crawler's upsert statements, so a generated post is stored exactly as a crawled one with the same
/// JSON would be (same columns, same `contentHash` of the same `raw` text).
extension ArchiveStore {
    /// Upserts boards and posts in one transaction, with `firstSeen`/`lastSeen` set to `date` and no crawl run.
    ///
    /// Each post's `json` must be the JSON the crawler would have stored for it (keys sorted, slashes unescaped), since its
    /// `contentHash` is taken from it.
    @discardableResult
    public func recordBulk(boards: [RawItem<Board>] = [], posts: [RawItem<Post>], at date: Date) throws -> RecordCounts {
        try transact { db in
            if !boards.isEmpty { try Self.upsert(boards: boards, run: nil, at: date, in: db) }
            return try Self.upsert(posts: posts, run: nil, at: date, in: db)
        }
    }

    /// Deletes posts outright, as a takedown would remove them (unlike a crawl, which only marks a vanished post gone);
    /// returns how many existed.
    @discardableResult
    public func deletePosts(ids: [Int]) throws -> Int {
        try write { db in
            let statement = try db.cachedStatement(sql: "DELETE FROM post WHERE postId = ?")
            var deleted = 0
            for id in ids {
                try statement.execute(arguments: [id])
                deleted += db.changesCount
            }
            return deleted
        }
    }

    /// Marks posts gone from the source at `date`, as a crawl marks the posts the API no longer lists (their last
    /// sighting stays as it was); returns how many were not gone already.
    @discardableResult
    public func markGoneAtSource(ids: [Int], at date: Date) throws -> Int {
        try transact { db in
            var marked = 0
            for id in ids {
                marked += try db.rows(
                    "UPDATE post SET goneSince = ? WHERE postId = ? AND goneSince IS NULL RETURNING postId", [.init(date), .init(id)]
                ).count
            }
            return marked
        }
    }

    /// Every post id, ascending.
    public func postIDs() throws -> [Int] {
        try read { db in try Int.fetchAll(db, sql: "SELECT postId FROM post ORDER BY postId") }
    }

    /// The number of posts of each board that has any.
    public func postCountsByBoard() throws -> [Int: Int] {
        try reading.postCountsByBoard()
    }

    /// The highest post id and the latest `createdDateTime` in the store, or `nil` when it holds no post.
    public func newestPost() throws -> (postId: Int, created: Date)? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT MAX(postId) AS id, MAX(createdAt) AS created FROM post"),
                let id = row["id"] as Int?, let created = row["created"] as Int64?
            else { return nil }
            return (id, Date(timeIntervalSince1970: TimeInterval(created)))
        }
    }
}
