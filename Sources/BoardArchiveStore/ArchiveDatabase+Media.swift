import BoardArchiveModel
import Foundation

/// How a crawl finds the pictures a post's text shows: the addresses, in order, as the body writes them. The crawl passes
/// the renderer's own reading of a body (so the addresses kept are exactly the ones the pages show); the store records
/// them for each post it writes new or changed (``ArchiveDatabase/upsert(posts:run:at:media:in:)``).
public struct MediaReferencing: Sendable {
    public var addresses: @Sendable (Post) -> [String]

    public init(addresses: @escaping @Sendable (Post) -> [String]) {
        self.addresses = addresses
    }
}

/// What became of an address a post shows (`media_source.status`).
public enum MediaStatus: String, Sendable, Equatable, Codable {
    /// Found in a body, not tried yet.
    case pending
    /// Fetched and kept (``KeptImage``).
    case kept
    /// Tried and not kept (the server failed, or the bytes were refused); tried again after `nextAttempt`.
    case failed
    /// Not tried: the address is not allowed (its host, its scheme, a private address, a post's limits).
    case refused
    /// Deleted by a takedown's purge (`redact --purge`): never fetched again.
    case purged
}

/// An image fetched and kept: its bytes, their SHA-256 (its one copy in the store), format and intrinsic size.
public struct KeptImage: Sendable, Equatable {
    public var hash: String
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    public var bytes: [UInt8]

    public init(hash: String, format: ImageFormat, width: Int, height: Int, bytes: [UInt8]) {
        self.hash = hash
        self.format = format
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}

/// One address a crawl has to try: the posts showing it (in order of position), its tries so far.
public struct MediaWork: Sendable, Equatable {
    public var address: String
    /// Failed tries so far (refusals are not counted: they are decided again without a request).
    public var attempts: Int
    /// What became of it last time, and why (nil while pending).
    public var status: MediaStatus = .pending
    public var reason: String?
    /// The posts that show it, ascending, each with the address's position in that post.
    public var posts: [MediaWork.Use]

    public struct Use: Sendable, Equatable {
        public var postId: Int
        public var position: Int
    }
}

/// Where an address stands, for tests and `store` reports.
public struct MediaSourceState: Sendable, Equatable {
    public var address: String
    public var status: MediaStatus
    public var hash: String?
    public var reason: String?
    public var attempts: Int
    public var nextAttempt: Date?
}

extension ArchiveDatabase {
    /// Records the addresses the posts show, replacing what their earlier text showed; new addresses are `pending`.
    /// `posts` are the posts a write added or changed (a post whose stored text did not change keeps its rows).
    static func referMedia(_ posts: [Post], replacing: Bool, media: MediaReferencing, at date: Date, in db: any StoreTransaction) throws {
        guard !posts.isEmpty else { return }
        if replacing {
            try db.execute("DELETE FROM post_media WHERE postId IN (\(placeholders(posts.count)))", posts.map { .init($0.postId) })
        }
        var rows: [StoredValue] = []
        var addresses: [String] = []
        for post in posts {
            for (position, address) in media.addresses(post).enumerated() {
                rows += [.init(post.postId), .init(position), .init(address)]
                addresses.append(address)
            }
        }
        guard !addresses.isEmpty else { return }
        // In slices, within both stores' parameter limits.
        for start in stride(from: 0, to: addresses.count, by: 300) {
            let end = min(start + 300, addresses.count)
            let count = end - start
            try db.execute(
                """
                INSERT INTO post_media (postId, position, address) VALUES \(Array(repeating: "(?, ?, ?)", count: count).joined(separator: ", "))
                ON CONFLICT (postId, position) DO UPDATE SET address = excluded.address
                """,
                Array(rows[(start * 3)..<(end * 3)]))
            let distinct = Array(Set(addresses[start..<end])).sorted()
            try db.execute(
                """
                INSERT INTO media_source (address, status, attempts, firstSeen)
                VALUES \(Array(repeating: "(?, 'pending', 0, ?)", count: distinct.count).joined(separator: ", "))
                ON CONFLICT (address) DO NOTHING
                """,
                distinct.flatMap { [StoredValue.init($0), .init(date)] })
        }
    }

    /// Whether every stored post's text has been read for pictures (``referStoredPosts(media:at:)``); a crawl without
    /// pictures (`--media off`) writes posts without reading them, and clears it.
    package func mediaScanned() throws -> Bool {
        try readOnly { db in try db.value("SELECT value FROM archive_flag WHERE name = 'media-scanned'")?.string == "1" }
    }

    /// Records that posts were written without reading their pictures (a crawl with `--media off`).
    package func forgetMediaScan() throws {
        try transact { db in try db.execute("DELETE FROM archive_flag WHERE name = 'media-scanned'") }
    }

    /// Reads the pictures of every stored post that may show one and has none recorded (an archive crawled before
    /// pictures were kept, or with `--media off`), then records the archive as read. Answers how many posts it read.
    package func referStoredPosts(media: MediaReferencing, at date: Date) throws -> Int {
        try transact { db in
            // Only bodies that could show a picture are read back (a Markdown image or an HTML `img` tag).
            let rows = try db.rows(
                """
                SELECT postId, contents FROM post WHERE (contents LIKE '%![%' OR LOWER(contents) LIKE '%<img%')
                AND postId NOT IN (SELECT postId FROM post_media) ORDER BY postId
                """)
            let posts = rows.compactMap { row -> Post? in
                guard let id = row[0].int, let contents = row[1].string else { return nil }
                return Post(postId: id, title: "", boardId: 0, writer: Writer(displayName: ""), contents: contents, createdDateTime: date)
            }
            try Self.referMedia(posts, replacing: false, media: media, at: date, in: db)
            try db.execute(
                "INSERT INTO archive_flag (name, value) VALUES ('media-scanned', '1') ON CONFLICT (name) DO UPDATE SET value = excluded.value")
            return posts.count
        }
    }

    /// The addresses to try now: pending ones, and those not kept whose next attempt is due, with the posts showing them.
    package func mediaWork(at date: Date) throws -> [MediaWork] {
        try readOnly { db in
            let rows = try db.rows(
                """
                SELECT s.address, s.attempts, pm.postId, pm.position, s.status, s.reason FROM media_source s
                JOIN post_media pm ON pm.address = s.address
                WHERE s.status IN ('pending', 'failed', 'refused') AND (s.nextAttempt IS NULL OR s.nextAttempt <= ?) ORDER BY s.address, pm.postId
                """, [.init(date)])
            var work: [MediaWork] = []
            for row in rows {
                guard let address = row[0].string, let postId = row[2].int, let position = row[3].int else { continue }
                let use = MediaWork.Use(postId: postId, position: position)
                if work.last?.address == address {
                    work[work.count - 1].posts.append(use)
                } else {
                    work.append(
                        MediaWork(
                            address: address, attempts: row[1].int ?? 0, status: MediaStatus(rawValue: row[4].string ?? "") ?? .pending,
                            reason: row[5].string, posts: [use]))
                }
            }
            return work
        }
    }

    /// The bytes of kept images each post with pictures due at `date` (``mediaWork(at:)``) already shows, by post.
    package func keptMediaBytes(ofPostsDueAt date: Date) throws -> [Int: Int] {
        try readOnly { db in
            var result: [Int: Int] = [:]
            for row in try db.rows(
                """
                SELECT pm.postId, CAST(SUM(m.size) AS BIGINT) FROM post_media pm JOIN media_source s ON s.address = pm.address
                JOIN media m ON m.hash = s.hash
                WHERE pm.postId IN (
                    SELECT due.postId FROM post_media due JOIN media_source ds ON ds.address = due.address
                    WHERE ds.status IN ('pending', 'failed', 'refused') AND (ds.nextAttempt IS NULL OR ds.nextAttempt <= ?))
                GROUP BY pm.postId
                """, [.init(date)])
            {
                if let id = row[0].int { result[id] = row[1].int ?? 0 }
            }
            return result
        }
    }

    /// Keeps `image` for `address`: its bytes once (an image another address already brought is not stored again).
    /// An address a purge marked meanwhile stays purged: its bytes are not stored.
    package func keepMedia(_ image: KeptImage, for address: String, at date: Date) throws {
        try transact { db in
            guard let status = try db.value("SELECT status FROM media_source WHERE address = ?", [.init(address)])?.string,
                status != MediaStatus.purged.rawValue
            else { return }
            try db.execute(
                """
                INSERT INTO media (hash, format, width, height, size, firstSeen, bytes) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (hash) DO NOTHING
                """,
                [
                    .init(image.hash), .init(image.format.rawValue), .init(image.width), .init(image.height), .init(image.bytes.count), .init(date),
                    .blob(image.bytes),
                ])
            try db.execute(
                """
                UPDATE media_source SET status = 'kept', hash = ?, reason = NULL, attempts = attempts + 1, lastTried = ?, nextAttempt = NULL
                WHERE address = ?
                """, [.init(image.hash), .init(date), .init(address)])
        }
    }

    /// Records that `address` was not kept, why, and when to try it again; only failures count as tries (the wait grows
    /// with them). An address a purge marked meanwhile stays purged.
    package func recordMediaMiss(_ address: String, status: MediaStatus, reason: String, retryAt: Date, at date: Date) throws {
        try transact { db in
            try db.execute(
                """
                UPDATE media_source SET status = ?, hash = NULL, reason = ?, attempts = attempts + ?, lastTried = ?, nextAttempt = ?
                WHERE address = ? AND status <> 'purged'
                """,
                [.init(status.rawValue), .init(reason), .init(status == .failed ? 1 : 0), .init(date), .init(retryAt), .init(address)])
        }
    }

    /// Every address the archive's posts show, and where it stands, by address.
    public func mediaSources() throws -> [MediaSourceState] {
        try readOnly { db in
            try db.rows("SELECT address, status, hash, reason, attempts, nextAttempt FROM media_source ORDER BY address").map { row in
                MediaSourceState(
                    address: row[0].string ?? "", status: MediaStatus(rawValue: row[1].string ?? "") ?? .pending, hash: row[2].string,
                    reason: row[3].string, attempts: row[4].int ?? 0, nextAttempt: row[5].double.map { Date(timeIntervalSince1970: $0) })
            }
        }
    }

    /// The number of distinct images kept, and their bytes.
    public func keptMediaTotals() throws -> (images: Int, bytes: Int) {
        try readOnly { db in
            let row = try db.row("SELECT COUNT(*), CAST(COALESCE(SUM(size), 0) AS BIGINT) FROM media")
            return (row?[0].int ?? 0, row?[1].int ?? 0)
        }
    }

    /// The addresses each of these posts shows, in order.
    public func mediaAddresses(ofPost id: Int) throws -> [String] {
        try readOnly { db in
            try db.rows("SELECT address FROM post_media WHERE postId = ? ORDER BY position", [.init(id)]).compactMap { $0[0].string }
        }
    }
}
