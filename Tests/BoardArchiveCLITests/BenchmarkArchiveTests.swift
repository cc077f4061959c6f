import BoardArchive
import Foundation
import GRDB
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore
@testable import FixtureAPI

/// The benchmark archive generator (`boardarchive bench-data`): determinism, the promised shape, the stored JSON and
/// hash, and the rebuild mutations.
@Suite struct BenchmarkArchiveTests {
    static let now = Date(timeIntervalSince1970: 1_768_478_400)  // 2026-01-15T12:00:00Z

    /// Every stored post row (all columns), by id.
    static func rows(_ store: ArchiveStore) throws -> [Row] {
        try store.read { db in try Row.fetchAll(db, sql: "SELECT * FROM post ORDER BY postId") }
    }

    static func generated(posts: Int, boards: Int = 8, seed: UInt64 = 7, fixture: URL? = nil) throws -> ArchiveStore {
        let store = try ArchiveStore.inMemory()
        try BenchmarkArchive(posts: posts, boards: boards, seed: seed, now: now).write(to: store, fixture: fixture, batchSize: 500)
        return store
    }

    @Test func sameArgumentsWriteTheSameStoreAndFixture() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try Self.generated(posts: 1_500, fixture: folder.appendingPathComponent("a.json"))
        let second = try Self.generated(posts: 1_500, fixture: folder.appendingPathComponent("b.json"))
        let rows = try Self.rows(first)
        #expect(rows.count == 1_500)
        #expect(rows == (try Self.rows(second)))
        #expect(try first.boards() == second.boards())
        let a = try Data(contentsOf: folder.appendingPathComponent("a.json"))
        #expect(a == (try Data(contentsOf: folder.appendingPathComponent("b.json"))))
        // The batch size decides only how posts are grouped into transactions, not what they are.
        let third = try ArchiveStore.inMemory()
        try BenchmarkArchive(posts: 1_500, boards: 8, seed: 7, now: Self.now).write(to: third, batchSize: 97)
        #expect(rows == (try Self.rows(third)))
    }

    @Test func aDifferentSeedGivesDifferentPosts() {
        let one = BenchmarkArchive(posts: 300, boards: 5, seed: 1, now: Self.now)
        let two = BenchmarkArchive(posts: 300, boards: 5, seed: 2, now: Self.now)
        let differing = (0..<300).filter { one.post(at: $0).contents != two.post(at: $0).contents }.count
        #expect(differing > 290)
        #expect((0..<300).map { one.post(at: $0) } == (0..<300).map { one.post(at: $0) })
    }

    @Test func twentyThousandPostsHaveTheShapeOfARealBoard() throws {
        let archive = BenchmarkArchive(posts: 20_000, boards: 20, seed: 42, now: Self.now)
        let posts = (0..<archive.postCount).map(archive.post(at:))
        let byId = Dictionary(uniqueKeysWithValues: posts.map { ($0.postId, $0) })
        let fraction = { (predicate: (Post) -> Bool) in Double(posts.filter(predicate).count) / Double(posts.count) }

        let sizes = Dictionary(grouping: posts, by: \.boardId).mapValues(\.count)
        #expect(Double(sizes.values.max() ?? 0) / 20_000 > 0.5)
        #expect(sizes.count == 20)
        #expect((0.005...0.015).contains(fraction { $0.postType == .notice }))
        #expect((0.08...0.12).contains(fraction { $0.postType == .reply }))
        #expect((0.035...0.065).contains(fraction { $0.isAnonymous }))

        for reply in posts where reply.postType == .reply {
            let parent = try #require(reply.parentPostId.flatMap { byId[$0] })
            #expect(parent.boardId == reply.boardId && parent.postId < reply.postId && parent.hasReply == true)
            #expect(reply.title.hasPrefix("RE: "))
        }
        #expect(posts.filter { $0.hasReply == true }.allSatisfy { post in posts.contains { $0.parentPostId == post.postId } })

        let lengths = posts.map(\.contents.utf8.count).sorted()
        #expect((400...650).contains(lengths[lengths.count / 2]))
        #expect((lengths.last ?? 0) > 20_000)

        let ages = posts.map { Self.now.timeIntervalSince($0.createdDateTime) }
        #expect(ages.allSatisfy { $0 >= 60 })
        #expect(ages.filter { $0 < 3 * 3_600 }.count >= 20)
        #expect((ages.max() ?? 0) > 4.9 * 365 * 86_400)
        #expect(zip(posts, posts.dropFirst()).allSatisfy { $0.createdDateTime <= $1.createdDateTime && $0.postId < $1.postId })

        let bodies = posts.map(\.contents)
        for marker in ["|---|", "```", "\n- ", "\n1. ", "- [x] ", "](https://", "## ", "**"] {
            #expect(bodies.contains { $0.contains(marker) }, "no body has \(marker)")
        }
        #expect(bodies.contains { $0.contains("서울은") || $0.contains("학교에") })
    }

    @Test func theVocabularyHasThousandsOfZipfDistributedWords() throws {
        #expect(BenchmarkVocabulary.shared.wordCount >= 3_000)
        let archive = BenchmarkArchive(posts: 2_000, boards: 4, seed: 3, now: Self.now)
        var counts: [Substring: Int] = [:]
        for index in 0..<archive.postCount {
            for word in archive.post(at: index).contents.split(whereSeparator: { $0 == " " || $0 == "\n" }) { counts[word, default: 0] += 1 }
        }
        let ranked = counts.values.sorted(by: >)
        #expect(ranked.count >= 3_000)
        // Zipf: the 10th most frequent word is far more frequent than the 1,000th.
        #expect(ranked[9] > 20 * ranked[999])
    }

    @Test func storedJSONIsTheCrawlersJSONAndHash() throws {
        let store = try Self.generated(posts: 400)
        for row in try Self.rows(store) {
            let post = try #require(try store.post(id: row["postId"]))
            let crawled = RawItem(post).json
            #expect(row["raw"] == crawled)
            #expect(row["contentHash"] == ContentHash.hex(of: crawled))
        }
        var odd = BenchmarkArchive(posts: 1, boards: 1, seed: 1, now: Self.now).post(at: 0)
        odd.title = "quote \" back \\ slash / tab \t bell \u{7} nul \u{0} cr \r ff \u{c} bs \u{8} esc \u{1b} 🇰🇷 é \u{2028}"
        odd.boardDisplayName = nil
        odd.writer = Writer(displayName: "a\"b", emailAddress: nil, profileImage: "https://x/y.png")
        odd.hasReply = nil
        odd.isNewPost = nil
        odd.parentPostId = 5
        odd.unknownPostType = "poll"
        #expect(BenchmarkPostJSON.encode(odd) == RawItem(odd).json)
    }

    @Test func theFixtureDatasetServesTheSamePosts() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let store = try Self.generated(posts: 700, fixture: url)
        let dataset = try FixtureDataset.load(contentsOf: url)
        #expect(dataset.referenceDate == Self.now)
        #expect(dataset.boards == (try store.boards()))
        var stored: [Post] = []
        try store.forEachPost { stored.append($0) }
        #expect(dataset.posts.sorted { $0.postId < $1.postId } == stored.sorted { $0.postId < $1.postId })
    }

    @Test func newPostsAreNewerThanAllAndSpreadByBoardSize() throws {
        let store = try Self.generated(posts: 3_000)
        let before = try Self.rows(store)
        let newest = try #require(try store.newestPost())
        let sizes = try store.postCountsByBoard()
        let later = Self.now.addingTimeInterval(86_400)
        let ids = try BenchmarkMutation.new.apply(to: store, count: 300, seed: 9, now: later)
        #expect(ids == Array((newest.postId + 1)...(newest.postId + 300)))
        let added = try ids.map { try #require(try store.post(id: $0)) }
        #expect(added.allSatisfy { $0.createdDateTime > newest.created && $0.createdDateTime <= later })
        let largest = try #require(sizes.max { $0.value < $1.value }?.key)
        #expect(Double(added.filter { $0.boardId == largest }.count) / 300 > 0.4)
        // Existing posts are untouched.
        #expect(Array(try Self.rows(store).prefix(3_000)) == before)
        // The same mutation on the same store picks the same posts.
        let twin = try Self.generated(posts: 3_000)
        try BenchmarkMutation.new.apply(to: twin, count: 300, seed: 9, now: later)
        #expect(try Self.rows(twin) == (try Self.rows(store)))
    }

    @Test func editsChangeTitleBodyAndHashOfExactlyThePostsNamed() throws {
        let store = try Self.generated(posts: 2_000)
        let before = Dictionary(uniqueKeysWithValues: try Self.rows(store).map { ($0["postId"] as Int, $0) })
        let ids = try BenchmarkMutation.edit.apply(to: store, count: 10, seed: 5, now: Self.now.addingTimeInterval(3_600))
        #expect(Set(ids).count == 10)
        for row in try Self.rows(store) {
            let id: Int = row["postId"]
            let old = try #require(before[id])
            if ids.contains(id) {
                #expect(row["title"] != old["title"] as String)
                #expect(row["contents"] != old["contents"] as String)
                #expect(row["contentHash"] != old["contentHash"] as String)
                #expect(row["contentHash"] == ContentHash.hex(of: row["raw"]))
            } else {
                #expect(row == old)
            }
        }
        #expect(try BenchmarkMutation.edit.apply(to: Self.generated(posts: 2_000), count: 10, seed: 5) == ids)
    }

    @Test func gonePostsAreTakenDown() throws {
        let store = try Self.generated(posts: 2_000)
        let ids = try BenchmarkMutation.gone.apply(to: store, count: 10, seed: 5)
        #expect(Set(ids).count == 10)
        #expect(try store.postCount() == 1_990)
        #expect(try store.redactions().map(\.target) == ids.map { String($0) })
        #expect(try store.redactions().allSatisfy { $0.postCount == 1 && $0.mode == .remove })
        #expect(try store.reading.posts(ids: ids).isEmpty)
        #expect(try BenchmarkMutation.gone.apply(to: Self.generated(posts: 2_000), count: 10, seed: 5) == ids)
        #expect(try BenchmarkMutation.gone.apply(to: Self.generated(posts: 2_000), count: 10, seed: 6) != ids)
        #expect(throws: BenchmarkArchiveError.self) { try BenchmarkMutation.gone.apply(to: store, count: 5_000, seed: 1) }
        #expect(throws: BenchmarkArchiveError.self) { try BenchmarkMutation.new.apply(to: ArchiveStore.inMemory(), count: 1, seed: 1) }
    }
}
