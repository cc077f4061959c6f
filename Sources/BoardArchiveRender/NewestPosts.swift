import BoardArchiveStore
import Foundation

/// The newest posts of a stream, kept in bounded memory: what a feed shows.
///
/// Newest means the latest `createdDateTime`, ties broken by the higher `postId`, so the choice never depends on
/// the order the posts arrive in.
package struct NewestPosts<Item: FeedOrdered>: Sendable, Equatable {
    /// How many posts a feed holds.
    static var feedLength: Int { 50 }

    /// How many posts to keep.
    let limit: Int
    private var candidates: [Item] = []
    /// The oldest kept post once `limit` are kept: an older post can never enter.
    private var floor: Item?

    /// An empty selection of at most `limit` posts.
    package init(limit: Int = Self.feedLength) {
        self.limit = limit
    }

    /// Offers a post; memory stays within a few times `limit`.
    package mutating func offer(_ post: Item) {
        guard limit > 0 else { return }
        if let floor, !Self.isNewer(post, floor) { return }
        candidates.append(post)
        if candidates.count >= limit * 4 { trim() }
    }

    /// The kept posts, newest first.
    package var posts: [Item] {
        var copy = self
        copy.trim()
        return copy.candidates
    }

    private mutating func trim() {
        candidates.sort(by: Self.isNewer)
        if candidates.count > limit { candidates.removeLast(candidates.count - limit) }
        if candidates.count == limit { floor = candidates.last }
    }

    /// Whether `a` comes before `b` in a feed.
    static func isNewer(_ a: Item, _ b: Item) -> Bool {
        let left = a.feedDate
        let right = b.feedDate
        return left != right ? left > right : a.feedId > b.feedId
    }
}

/// What a feed orders posts by: creation time, then id.
package protocol FeedOrdered: Sendable, Equatable {
    var feedDate: Date { get }
    var feedId: Int { get }
}

extension ListedPost: FeedOrdered {
    package var feedDate: Date { post.createdDateTime }
    package var feedId: Int { post.postId }
}

extension ListingKey: FeedOrdered {
    package var feedDate: Date { created }
    package var feedId: Int { postId }
}
