import Foundation
import GRDB

/// What the build's digests need of a post: its place in the listings, its content hash, its parent and whether a
/// redaction removed it; no text. Read from covering indexes (``ArchiveStore`` migration `v5-listing-keys`), so a
/// rebuild finds the pages to render without reading a row of the post table. A snapshot streams them
/// (``ArchiveSnapshot/listingKeys(ofBoard:)``) and looks them up (``ArchiveSnapshot/keys(ids:)``).
public struct ListingKey: Sendable, Equatable, Hashable {
    public var postId: Int
    public var boardId: Int
    public var isNotice: Bool
    public var created: Date
    public var parentPostId: Int?
    /// The content hash as ``ListedPost/contentHash`` has it (a post whose writer a redaction withholds has its own).
    public var contentHash: String
    /// When a redaction removed the post from the site (its address shows a tombstone), else nil.
    public var removedAt: Date?

    /// The columns every key index holds besides its ordering columns.
    static let indexedColumns = "postType, contentHash, redactionMode, redactedAt"
    /// The columns of a key, in the order ``init(row:)`` reads them.
    static let columns = "postId, boardId, postType, createdAt, parentPostId, contentHash, redactionMode, redactedAt"

    /// The place of a removed post, as the listings keep it.
    public var removed: RemovedPost? {
        removedAt.map { RemovedPost(postId: postId, boardId: boardId, isNotice: isNotice, redactedAt: $0) }
    }
}
