import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The store seam the build reads through: a snapshot sees one committed state whatever is written meanwhile, and
/// its key streams, read a page at a time, give exactly the listing orders.
@Suite("Archive snapshots")
struct ArchiveSnapshotTests {
    /// 2,600 posts over two boards (more than one page of keys each), a tenth of them notices, in groups of 40 sharing a
    /// second (about 20 per board), so that the pages of every listing end inside a tie (checked below); ids do not
    /// follow time.
    static let posts: [Post] = (1...2_600).map { id in
        var post = SiteFixture.post(id, board: id % 2 + 1, at: "2024-05-01T00:00:00Z", type: id % 10 == 0 ? .notice : .normal)
        post.createdDateTime = SiteFixture.date("2024-05-01T00:00:00Z").addingTimeInterval(TimeInterval(((id * 37) % 2_600) / 40 * 60))
        return post
    }

    /// Whether the keys at `index` and `index + 1` of `ids` share their creation time: a page boundary inside a tie.
    static func tie(at index: Int, in ids: [Int]) -> Bool {
        let byId = Dictionary(uniqueKeysWithValues: posts.map { ($0.postId, $0.createdDateTime) })
        return byId[ids[index]] == byId[ids[index + 1]]
    }

    static func drain(_ stream: KeyStream) throws -> [Int] {
        var ids: [Int] = []
        while let key = try stream.next() { ids.append(key.postId) }
        return ids
    }

    /// A file store (a real WAL pool) holding `posts`.
    static func fileStore() throws -> ArchiveStore {
        let folder = try SiteFixture.temporaryDirectory("snapshot")
        let store = try ArchiveStore(path: folder.appendingPathComponent("archive.sqlite").path)
        try store.record(boards: SiteFixture.boards, at: SiteFixture.now)
        try store.record(posts: posts, at: SiteFixture.now)
        return store
    }

    @Test func keyStreamsGiveTheListingOrdersAcrossPages() throws {
        let snapshot = try Self.fileStore().snapshot()
        func boardOrder(_ a: Post, _ b: Post) -> Bool {
            let notice = (a.postType == .notice, b.postType == .notice)
            if notice.0 != notice.1 { return notice.0 }
            if a.createdDateTime != b.createdDateTime { return a.createdDateTime > b.createdDateTime }
            return a.postId > b.postId
        }
        for board in [1, 2] {
            let expected = Self.posts.filter { $0.boardId == board }.sorted(by: boardOrder).map(\.postId)
            #expect(expected.count == 1_300)
            #expect(try Self.drain(snapshot.listingKeys(ofBoard: board)) == expected, "board \(board)")
            #expect(Self.tie(at: KeyStream.pageSize - 1, in: expected), "board \(board): its first page ends inside a tie")
        }
        let chronological = Self.posts.sorted { a, b in
            let notice = (a.postType == .notice, b.postType == .notice)
            if notice.0 != notice.1 { return notice.0 }
            if a.createdDateTime != b.createdDateTime { return a.createdDateTime < b.createdDateTime }
            return a.postId < b.postId
        }
        #expect(try Self.drain(snapshot.keysChronologically()) == chronological.map(\.postId))
        #expect(
            Self.tie(at: KeyStream.pageSize - 1, in: chronological.map(\.postId))
                && Self.tie(at: 2 * KeyStream.pageSize - 1, in: chronological.map(\.postId)))
        var states: [Int] = []
        let stream = snapshot.postStates()
        while let state = try stream.next() { states.append(state.postId) }
        #expect(states == Array(1...2_600))
    }

    @Test func aSnapshotSeesOneStateWhateverIsWrittenMeanwhile() throws {
        let store = try Self.fileStore()
        let snapshot = try store.snapshot()
        let keys = snapshot.listingKeys(ofBoard: 1)
        let first = try #require(try keys.next())
        // A crawl commits while the build streams: a new post, an edit, a board.
        var added = SiteFixture.post(9_001, board: 1, at: "2030-01-01T00:00:00Z")
        added.title = "새 글"
        var edited = Self.posts[1]
        edited.title = "고친 제목"
        try store.record(posts: [added, edited], at: SiteFixture.now.addingTimeInterval(60))
        try store.record(boards: SiteFixture.boards + [Board(boardId: 77, displayName: "새 게시판", orderNo: 99)], at: SiteFixture.now)
        var streamed = [first.postId]
        while let key = try keys.next() { streamed.append(key.postId) }
        #expect(streamed.count == 1_300 && !streamed.contains(9_001), "the stream continues in the state it started in")
        #expect(try snapshot.listedPosts(ids: [9_001, edited.postId])[edited.postId]?.post.title == Self.posts[1].title)
        #expect(try snapshot.listedPosts(ids: [9_001]).isEmpty)
        #expect(try snapshot.boards().count == SiteFixture.boards.count)
        #expect(try snapshot.postCountsByBoard()[1] == 1_300)
        // A new snapshot sees the commit.
        let later = try store.snapshot()
        #expect(try later.postCountsByBoard()[1] == 1_301)
        let relisted = try Self.drain(later.listingKeys(ofBoard: 1))
        let notices = Self.posts.count { $0.boardId == 1 && $0.postType == .notice }
        #expect(relisted.count == 1_301 && relisted.firstIndex(of: 9_001) == notices, "the newest post, after the board's \(notices) notices")
        #expect(try later.boards().count == SiteFixture.boards.count + 1)
    }

    @Test func aPostgreSQLSnapshotReadsWhatTheSQLiteSnapshotReads() throws {
        guard let server = PostgresTestServer.current() else { return }
        let store = try Self.fileStore()
        try server.withFreshDatabase { connector in
            let archive = try PostgresArchive.open(connector, creating: true)
            defer { archive.close() }
            _ = try ArchiveCopy.run(from: .sqlite(store), to: .postgres(archive), resume: false)
            let (lite, pg) = (try store.snapshot(), try archive.snapshot(pseudonyms: nil))
            for board in [1, 2, 3] { #expect(try Self.drain(pg.listingKeys(ofBoard: board)) == Self.drain(lite.listingKeys(ofBoard: board))) }
            #expect(try Self.drain(pg.keysChronologically()) == Self.drain(lite.keysChronologically()))
            let ids = Array(stride(from: 1, through: 2_600, by: 7)) + [9_999]
            #expect(try pg.keys(ids: ids) == lite.keys(ids: ids))
            #expect(try pg.replyKeys(toPostIds: ids) == lite.replyKeys(toPostIds: ids))
            #expect(try pg.listedPosts(ids: ids) == lite.listedPosts(ids: ids))
            #expect(try pg.postsWithBodies(ids: ids) == lite.postsWithBodies(ids: ids))
            #expect(try pg.boards() == lite.boards())
            #expect(try pg.postCountsByBoard() == lite.postCountsByBoard())
            #expect(try pg.listingCounts(ofBoard: 1) == lite.listingCounts(ofBoard: 1))
            let (a, b) = (pg.postStates(), lite.postStates())
            var count = 0
            while let state = try a.next() {
                let other = try b.next()
                #expect(state == other)
                count += 1
            }
            let rest = try b.next()
            #expect(count == 2_600 && rest == nil)
        }
    }
}
