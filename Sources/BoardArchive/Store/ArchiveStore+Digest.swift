import Foundation
import GRDB

extension ArchiveStore {
    /// Adds every post's id, board, content hash and redaction (mode and date) to `digest`, in id order, in one read
    /// over the primary key.
    ///
    /// The content hash covers every field the API sent and the redaction what a takedown withholds, so two stores that
    /// add the same posts and redactions hold the same archive as far as pages are concerned. At 100,000 posts this reads in a few tens of milliseconds, against about a
    /// second and a half for streaming every board's listing.
    func addPosts(to digest: inout BuildDigest) throws {
        try read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT postId, boardId, contentHash, redactionMode, redactedAt FROM post ORDER BY postId")
            var count = 0
            while let row = try rows.next() {
                digest.add(row[0] as Int)
                digest.add(row[1] as Int)
                digest.add(row[2] as String)
                digest.add((row[3] as String?) ?? "")
                digest.add((row[4] as Double?).map { Int($0 * 1_000) })
                count += 1
            }
            digest.add(count)
        }
    }

    /// The ids of the posts a redaction removed from the site (their addresses show tombstones), ascending.
    func removedPostIds() throws -> [Int] {
        try read { db in try Int.fetchAll(db, sql: "SELECT postId FROM post WHERE \(Self.removedPosts) ORDER BY +postId") }
    }

    /// The number of posts a redaction removed from the site (their addresses show tombstones).
    func removedPostCount() throws -> Int {
        try read { db in try Self.removedCount(in: db) }
    }
}
