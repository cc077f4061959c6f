import BoardArchiveModel
import Foundation
import GRDB

/// A post as listings and build digests need it: every field but the body, and the hash of what the API sent.
public struct ListedPost: Sendable, Equatable {
    /// The post, with empty `contents` (bodies are read only for the pages that are rendered).
    public var post: Post
    /// The content hash of the post as stored (changes whenever any of its fields changes); a post whose writer a
    /// redaction withholds has its own hash, so every page that shows it is rendered again.
    public var contentHash: String

    /// When a crawl last saw a post the source no longer has (its deletion mark), else nil.
    public var goneLastSeen: Date? = nil
    /// When a crawl first saw the post's current text, while it has earlier versions (``PostVersions``), else nil.
    public var editedAt: Date? = nil

    /// What a post's hash gets when a redaction withholds its writer.
    static let anonymizedSuffix = "~anonymized"
}

/// A place in a listing that a redaction emptied: the post is removed from the site, its address shows a tombstone.
///
/// The build keeps its place (so that listing pages and search blocks after it do not move) but shows nothing of it.
public struct RemovedPost: Sendable, Equatable {
    public var postId: Int
    public var boardId: Int
    public var isNotice: Bool
    /// When the redaction that removed it was made, or (``atSource``) when the source's deletion was found.
    public var redactedAt: Date
    /// Whether it is left out because the source deleted it (`build.deleted-posts: left-out`), not by a redaction.
    public var atSource = false
}

/// How many posts of a listing are notices and how many are not.
public struct ListingCounts: Sendable, Equatable {
    /// Notices, removed ones included.
    public var notices: Int
    /// Other posts, removed ones included.
    public var others: Int
    /// Posts a redaction removed (a place in the listing, no row).
    public var removed = 0

    /// The posts the listing shows.
    public var shown: Int { notices + others - removed }
}

extension ArchiveStore {
    /// The columns of a listed post: everything but `contents` and `raw`.
    static let listedColumns = """
        postId, boardId, title, boardDisplayName, writerName, writerEmail, writerProfileImage, createdAt, viewCount, postType,
        rawPostType, isNewPost, hasInlineImage, commentsCount, attachmentsCount, isAnonymous, isOwner, hasReply, parentPostId,
        hasAttachment, contentHash, redactionMode, redactedAt, goneSince, lastSeen, editedAt
        """
    /// The position of `contents` after ``listedColumns``.
    static let contentsColumn = 26
}
