import Foundation

/// A post as the API lists it; list items and search items share this shape.
///
/// Required keys: `postId`, `title`, `boardId`, `writer`, `createdDateTime`. Every other key is optional and
/// takes the documented default when absent; unknown keys are ignored.
public struct Post: Codable, Sendable, Equatable, Hashable {
    public var postId: Int
    public var title: String
    public var boardId: Int
    public var boardDisplayName: String?
    public var writer: Writer
    public var contents: String
    public var createdDateTime: Date
    public var viewCount: Int
    public var postType: PostType
    /// The `postType` text as the API sent it, when it was not a known value (it then reads as `normal`).
    public var unknownPostType: String?
    public var isNewPost: Bool?
    public var hasInlineImage: Bool?
    public var commentsCount: Int
    public var attachmentsCount: Int
    public var isAnonymous: Bool
    public var isOwner: Bool?
    public var hasReply: Bool?
    public var parentPostId: Int?
    /// Added by the 2024 API variant.
    public var hasAttachment: Bool?

    public init(
        postId: Int, title: String, boardId: Int, boardDisplayName: String? = nil, writer: Writer, contents: String = "",
        createdDateTime: Date, viewCount: Int = 0, postType: PostType = .normal, isNewPost: Bool? = nil, hasInlineImage: Bool? = nil,
        commentsCount: Int = 0, attachmentsCount: Int = 0, isAnonymous: Bool = false, isOwner: Bool? = nil, hasReply: Bool? = nil,
        parentPostId: Int? = nil, hasAttachment: Bool? = nil
    ) {
        self.postId = postId
        self.title = title
        self.boardId = boardId
        self.boardDisplayName = boardDisplayName
        self.writer = writer
        self.contents = contents
        self.createdDateTime = createdDateTime
        self.viewCount = viewCount
        self.postType = postType
        self.isNewPost = isNewPost
        self.hasInlineImage = hasInlineImage
        self.commentsCount = commentsCount
        self.attachmentsCount = attachmentsCount
        self.isAnonymous = isAnonymous
        self.isOwner = isOwner
        self.hasReply = hasReply
        self.parentPostId = parentPostId
        self.hasAttachment = hasAttachment
    }

    enum CodingKeys: String, CodingKey {
        case postId, title, boardId, boardDisplayName, writer, contents, createdDateTime, viewCount, postType, isNewPost
        case hasInlineImage, commentsCount, attachmentsCount, isAnonymous, isOwner, hasReply, parentPostId, hasAttachment
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        postId = try c.decode(Int.self, forKey: .postId)
        title = try c.decode(String.self, forKey: .title)
        boardId = try c.decode(Int.self, forKey: .boardId)
        boardDisplayName = try c.decodeIfPresent(String.self, forKey: .boardDisplayName)
        writer = try c.decode(Writer.self, forKey: .writer)
        contents = try c.decodeIfPresent(String.self, forKey: .contents) ?? ""
        createdDateTime = try c.decodeArchiveDate(forKey: .createdDateTime)
        viewCount = try c.decodeIfPresent(Int.self, forKey: .viewCount) ?? 0
        let rawType = try c.decodeIfPresent(String.self, forKey: .postType) ?? PostType.normal.rawValue
        postType = PostType(rawValue: rawType) ?? .normal
        unknownPostType = PostType(rawValue: rawType) == nil ? rawType : nil
        isNewPost = try c.decodeIfPresent(Bool.self, forKey: .isNewPost)
        hasInlineImage = try c.decodeIfPresent(Bool.self, forKey: .hasInlineImage)
        commentsCount = try c.decodeIfPresent(Int.self, forKey: .commentsCount) ?? 0
        attachmentsCount = try c.decodeIfPresent(Int.self, forKey: .attachmentsCount) ?? 0
        isAnonymous = try c.decodeIfPresent(Bool.self, forKey: .isAnonymous) ?? false
        isOwner = try c.decodeIfPresent(Bool.self, forKey: .isOwner)
        hasReply = try c.decodeIfPresent(Bool.self, forKey: .hasReply)
        parentPostId = try c.decodeIfPresent(Int.self, forKey: .parentPostId)
        hasAttachment = try c.decodeIfPresent(Bool.self, forKey: .hasAttachment)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(postId, forKey: .postId)
        try c.encode(title, forKey: .title)
        try c.encode(boardId, forKey: .boardId)
        try c.encodeIfPresent(boardDisplayName, forKey: .boardDisplayName)
        try c.encode(writer, forKey: .writer)
        try c.encode(contents, forKey: .contents)
        try c.encode(ArchiveDate.format(createdDateTime), forKey: .createdDateTime)
        try c.encode(viewCount, forKey: .viewCount)
        try c.encode(unknownPostType ?? postType.rawValue, forKey: .postType)
        try c.encodeIfPresent(isNewPost, forKey: .isNewPost)
        try c.encodeIfPresent(hasInlineImage, forKey: .hasInlineImage)
        try c.encode(commentsCount, forKey: .commentsCount)
        try c.encode(attachmentsCount, forKey: .attachmentsCount)
        try c.encode(isAnonymous, forKey: .isAnonymous)
        try c.encodeIfPresent(isOwner, forKey: .isOwner)
        try c.encodeIfPresent(hasReply, forKey: .hasReply)
        try c.encode(parentPostId, forKey: .parentPostId)
        try c.encodeIfPresent(hasAttachment, forKey: .hasAttachment)
    }
}

extension Post {
    /// The name the board apps show: 익명 for anonymous posts, else the writer's display name.
    public func shownWriterName(anonymousLabel: String) -> String {
        isAnonymous ? anonymousLabel : writer.displayName
    }

    /// Hides the writer, as a writer redaction with `--mode anonymize` asks: no name, no address, shown as anonymous.
    public mutating func withholdWriter() {
        writer = Writer(displayName: "")
        isAnonymous = true
    }

    /// The attachment count listings show: `attachmentsCount`, but at least 1 when the API only sets `hasAttachment`.
    public var shownAttachmentsCount: Int {
        max(attachmentsCount, hasAttachment == true ? 1 : 0)
    }
}
