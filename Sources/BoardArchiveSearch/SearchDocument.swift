import BoardArchiveModel
import Foundation

/// What the search index and the keyword pages need to know about one post: its row and its searchable text.
public struct SearchDocument: Sendable, Equatable, Hashable {
    public var postId: Int
    public var boardId: Int
    public var boardName: String
    public var title: String
    /// The writer name shown on the row (익명 for anonymous posts); the writer target searches this text.
    public var writer: String
    /// The raw post body as the API sent it (Markdown); the contents target searches this text.
    public var contents: String
    public var createdDateTime: Date
    public var postType: PostType
    public var viewCount: Int
    public var commentsCount: Int
    public var attachmentsCount: Int
    /// Whether the post is a reply to another post (it has a `parentPostId`).
    public var hasParent: Bool

    public init(
        postId: Int, boardId: Int, boardName: String, title: String, writer: String, contents: String, createdDateTime: Date,
        postType: PostType = .normal, viewCount: Int = 0, commentsCount: Int = 0, attachmentsCount: Int = 0, hasParent: Bool = false
    ) {
        self.postId = postId
        self.boardId = boardId
        self.boardName = boardName
        self.title = title
        self.writer = writer
        self.contents = contents
        self.createdDateTime = createdDateTime
        self.postType = postType
        self.viewCount = viewCount
        self.commentsCount = commentsCount
        self.attachmentsCount = attachmentsCount
        self.hasParent = hasParent
    }

    /// Makes the search document of `post`, showing `anonymousLabel` as the writer of an anonymous post.
    public init(post: Post, boardName: String, anonymousLabel: String = "익명") {
        self.init(
            postId: post.postId, boardId: post.boardId, boardName: boardName, title: post.title,
            writer: post.shownWriterName(anonymousLabel: anonymousLabel), contents: post.contents, createdDateTime: post.createdDateTime,
            postType: post.postType, viewCount: post.viewCount, commentsCount: post.commentsCount, attachmentsCount: post.shownAttachmentsCount,
            hasParent: post.parentPostId != nil)
    }

    /// Whether the post belongs to the notice blocks, which every listing shows first.
    package var isNotice: Bool { postType == .notice }

    /// The listing order every archive page uses: notices first, then newest first, ties by `postId` descending.
    package static func listingPrecedes(_ lhs: SearchDocument, _ rhs: SearchDocument) -> Bool {
        if lhs.isNotice != rhs.isNotice { return lhs.isNotice }
        if lhs.createdDateTime != rhs.createdDateTime { return lhs.createdDateTime > rhs.createdDateTime }
        return lhs.postId > rhs.postId
    }
}
