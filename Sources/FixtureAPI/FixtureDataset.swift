import BoardArchive
import Foundation

/// The boards and posts a ``FixtureServer`` serves.
///
/// File format: `{"referenceDate": "2026-01-15T12:00:00Z", "boards": [Board…], "posts": [Post…]}` in the API's
/// JSON shapes. `referenceDate` is the moment the data was written "as of"; ``shifted(toNow:)`` moves every post by
/// `now - referenceDate`, so posts dated minutes before the reference date become minutes old.
public struct FixtureDataset: Codable, Sendable, Equatable {
    /// The moment the dataset is "as of"; defaults to the newest post's date when a file omits it.
    public var referenceDate: Date
    public var boards: [Board]
    public var posts: [Post]

    public init(referenceDate: Date, boards: [Board], posts: [Post]) {
        self.referenceDate = referenceDate
        self.boards = boards
        self.posts = posts
    }

    enum CodingKeys: String, CodingKey {
        case referenceDate, boards, posts
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        boards = try container.decode([Board].self, forKey: .boards)
        posts = try container.decode([Post].self, forKey: .posts)
        if let text = try container.decodeIfPresent(String.self, forKey: .referenceDate) {
            guard let date = ArchiveDate.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .referenceDate, in: container, debugDescription: "expected yyyy-MM-dd'T'HH:mm:ss'Z', found \"\(text)\"")
            }
            referenceDate = date
        } else {
            referenceDate = posts.map(\.createdDateTime).max() ?? Date(timeIntervalSince1970: 0)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ArchiveDate.format(referenceDate), forKey: .referenceDate)
        try container.encode(boards, forKey: .boards)
        try container.encode(posts, forKey: .posts)
    }

    /// The demo dataset bundled with the FixtureAPI module, with its dates as written (not shifted).
    public static func bundledDemo() throws -> FixtureDataset {
        guard let url = Bundle.module.url(forResource: "demo-dataset", withExtension: "json") else {
            throw FixtureDatasetError(path: "demo-dataset.json", reason: .missingResource)
        }
        return try load(contentsOf: url)
    }

    /// Reads and validates a dataset file; every failure is a ``FixtureDatasetError`` naming the file and the problem.
    public static func load(contentsOf url: URL) throws -> FixtureDataset {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw FixtureDatasetError(path: url.path, reason: .unreadable(error.localizedDescription))
        }
        let dataset: FixtureDataset
        do {
            dataset = try JSONDecoder().decode(FixtureDataset.self, from: data)
        } catch let error as DecodingError {
            throw FixtureDatasetError(path: url.path, reason: .malformed(error.fixtureDescription))
        } catch {
            throw FixtureDatasetError(path: url.path, reason: .malformed(String(describing: error)))
        }
        if let problem = dataset.firstInconsistency() {
            throw FixtureDatasetError(path: url.path, reason: .inconsistent(problem))
        }
        return dataset
    }

    /// Moves every `createdDateTime` (and the reference date) by `now - referenceDate`, keeping whole seconds.
    public func shifted(toNow now: Date) -> FixtureDataset {
        let offset = (now.timeIntervalSince1970 - referenceDate.timeIntervalSince1970).rounded(.down)
        var copy = self
        copy.referenceDate = referenceDate.addingTimeInterval(offset)
        for index in copy.posts.indices {
            copy.posts[index].createdDateTime = copy.posts[index].createdDateTime.addingTimeInterval(offset)
        }
        return copy
    }

    /// The posts of one board in the server's own order: newest first, ties by `postId` descending.
    public func posts(inBoard boardId: Int) -> [Post] {
        posts.filter { $0.boardId == boardId }.sorted(by: Self.serverOrder)
    }

    /// The server's order: `createdDateTime` descending, then `postId` descending. Notices are not forced first.
    static func serverOrder(_ lhs: Post, _ rhs: Post) -> Bool {
        if lhs.createdDateTime != rhs.createdDateTime {
            return lhs.createdDateTime > rhs.createdDateTime
        }
        return lhs.postId > rhs.postId
    }

    /// A description of the first broken invariant (duplicate board or post ids, a post on an unknown board), or `nil`.
    func firstInconsistency() -> String? {
        var boardIds = Set<Int>()
        for board in boards where !boardIds.insert(board.boardId).inserted {
            return "board id \(board.boardId) appears twice"
        }
        var postIds = Set<Int>()
        for post in posts {
            guard postIds.insert(post.postId).inserted else { return "post id \(post.postId) appears twice" }
            guard boardIds.contains(post.boardId) else { return "post \(post.postId) is on board \(post.boardId), which is not listed" }
        }
        return nil
    }
}
