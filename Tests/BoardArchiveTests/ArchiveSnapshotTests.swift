import Foundation
import Testing

@testable import BoardArchive

/// The store seam the build reads through: a snapshot sees one committed state whatever is written meanwhile, and
/// its key streams, read a page at a time, give exactly the listing orders.
@Suite("Archive snapshots")
struct ArchiveSnapshotTests {
    /// 2,600 posts over two boards (more than two pages of keys each), many sharing a second, a tenth of them notices.
    static let posts: [Post] = (1...2_600).map { id in
        var post = SiteFixture.post(id, board: id % 2 + 1, at: "2024-05-01T00:00:00Z", type: id % 10 == 0 ? .notice : .normal)
        // Ties: runs of 7 posts share a creation second, and ids do not follow time.
        post.createdDateTime = SiteFixture.date("2024-05-01T00:00:00Z").addingTimeInterval(TimeInterval(((id * 37) % 2_600) / 7 * 60))
        return post
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
        }
        let chronological = Self.posts.sorted { a, b in
            let notice = (a.postType == .notice, b.postType == .notice)
            if notice.0 != notice.1 { return notice.0 }
            if a.createdDateTime != b.createdDateTime { return a.createdDateTime < b.createdDateTime }
            return a.postId < b.postId
        }
        #expect(try Self.drain(snapshot.keysChronologically()) == chronological.map(\.postId))
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
}
