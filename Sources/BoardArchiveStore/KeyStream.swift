import Foundation

/// A listing of ``ListingKey``s the caller pulls, read from a snapshot a page at a time by keyset.
///
/// A listing's order is made of *segments*: the notices, then the other posts, each ordered by `createdAt` and
/// `postId` (both descending in board order, both ascending in search-block order). Each page continues its segment
/// after the last key read (`(createdAt, postId)` beyond the last one's), so a page costs what it reads over the
/// covering indexes, however deep into a listing it is; only one page is in memory.
public final class KeyStream {
    /// A part of a listing: the notices or the other posts, in one direction.
    public struct Segment: Sendable, Equatable {
        /// Notices (`postType = 'notice'`) or the other posts.
        public var notices: Bool
        /// Newest first (board order) or oldest first (search-block order).
        public var descending: Bool
    }

    /// Where a segment is continued: after this creation time (seconds since 1970) and post id.
    public typealias Position = (createdAt: Int64, postId: Int)
    /// Reads the keys of `segment` after `position` (nil: from its start), at most `limit` of them, in its order.
    public typealias Page = (_ segment: Segment, _ after: Position?, _ limit: Int) throws -> [ListingKey]

    /// Board order: notices first, then the others, each newest first.
    public static let boardOrder = [Segment(notices: true, descending: true), Segment(notices: false, descending: true)]
    /// Search-block order: notices first, then the others, each oldest first.
    public static let chronologicalOrder = [Segment(notices: true, descending: false), Segment(notices: false, descending: false)]

    /// Keys per read.
    static let pageSize = 1_024

    private let segments: [Segment]
    private let fetch: Page
    private var segment = 0
    private var after: Position?
    private var buffer: [ListingKey] = []
    private var index = 0
    /// Whether the page in the buffer was the last of its segment.
    private var segmentEnded = false

    public init(segments: [Segment], fetch: @escaping Page) {
        self.segments = segments
        self.fetch = fetch
    }

    /// The next key, or nil at the end of the listing.
    public func next() throws -> ListingKey? {
        while index == buffer.count {
            if segmentEnded {
                segment += 1
                after = nil
                segmentEnded = false
            }
            guard segment < segments.count else { return nil }
            buffer = try fetch(segments[segment], after, Self.pageSize)
            index = 0
            segmentEnded = buffer.count < Self.pageSize
            if let last = buffer.last { after = (Int64(last.created.timeIntervalSince1970), last.postId) }
        }
        defer { index += 1 }
        return buffer[index]
    }
}

extension KeyStream {
    /// The SQL of one page of `segment` (of board `board`, or of every board when nil), and its parameters in order,
    /// in `dialect`. The notice flag is compared with the indexed expression and the position as a row value over
    /// `(createdAt, postId)`, so both databases seek in `post_board_keys` / `post_chronological_keys` and need no sort.
    static func pageQuery(board: Int?, segment: Segment, after: Position?, limit: Int, dialect: Dialect) -> (
        sql: String, parameters: [PageParameter]
    ) {
        var parameters: [PageParameter] = []
        func next(_ parameter: PageParameter) -> String {
            parameters.append(parameter)
            return dialect.placeholder(parameters.count)
        }
        var sql = "SELECT \(ListingKey.columns) FROM post WHERE "
        if let board { sql += "boardId = \(next(.integer(board))) AND " }
        switch dialect {
        case .sqlite: sql += "(postType = 'notice') = \(next(.flag(segment.notices)))"
        // PostgreSQL folds `(postType = 'notice') = false` into `postType <> 'notice'`, which no longer matches the
        // index's first column: it read the rest of the index and sorted it for every page (8.7 ms instead of 0.3 ms
        // for a page of 1,024 keys of a 100,000-post archive). `IS TRUE` / `IS FALSE` stay index conditions.
        case .postgres: sql += "(postType = 'notice') IS \(segment.notices ? "TRUE" : "FALSE")"
        }
        if let after {
            let createdAt = next(.integer(Int(after.createdAt)))
            sql += " AND (createdAt, postId) \(segment.descending ? "<" : ">") (\(createdAt), \(next(.integer(after.postId))))"
        }
        let direction = segment.descending ? " DESC" : ""
        sql += " ORDER BY createdAt\(direction), postId\(direction) LIMIT \(next(.integer(limit)))"
        return (sql, parameters)
    }

    /// The database a page query is written for: its parameters (`?` in SQLite, `$n` in PostgreSQL) and how it seeks
    /// by the notice flag.
    enum Dialect {
        case sqlite
        case postgres

        func placeholder(_ number: Int) -> String {
            self == .sqlite ? "?" : "$\(number)"
        }
    }

    /// A parameter of ``pageQuery(board:segment:after:limit:dialect:)``.
    enum PageParameter {
        case integer(Int)
        case flag(Bool)
    }
}
