import Foundation

/// Exact item JSON the fixture server lists instead of its dataset: hostile and malformed input for tests.
///
/// Each item is sent byte for byte as given (a NUL escape, an id of `1.5`, a post whose `boardId` is another board's,
/// the same post in two boards, a board listed twice), inside a well-formed envelope paged by `offset` and `limit`,
/// so the crawler sees it over real HTTP exactly as a misbehaving server would send it.
public struct FixtureRawListings: Sendable, Equatable {
    /// The items of `GET /boards`, in order.
    public var boards: [String]
    /// The items of `GET /boards/{boardId}/posts` per board id, in order; a board not in here answers 404.
    public var posts: [Int: [String]]
    /// When set, every `GET /boards/{boardId}/posts` answers these bytes with `Content-Encoding: gzip` instead (a
    /// decompression bomb, say).
    public var gzipPostsBody: Data?

    public init(boards: [String], posts: [Int: [String]], gzipPostsBody: Data? = nil) {
        self.boards = boards
        self.posts = posts
        self.gzipPostsBody = gzipPostsBody
    }

    /// The envelope of `items` from `offset`, at most `limit` of them, as JSON text.
    static func envelope(of items: [String], offset: Int, limit: Int) -> Data {
        let page = offset < items.count ? Array(items[offset..<min(items.count, offset + limit)]) : []
        let text =
            "{\"value\":[\(page.joined(separator: ","))],\"count\":\(page.count),\"offset\":\(offset),\"limit\":\(limit),"
            + "\"total\":\(items.count)}"
        return Data(text.utf8)
    }
}
