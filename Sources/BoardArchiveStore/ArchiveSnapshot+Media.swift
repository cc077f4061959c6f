import BoardArchiveModel
import Foundation

/// The pictures a snapshot publishes (issue 28), read with the same statements on both stores: a snapshot hands out
/// one reader over its own rows and publication rule.
public struct PictureReader: Sendable {
    /// The SQL condition on a `post` row that the site shows it (``Publication``).
    let published: String
    /// The rows of a statement (`?` parameters), in the snapshot's transaction.
    let rows: @Sendable (String, [StoredValue]) throws -> [[StoredValue]]

    /// The kept pictures each post shows (only posts with any), in the post's order: read once per build, from the
    /// pictures' own tables (its cost follows the pictures, not the posts).
    public func uses() throws -> [Int: [PublishedImage]] {
        ArchiveStore.mediaUses(try rows(ArchiveStore.mediaUsesSQL, []))
    }

    /// The distinct kept pictures that published posts show, by hash.
    public func publishedImages() throws -> [(hash: String, format: ImageFormat)] {
        ArchiveStore.publishedMedia(try rows(ArchiveStore.publishedMediaSQL(published: published), []))
    }

    /// The bytes of the kept picture with this hash, or nil.
    public func bytes(hash: String) throws -> [UInt8]? {
        try rows(ArchiveStore.mediaBytesSQL, [.text(hash)]).first?.first?.bytes
    }
}

extension ArchiveSnapshot {
    public func mediaUses() throws -> [Int: [PublishedImage]] { try pictures.uses() }
    public func publishedMedia() throws -> [(hash: String, format: ImageFormat)] { try pictures.publishedImages() }
    public func mediaBytes(hash: String) throws -> [UInt8]? { try pictures.bytes(hash: hash) }
}

extension ArchiveStore {
    /// The kept images each post shows, in each post's order.
    static let mediaUsesSQL = """
        SELECT pm.postId, pm.address, m.hash, m.format, m.width, m.height FROM post_media pm
        JOIN media_source s ON s.address = pm.address JOIN media m ON m.hash = s.hash
        WHERE s.status = 'kept' ORDER BY pm.postId, pm.position
        """

    /// The distinct kept images that posts meeting `published` show, by hash.
    static func publishedMediaSQL(published: String) -> String {
        """
        SELECT DISTINCT m.hash, m.format FROM post p JOIN post_media pm ON pm.postId = p.postId
        JOIN media_source s ON s.address = pm.address JOIN media m ON m.hash = s.hash
        WHERE s.status = 'kept' AND \(published) ORDER BY m.hash
        """
    }

    static let mediaBytesSQL = "SELECT bytes FROM media WHERE hash = ?"

    static func mediaUses(_ rows: [[StoredValue]]) -> [Int: [PublishedImage]] {
        var result: [Int: [PublishedImage]] = [:]
        for row in rows {
            guard row.count == 6, let postId = row[0].int, let address = row[1].string, let hash = row[2].string,
                let format = row[3].string.flatMap(ImageFormat.init(rawValue:)), let width = row[4].int, let height = row[5].int
            else { continue }
            result[postId, default: []].append(PublishedImage(address: address, hash: hash, format: format, width: width, height: height))
        }
        return result
    }

    static func publishedMedia(_ rows: [[StoredValue]]) -> [(hash: String, format: ImageFormat)] {
        rows.compactMap { row in
            guard let hash = row[0].string, let format = row[1].string.flatMap(ImageFormat.init(rawValue:)) else { return nil }
            return (hash, format)
        }
    }
}
