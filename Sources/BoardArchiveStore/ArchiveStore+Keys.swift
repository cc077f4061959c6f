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
    /// When a redaction removed the post from the site (its address shows a tombstone), or, under a publication that
    /// leaves out the posts the source deleted, when it was found deleted; else nil.
    public var removedAt: Date?
    /// Whether ``removedAt`` is the source's deletion rather than a redaction.
    public var removedAtSource = false
    /// When a crawl found the post gone from the source, else nil. While it is gone its last sighting (`lastSeen`, what
    /// its mark shows) cannot change: a crawl that sees it again clears this.
    public var goneSince: Date?
    /// How many earlier versions of the post the store keeps (``PostVersion``).
    public var versionCount: Int

    /// The columns every key index holds besides its ordering columns.
    static let indexedColumns = "postType, contentHash, redactionMode, redactedAt, goneSince, versionCount"
    /// The columns the key indexes held up to migration `v6-versions` (which migration `v5-listing-keys` creates them with).
    static let v5IndexedColumns = "postType, contentHash, redactionMode, redactedAt"
    /// The columns of a key, in the order ``init(row:)`` reads them.
    static let columns = "postId, boardId, postType, createdAt, parentPostId, contentHash, redactionMode, redactedAt, goneSince, versionCount"

    /// Whether a redaction withholds the post's writer (its hash carries the mark).
    public var writerWithheld: Bool { contentHash.hasSuffix(ListedPost.anonymizedSuffix) }

    /// The place of a removed post, as the listings keep it.
    public var removed: RemovedPost? {
        removedAt.map { RemovedPost(postId: postId, boardId: boardId, isNotice: isNotice, redactedAt: $0, atSource: removedAtSource) }
    }
}
