import BoardArchiveModel
import BoardArchiveRender
import BoardArchiveStore
import Foundation

/// A post as a row shows it: the post, and whether it is from today (the new badge and `HH:mm` instead of `yy-MM-dd`).
struct RowInput: Codable, Equatable {
    var postId: Int
    var contentHash: String
    var isToday: Bool
    /// Since when the source no longer has the post (Unix seconds), when the row marks it; its mark's date, the last
    /// sighting, cannot change while it is gone.
    var goneSeconds: Int? = nil

    init(postId: Int, contentHash: String, isToday: Bool, goneSeconds: Int? = nil) {
        self.postId = postId
        self.contentHash = contentHash
        self.isToday = isToday
        self.goneSeconds = goneSeconds
    }

    /// `marksDeleted`: whether the build marks posts deleted at the source (`build.deleted-posts: marked`).
    init(_ key: ListingKey, clock: ArchiveClock, marksDeleted: Bool) {
        self.init(
            postId: key.postId, contentHash: key.contentHash, isToday: clock.isToday(key.created),
            goneSeconds: marksDeleted ? key.goneSince.map { Int($0.timeIntervalSince1970) } : nil)
    }
}

/// An earlier version as the pages that show it know it: its number, hash and when it was first and last seen.
struct VersionInput: Codable, Equatable {
    var version: Int
    var contentHash: String
    var firstSeconds: Int
    var lastSeconds: Int

    init(_ key: VersionKey) {
        version = key.version
        contentHash = key.contentHash
        firstSeconds = Int(key.firstSeen.timeIntervalSince1970)
        lastSeconds = Int(key.lastSeen.timeIntervalSince1970)
    }
}

/// A link to another post: its id and content hash (which covers the title the link shows).
struct LinkInput: Codable, Equatable {
    var postId: Int
    var contentHash: String

    init(postId: Int, contentHash: String) {
        self.postId = postId
        self.contentHash = contentHash
    }

    init?(_ key: ListingKey?) {
        guard let key else { return nil }
        self.init(postId: key.postId, contentHash: key.contentHash)
    }
}

/// A board's listing page (front or archive page).
///
/// Its rows (``RowInput``s) are held a list per field: the digest encoder feeds a list of plain values at once but a
/// row through a container of its own, and a night digests every listing page (33,000 of 30 rows at 1M posts): a
/// page's digest took 21,900 instructions instead of 76,700 (callgrind, a copy of the encoder).
struct ListingPageInput: PageInput, Equatable {
    static let kind = "board"
    var boardId: Int
    var boardName: String
    var pager: PagerInput
    var postIds: [Int]
    var contentHashes: [String]
    var today: [Bool]
    var goneSeconds: [Int?]
    /// When the board was last seen, if the source deleted it and the site marks it.
    var boardGoneSeconds: Int? = nil

    init(boardId: Int, boardName: String, pager: PagerInput, rows: [RowInput], boardGoneSeconds: Int? = nil) {
        (self.boardId, self.boardName, self.pager, self.boardGoneSeconds) = (boardId, boardName, pager, boardGoneSeconds)
        postIds = rows.map(\.postId)
        contentHashes = rows.map(\.contentHash)
        today = rows.map(\.isToday)
        goneSeconds = rows.map(\.goneSeconds)
    }
}

/// A post's page: the post, its board, the listing page that holds it, its neighbours, parent and replies.
///
/// Flat: the post's and its links' fields are the page's own rather than nested values. The digest encoder pays for each
/// nested value a keyed container (a box, its generic metadata looked up at run time), and a night digests every post
/// page (1,000,000 at 1M posts): flat, a post page's digest took 6,829 instructions instead of 14,055 (callgrind, a
/// copy of the encoder over these fields). Replies stay rows: most posts have none.
struct PostPageInput: PageInput, Equatable {
    static let kind = "post"
    var postId: Int
    var contentHash: String
    var isToday: Bool
    var goneSeconds: Int?
    var boardId: Int
    var boardName: String
    var backPage: Int?
    var previousId: Int?
    var previousHash: String?
    var nextId: Int?
    var nextHash: String?
    var parentId: Int?
    var parentHash: String?
    var parentMissing: Bool
    var parentRemoved: Bool
    var replies: [RowInput]
    /// The earlier versions the page links to, and since when the current text is seen (Unix seconds).
    var versions: [VersionInput] = []
    var editedSeconds: Int? = nil
    /// The kept pictures its text shows (address, content hash, size): a picture kept later re-renders the page. Nil
    /// when none (most posts show none): the encoder then feeds its one "absent" word, as for any nil.
    var pictures: [PublishedImage]? = nil

    init(
        post: RowInput, boardId: Int, boardName: String, backPage: Int?, previous: LinkInput?, next: LinkInput?, parent: LinkInput?,
        parentMissing: Bool, parentRemoved: Bool, replies: [RowInput], versions: [VersionInput] = [], editedSeconds: Int? = nil,
        pictures: [PublishedImage]? = nil
    ) {
        (postId, contentHash, isToday, goneSeconds) = (post.postId, post.contentHash, post.isToday, post.goneSeconds)
        (self.boardId, self.boardName, self.backPage) = (boardId, boardName, backPage)
        (previousId, previousHash) = (previous?.postId, previous?.contentHash)
        (nextId, nextHash) = (next?.postId, next?.contentHash)
        (parentId, parentHash) = (parent?.postId, parent?.contentHash)
        (self.parentMissing, self.parentRemoved, self.replies) = (parentMissing, parentRemoved, replies)
        (self.versions, self.editedSeconds, self.pictures) = (versions, editedSeconds, pictures)
    }
}

/// A kept picture's file under `media/`: its bytes are named by their hash, so the hash is all it is made from.
struct MediaFileInput: PageInput, Equatable {
    static let kind = "media"
    var hash: String
    var format: ImageFormat
}

/// Which kept picture each post shows, in post and position order: part of what decides whether anything changed.
struct PictureStatesInput: PageInput, Equatable {
    static let kind = "picture-states"
    var postIds: [Int] = []
    var hashes: [String] = []
}

/// An earlier version's page: the version, the one after it (a stored version's hash, or the current post's), the board
/// it is shown on, and whether a redaction withholds the post's writer. Not the current title or text: a new version
/// rewrites only the page of the version it replaces.
struct VersionPageInput: PageInput, Equatable {
    static let kind = "version"
    var postId: Int
    var version: VersionInput
    var nextHash: String
    var boardId: Int
    var boardName: String
    var writerWithheld: Bool
}

/// The tombstone at the address of a post a takedown removed: the post's id, its board, the page that listed it and the
/// day it was removed.
struct TombstoneInput: PageInput, Equatable {
    static let kind = "tombstone"
    var postId: Int
    var boardId: Int
    var boardName: String
    var backPage: Int?
    var removedDay: String
    /// When (Unix seconds): the page's `<time datetime>`; under `left-out` a crawl can move it within a day.
    var removedSeconds = 0
    /// Whether the source deleted the post (`build.deleted-posts: left-out`) rather than a takedown removing it.
    var atSource = false
}

/// A row of a keyword page: the post, or its place when a takedown removed it (``removed``), with its board's name and
/// whether it is from today.
struct KeywordRowInput: Equatable {
    let postId: Int
    let removed: Bool
    /// The shown post's content hash, board name and whether it is from today: 0, "" and false for a removed row (whose
    /// page shows none of them), set only by ``removed(postId:)``.
    let contentHash: UInt64
    let boardName: String
    let isToday: Bool

    /// A shown post's row.
    init(postId: Int, contentHash: UInt64, boardName: String, isToday: Bool) {
        (self.postId, removed, self.contentHash, self.boardName, self.isToday) = (postId, false, contentHash, boardName, isToday)
    }

    /// The place of a post a takedown removed.
    static func removed(postId: Int) -> KeywordRowInput { KeywordRowInput(removedPostId: postId) }

    private init(removedPostId: Int) {
        (postId, removed, contentHash, boardName, isToday) = (removedPostId, true, 0, "", false)
    }
}

/// A keyword's result page (front or archive page).
///
/// Its rows are held a list per field, as a listing page's (``ListingPageInput``): 58,000 pages at 1M posts. A removed
/// row's hash, board name and flag are 0, "" and false (``KeywordRowInput/removed(postId:)``; its `removed` entry tells
/// it apart).
struct KeywordPageInput: PageInput, Equatable {
    static let kind = "keyword"
    var keyword: String
    var pager: PagerInput
    var postIds: [Int]
    var removed: [Bool]
    var contentHashes: [UInt64]
    var boardNames: [String]
    var today: [Bool]

    init(keyword: String, pager: PagerInput, rows: [KeywordRowInput]) {
        (self.keyword, self.pager) = (keyword, pager)
        postIds = rows.map(\.postId)
        removed = rows.map(\.removed)
        contentHashes = rows.map(\.contentHash)
        boardNames = rows.map(\.boardName)
        today = rows.map(\.isToday)
    }
}

/// The home page: every board's entry.
struct HomePageInput: PageInput, Equatable {
    static let kind = "home"
    var boards: [HomeBoardInput]
}

/// A board's entry on the home page: its name, how many posts it shows, whether one is from today, and its newest post's
/// time (Unix seconds) and whether that is today.
struct HomeBoardInput: Codable, Equatable {
    var boardId: Int
    var boardName: String
    var postCount: Int
    var hasPostFromToday: Bool
    var newestPostSeconds: Int?
    var newestIsToday: Bool
    /// When the board was last seen, if the source deleted it and the site marks it.
    var goneSeconds: Int? = nil
}

/// A board's name, as a feed or a listing names it.
struct BoardNameInput: Codable, Equatable {
    var boardId: Int
    var name: String
}

/// An Atom feed (a board's or the archive's): where the site is published, the boards it names and its posts.
struct FeedInput: PageInput, Equatable {
    static let kind = "feed"
    /// `board-feed` or `archive-feed`.
    var scope: String
    var baseURL: String?
    var boards: [BoardNameInput]
    var posts: [FeedEntryInput]
}

/// A feed's entry: the post, and when its current text was first seen if it was edited (the entry's `updated`).
struct FeedEntryInput: Codable, Equatable {
    var postId: Int
    var contentHash: String
    var editedSeconds: Int?
    var pictures: [PublishedImage]? = nil
}

/// A sitemap file: the pages it lists, or (the index) the sitemap files it names.
struct SitemapInput: PageInput, Equatable {
    static let kind = "sitemap"
    var isIndex: Bool
    var baseURL: String
    var entries: [String]
}

/// The build's record that the board, post and home pages and the feeds are what it made (`cache/pages.txt`): the
/// calendar day (new badges and `HH:mm` labels), the base URL (feeds) and the digest of every post as the store holds it.
struct PagesStateInput: PageInput, Equatable {
    static let kind = "pages"
    var day: Int
    var baseURL: String?
    var posts: String
}

/// What every file of a build shares: the page engine's version, the templates, the language, the time zone and its
/// offset, whether pages ask not to be indexed, and whose names writers go by (the pseudonym key's fingerprint).
struct BuildBaseInput: PageInput, Equatable {
    static let kind = "build"
    var engineVersion: String
    var templates: String
    var language: String
    var timeZone: String
    var offsetMinutes: Int
    var noindex: Bool
    var writers: String
    /// `build.deleted-posts`.
    var deletedPosts: String
}

/// What every file of the search index shares besides the build's base: the index's layout version and its sizes.
struct SearchSettingsInput: PageInput, Equatable {
    static let kind = "search"
    var indexFormat: String
    var blockSize: Int
    var postingShardTargetBytes: Int
    var metaShardSize: Int
    var contentsShardTargetBytes: Int
    var directoryShardTargetBytes: Int
    var maximumFileBytes: Int
}

/// The list of search blocks (`cache/search-blocks.txt`): made from every post as the store holds it.
struct SearchBlocksInput: PageInput, Equatable {
    static let kind = "search-blocks"
    var posts: String
}

/// A search block as later steps see it: its id and digest.
struct BlockDigestInput: Codable, Equatable {
    var id: String
    var digest: String
}

/// The block directory (`search/d*.js` and `cache/search-directory.txt`): every block.
struct SearchDirectoryInput: PageInput, Equatable {
    static let kind = "search-directory"
    var blocks: [BlockDigestInput]
}

/// The keywords chosen (`cache/search-keywords.txt`): the settings that choose them and every block.
struct KeywordSelectionInput: PageInput, Equatable {
    static let kind = "keyword-selection"
    var topKeywords: Int
    var ceiling: Int?
    var keywords: [String]
    var blocks: [BlockDigestInput]
}

/// A block's record with its keyword matches (`cache/search/<block>.txt`), after the block's own digest: the keywords'
/// slugs.
struct KeywordMatchesInput: PageInput, Equatable {
    static let kind = "keyword-matches"
    var slugs: [String]
}

/// A file of the search index, after the digest of what it is made from (its block's or its group's): its path.
struct IndexFileInput: PageInput, Equatable {
    static let kind = "index-file"
    var path: String
}

/// A search block (`cache/search/<block>.terms` and, through its files' digests, its index files), after the search
/// settings: its id and, column by column (lists of plain values encode about twenty times faster than a list of rows),
/// its posts' ids, content hashes and board names.
struct SearchBlockInput: PageInput, Equatable {
    static let kind = "search-block"
    var id: String
    var postIds: [Int]
    var contentHashes: [String]
    var boardNames: [String]
}

/// The boards of the archive, the first link of the chain of ``PostStatesInput`` that digests every post as the store
/// holds it (the pages' state and the search block list are made from that digest).
struct ArchiveBoardsInput: PageInput, Equatable {
    static let kind = "archive-boards"
    var boards: [BoardNameInput]
    /// For each board, when it was last seen if the source deleted it and the site marks it.
    var goneSeconds: [Int?] = []
}

/// Up to ``chunk`` posts of the archive in id order, after the digest of the posts before them: ids, boards, content
/// hashes and redactions, column by column. The last link has fewer (possibly none), which ends the chain.
struct PostStatesInput: PageInput, Equatable {
    static let kind = "post-states"
    /// Posts per link: the stream is digested a link at a time, so the whole archive is never held.
    static let chunk = 4_096
    var postIds: [Int] = []
    var boardIds: [Int] = []
    var contentHashes: [String] = []
    var redactionModes: [String] = []
    var redactedAt: [Int?] = []
    var goneSince: [Int?] = []
    var versionCounts: [Int] = []

    mutating func append(_ state: PostState) {
        postIds.append(state.postId)
        boardIds.append(state.boardId)
        contentHashes.append(state.contentHash)
        redactionModes.append(state.redactionMode)
        redactedAt.append(state.redactedAtMilliseconds)
        goneSince.append(state.goneSinceMilliseconds)
        versionCounts.append(state.versionCount)
    }
}
