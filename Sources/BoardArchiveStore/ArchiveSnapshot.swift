import BoardArchiveModel
import Foundation

/// One consistent view of an archive, as the build reads it: the store seam the site builder depends on.
///
/// Every read of a snapshot sees the same committed state of the store, however long the build takes and whatever a
/// crawl writes meanwhile (on SQLite one long read transaction of the WAL, ``SQLiteSnapshot``). Listings stream as
/// ``KeyStream``s the caller pulls, a page of keys at a time; lookups take a batch of ids. No read runs a closure of the
/// caller inside the store's transaction.
///
/// Every read of posts honours takedowns: posts a redaction removes are left out of `listedPosts`, `postsWithBodies`
/// and `posts` (their keys keep their places in listings, with ``ListingKey/removedAt``), and posts whose writer a
/// redaction withholds come back anonymous; writers get their pseudonyms when the snapshot was opened with some.
public protocol ArchiveSnapshot: AnyObject, Sendable {
    /// Where the store lives, for messages.
    var location: String { get }

    /// Every board, in display order: `orderNo` ascending (boards without one last), then `boardId`.
    func boards() throws -> [Board]
    /// The boards the source no longer lists, each with when a crawl last saw it (which cannot change while it is gone).
    func goneBoards() throws -> [Int: Date]
    /// The number of posts of each board that has any, removed posts included.
    func postCountsByBoard() throws -> [Int: Int]
    /// The notices and other posts of a board, removed posts included, and how many a redaction removed.
    func listingCounts(ofBoard boardId: Int) throws -> ListingCounts
    /// The first board or post (by kind and id) whose ids break the ``ArchiveID`` rule, or nil.
    func firstIdBeyondRule() throws -> (kind: String, id: Int)?
    /// The ids of the posts a redaction removed from the site, ascending.
    func removedPostIds() throws -> [Int]
    /// The number of posts a redaction removed from the site.
    func removedPostCount() throws -> Int

    /// A board's keys in board order (notices first, newest first, ties by `postId` descending), removed posts included.
    func listingKeys(ofBoard boardId: Int) -> KeyStream
    /// Every post's key in search-block order (notices, then the others, each oldest first, ties by `postId`), removed
    /// posts included.
    func keysChronologically() -> KeyStream
    /// What decides whether anything published changed: every post's id, board, content hash and redaction, by id.
    func postStates() -> PostStateStream

    /// The keys of the posts with these ids, removed ones included, by id.
    func keys(ids: [Int]) throws -> [Int: ListingKey]
    /// The keys of the published replies to the posts with these ids, each parent's replies in the board order of their
    /// own board, boards by id.
    func replyKeys(toPostIds ids: [Int]) throws -> [Int: [ListingKey]]
    /// The published posts (without bodies) with these ids, by id.
    func listedPosts(ids: [Int]) throws -> [Int: ListedPost]
    /// The published posts with their bodies, with these ids, by id.
    func postsWithBodies(ids: [Int]) throws -> [Int: ListedPost]
    /// The published posts (with bodies) with these ids, by id.
    func posts(ids: [Int]) throws -> [Int: Post]
    /// The posts a redaction removed, with these ids, with their text (purged posts left out), for the keyword lists
    /// that keep their places. Never published.
    func removedPosts(ids: [Int]) throws -> [Int: Post]
    /// The earlier versions of the published posts among `ids` that have any (``PostVersions``), by id.
    func versions(ids: [Int]) throws -> [Int: PostVersions]
    /// The keys of the earlier versions of the posts among `ids` that have any (``VersionKeys``), by id; no text.
    func versionKeys(ids: [Int]) throws -> [Int: VersionKeys]

    /// The kept pictures, read in this snapshot (``PictureReader``).
    var pictures: PictureReader { get }
}

/// A store the build can read: it opens snapshots.
public protocol ArchiveSource: Sendable {
    /// Where the store lives, for messages.
    var location: String { get }
    /// Opens one consistent view of the store; writers get pseudonyms when `pseudonyms` is given.
    func snapshot(pseudonyms: WriterPseudonyms?, rule: Publication) throws -> any ArchiveSnapshot
}

extension ArchiveSource {
    /// A snapshot that publishes every post but those a redaction removed.
    public func snapshot(pseudonyms: WriterPseudonyms? = nil) throws -> any ArchiveSnapshot {
        try snapshot(pseudonyms: pseudonyms, rule: Publication())
    }
}

/// What a post contributes to the digest of the whole archive: enough to tell that nothing published changed.
public struct PostState: Sendable, Equatable {
    public var postId: Int
    public var boardId: Int
    public var contentHash: String
    /// The redaction's mode (`remove`, `anonymize`), or empty.
    public var redactionMode: String
    /// When the redaction was made, in milliseconds since 1970, or nil.
    public var redactedAtMilliseconds: Int?
    /// Since when the source no longer has the post, in milliseconds since 1970, or nil.
    public var goneSinceMilliseconds: Int? = nil
    /// How many earlier versions the store keeps.
    public var versionCount = 0
}

extension PostState {
    /// The columns of a state, in order; all in the `post_id_keys` index, so reading every post's state reads no row.
    static let columns = "postId, boardId, contentHash, redactionMode, redactedAt, goneSince, versionCount"
}

/// Every post's ``PostState`` in id order, read a page at a time.
public final class PostStateStream {
    /// Reads the states after `postId` (nil: from the first), at most `limit` of them, in id order.
    public typealias Page = (_ after: Int?, _ limit: Int) throws -> [PostState]

    private let fetch: Page
    private var buffer: [PostState] = []
    private var index = 0
    private var after: Int?
    private var done = false

    /// States per read.
    static let pageSize = 4_096

    public init(fetch: @escaping Page) {
        self.fetch = fetch
    }

    /// The next state, or nil at the end.
    public func next() throws -> PostState? {
        if index == buffer.count {
            guard !done else { return nil }
            buffer = try fetch(after, Self.pageSize)
            index = 0
            done = buffer.count < Self.pageSize
            guard let last = buffer.last else { return nil }
            after = last.postId
        }
        defer { index += 1 }
        return buffer[index]
    }
}
