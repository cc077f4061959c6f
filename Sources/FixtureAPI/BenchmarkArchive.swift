import BoardArchive
import Foundation

/// A deterministic benchmark archive with the shape of a real board, written straight into an archive store.
///
/// - Boards: the first holds about 55 % of the posts, the others share the rest as 1/k (``BenchmarkPlan``).
/// - Text: titles and Markdown bodies from a Zipf-distributed Korean and English vocabulary of thousands of words
///   (``BenchmarkVocabulary``), bodies of log-normal length, median about 500 bytes, a few past 20 KB (``BenchmarkBody``).
/// - About 1 % notices, 10 % replies (to a recent older post of the same board, whose `hasReply` is set), 5 % anonymous.
/// - Dates over the five years before `now`, denser towards the present; the newest posts are from the last two hours.
/// - Post ids ascend with time from 1000001; boards are 10001… (see ``BenchmarkPostFactory/boards(_:)``).
/// - With `imageShare` above 0, that share of the posts end with one or two generated pictures,
///   `![사진 1](/media/gen/<k>.png)`, about one reference in twenty shared with another post (``GeneratedPictures``).
///
/// The same posts, boards, seed and `now` always give the same store content and the same fixture JSON: each post's text
/// comes from a generator seeded by the seed and the post's index alone, so posts are made on every core at once.
public struct BenchmarkArchive: Sendable {
    /// The default "as of" moment, 2026-01-15T12:00:00Z, so that leaving out `now` stays deterministic.
    public static let defaultNow = Date(timeIntervalSince1970: 1_768_478_400)
    /// The first post's id.
    public static let firstPostId = 1_000_001

    public let boards: [Board]
    public let seed: UInt64
    public let now: Date
    /// The share (0…1) of posts that show generated pictures; 0 (the default) adds none.
    public let imageShare: Double
    let plan: BenchmarkPlan
    let factory: BenchmarkPostFactory

    /// Plans an archive of `posts` posts over `boards` boards (both at least 1 to have any); `imageShare` (clamped to
    /// 0…1) of them show generated pictures.
    public init(posts: Int, boards: Int, seed: UInt64, now: Date = BenchmarkArchive.defaultNow, imageShare: Double = 0) {
        let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
        self.boards = BenchmarkPostFactory.boards(boards)
        self.seed = seed
        self.now = Date(timeIntervalSince1970: TimeInterval(nowSeconds))
        plan = BenchmarkPlan(posts: self.boards.isEmpty ? 0 : max(0, posts), boards: self.boards.count, seed: seed, now: nowSeconds)
        self.imageShare = min(1, max(0, imageShare))
        factory = BenchmarkPostFactory(seed: seed, now: nowSeconds, stream: "post", imageShare: self.imageShare)
    }

    /// The number of posts.
    public var postCount: Int { plan.count }

    /// How many posts are notices, replies and anonymous.
    public var shape: (notices: Int, replies: Int, anonymous: Int) {
        (plan.kind.filter { $0 == .notice }.count, plan.kind.filter { $0 == .reply }.count, plan.anonymous.filter { $0 }.count)
    }

    /// Post `index` (0 is the oldest).
    public func post(at index: Int) -> Post {
        factory.make(skeleton(at: index))
    }

    func skeleton(at index: Int) -> BenchmarkPostFactory.Skeleton {
        let parent = Int(plan.parent[index])
        return BenchmarkPostFactory.Skeleton(
            postId: Self.firstPostId + index, board: boards[Int(plan.board[index])], created: plan.created[index],
            kind: plan.kind[index], anonymous: plan.anonymous[index], hasReply: plan.hasReply[index],
            parent: parent < 0 ? nil : (Self.firstPostId + parent, parent), textKey: index)
    }

    /// Posts `range` with their stored JSON, made on every core.
    func rawPosts(_ range: Range<Int>) -> [RawItem<Post>] {
        let chunk = 256
        let chunks = (range.count + chunk - 1) / chunk
        let results = Results(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { part in
            let start = range.lowerBound + part * chunk
            let items = (start..<min(range.upperBound, start + chunk)).map { factory.makeRaw(skeleton(at: $0)) }
            results.set(part, items)
        }
        return results.joined()
    }

    /// Writes the boards and every post into `store` (batches of `batchSize` posts, one transaction each), and, with
    /// `fixture`, the same boards and posts as a dataset file that `boardarchive fixture-api --data` serves.
    ///
    /// Making the next batch overlaps with storing the current one. Every post is stored as new; `firstSeen` and
    /// `lastSeen` are `now`.
    @discardableResult
    public func write(to store: ArchiveStore, fixture: URL? = nil, batchSize: Int = 8_192) throws -> RecordCounts {
        let fixtureFile = try fixture.map { try BenchmarkFixtureWriter(url: $0, referenceDate: now, boards: boards) }
        try store.recordBulk(boards: boards.map(RawItem.init), posts: [], at: now)
        var counts = RecordCounts()
        let size = max(1, batchSize)
        var next: Range<Int>? = postCount > 0 ? 0..<min(postCount, size) : nil
        var pending = next.map(rawPosts) ?? []
        while let current = next {
            let following = current.upperBound < postCount ? current.upperBound..<min(postCount, current.upperBound + size) : nil
            // Make the following batch on a background thread while this one is stored.
            let made = Results(count: 1)
            let group = DispatchGroup()
            if let following {
                DispatchQueue.global().async(group: group) { made.set(0, rawPosts(following)) }
            }
            let batch = pending
            let stored = try store.recordBulk(posts: batch, at: now)
            counts = RecordCounts(
                new: counts.new + stored.new, changed: counts.changed + stored.changed, unchanged: counts.unchanged + stored.unchanged)
            try fixtureFile?.append(batch)
            group.wait()
            pending = made.joined()
            next = following
        }
        try fixtureFile?.finish()
        return counts
    }
}

/// Batches of posts made on several threads, collected by index.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [[RawItem<Post>]]

    init(count: Int) {
        parts = Array(repeating: [], count: count)
    }

    func set(_ index: Int, _ items: [RawItem<Post>]) {
        lock.lock()
        parts[index] = items
        lock.unlock()
    }

    func joined() -> [RawItem<Post>] {
        lock.lock()
        defer { lock.unlock() }
        return parts.flatMap { $0 }
    }
}
