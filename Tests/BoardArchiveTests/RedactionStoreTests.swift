import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Redactions in the store: what `redact`, `--undo` and `--list` record, what every read then shows, and what a
/// later write (a crawl) of a redacted post stores. Each test runs on both backends (SQLite and PostgreSQL), except
/// the one about the bytes of a SQLite file and its WAL.
@Suite("Redactions in the store")
struct RedactionStoreTests {
    static let when = SiteFixture.date("2024-05-16T00:00:00Z")

    @Test("a redacted post leaves every read of the build, and comes back with --undo", arguments: StoreBackend.allCases)
    func redactAndUndoAPost(backend: StoreBackend) throws {
        let test = try TestStore.holding(backend)
        defer { test.remove() }
        let store = test.database
        let redaction = try store.redact(RedactionRequest(target: .post(301), reason: "asked by the writer"), at: Self.when)
        #expect(redaction.postCount == 1)
        #expect(try store.publishedPost(id: 301) == nil)
        #expect(try store.publishedPosts(inBoard: 3).map(\.postId) == [304, 302, 303])
        #expect(try store.postCount(inBoard: 3) == 3)
        let snapshot = try store.snapshot(pseudonyms: nil)
        #expect(try snapshot.posts(ids: [301, 302]).keys.sorted() == [302])
        // The keys the build streams (covering indexes) keep the removed post's place and show the others.
        let stream = snapshot.listingKeys(ofBoard: 3)
        var keys: [ListingKey] = []
        while let key = try stream.next() { keys.append(key) }
        #expect(keys.count == 4)
        #expect(keys.compactMap(\.removed) == [RemovedPost(postId: 301, boardId: 3, isNotice: false, redactedAt: Self.when)])
        let shown = keys.filter { $0.removedAt == nil }
        #expect(shown.map(\.postId) == [304, 302, 303])
        let rows = try snapshot.listedPosts(ids: shown.map(\.postId))
        #expect(shown.allSatisfy { rows[$0.postId]?.contentHash == $0.contentHash })
        #expect(try snapshot.listingCounts(ofBoard: 3) == ListingCounts(notices: 1, others: 3, removed: 1))
        // Its text stays readable to the build (never published: keyword lists keep its place), until a purge.
        let removed = try snapshot.removedPosts(ids: [301, 302])
        #expect(removed.keys.sorted() == [301])
        #expect(removed[301]?.title == "표가 있는 글")
        #expect(removed[301]?.contents.isEmpty == false)

        let undone = try store.undoRedaction(redaction.id, at: Self.when.addingTimeInterval(60))
        #expect(undone.undoneAt != nil && undone.postCount == 0)
        #expect(try store.publishedPost(id: 301)?.title == "표가 있는 글")
        #expect(try store.snapshot(pseudonyms: nil).listingCounts(ofBoard: 3).removed == 0)
    }

    @Test("a writer matches after normalisation; anonymize keeps the posts and withholds the name", arguments: StoreBackend.allCases)
    func writerRedactions(backend: StoreBackend) throws {
        let test = try TestStore.holding(backend)
        defer { test.remove() }
        let store = test.database
        let anonymized = try store.redact(RedactionRequest(target: .writer("  운영자 "), mode: .anonymize, reason: "left"), at: Self.when)
        #expect(anonymized.postCount == 1)
        let post = try #require(try store.publishedPost(id: 304))
        #expect(post.writer.displayName.isEmpty && post.isAnonymous)
        // Its pages are made again: the key's hash (what the digests read) is the listing's, marked as withheld.
        let reading = try store.snapshot(pseudonyms: nil)
        let key = try #require(try reading.keys(ids: [304])[304])
        let listed = try #require(try reading.listedPosts(ids: [304])[304])
        #expect(key.contentHash == listed.contentHash && key.contentHash.hasSuffix("~anonymized") && key.removedAt == nil)
        let removed = try store.redact(RedactionRequest(target: .writer("홍길동"), reason: "erasure"), at: Self.when)
        #expect(removed.postCount == 64)
        #expect(try store.postCount() == 1)
        #expect(try store.redactions().map(\.id) == [anonymized.id, removed.id])
    }

    @Test("unknown posts, boards, writers and redactions, and a blank reason, are refused with one sentence", arguments: StoreBackend.allCases)
    func refusals(backend: StoreBackend) throws {
        let test = try TestStore.holding(backend)
        defer { test.remove() }
        let store = test.database
        // The errors name the store: ":memory:" on SQLite, the server's URL on PostgreSQL.
        #expect(backend == .sqlite ? store.location == ":memory:" : store.location.hasPrefix("postgres://"))
        let cases: [(RedactionRequest, RedactionError.Reason)] = [
            (RedactionRequest(target: .post(42), reason: "x"), .unknownPost(42)),
            (RedactionRequest(target: .board(77), reason: "x"), .unknownBoard(77)),
            (RedactionRequest(target: .writer("아무도"), reason: "x"), .unknownWriter("아무도")),
            (RedactionRequest(target: .post(301), mode: .anonymize, reason: "x"), .anonymizeNeedsWriter),
            (RedactionRequest(target: .post(301), reason: "  "), .missingReason),
        ]
        for (request, reason) in cases {
            let error = #expect(throws: RedactionError.self) { try store.redact(request, at: Self.when) }
            #expect(error?.reason == reason)
            #expect(error?.localizedDescription.hasSuffix(".") == true)
        }
        #expect(throws: RedactionError(location: store.location, reason: .unknownRedaction(9))) { try store.undoRedaction(9, at: Self.when) }
        let redaction = try store.redact(RedactionRequest(target: .post(301), reason: "x"), at: Self.when)
        try store.undoRedaction(redaction.id, at: Self.when)
        #expect(throws: RedactionError(location: store.location, reason: .alreadyUndone(redaction.id))) {
            try store.undoRedaction(redaction.id, at: Self.when)
        }
        #expect(try store.redactions().count == 1)
    }

    @Test("a redacted post written again (a later crawl) stays redacted; with purge its text is never stored again", arguments: StoreBackend.allCases)
    func laterWritesStayRedacted(backend: StoreBackend) throws {
        let test = try TestStore.holding(backend)
        defer { test.remove() }
        let store = test.database
        let original = try #require(try store.publishedPost(id: 302))
        try store.redact(RedactionRequest(target: .post(302), reason: "x"), at: Self.when)
        try store.record(posts: [original], at: Self.when)
        #expect(try store.publishedPost(id: 302) == nil)
        #expect(try store.rawJSON(ofPost: 302)?.contains("답글입니다") == true)

        try store.redact(RedactionRequest(target: .post(301), purge: true, reason: "erasure"), at: Self.when)
        let parent = try #require(SiteFixture.posts.first { $0.postId == 301 })
        let counts = try store.record(posts: [parent], at: Self.when)
        #expect(counts.unchanged == 1)
        let row = try #require(
            try store.readOnly { db in try db.row("SELECT title, contents, writerName, raw, purged FROM post WHERE postId = ?", [.init(301)]) })
        #expect(row[0] == .text("") && row[1] == .text("") && row[2] == .text(""))
        #expect(row[3] == .text("{}") && row[4] == .integer(2))
        #expect(try store.publishedPost(id: 301) == nil)
        // A purged post keeps no keyword place: the build reads nothing of it to match (302 is removed, not purged).
        #expect(try store.snapshot(pseudonyms: nil).removedPosts(ids: [301, 302]).keys.sorted() == [302])
    }

    // SQLite only: it reads the bytes of the store file, its WAL and shared memory (a PostgreSQL store's files are the
    // server's; the rows a purge leaves on both stores are checked in `laterWritesStayRedacted`).
    @Test("--purge leaves no byte of the post's title, body or writer, in any version, in the store file, its WAL or shared memory")
    func purgeWipesTheFileAndItsWAL() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let secrets = ["숨길 제목 QX7", "숨길 본문 ZK9 한 줄", "Secret Writer"]
        func traces() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted().flatMap { name in
                let bytes = try Data(contentsOf: folder.url.appendingPathComponent(name))
                return secrets.filter { bytes.range(of: Data($0.utf8)) != nil }.map { "\(name): \($0)" }
            }
        }
        let store = try ArchiveStore(path: folder.path("archive.sqlite"))
        try store.record(boards: SiteFixture.boards, at: Self.when)
        try store.record(posts: SiteFixture.posts, at: Self.when)
        var post = SiteFixture.post(
            500, board: 1, title: secrets[0], at: "2024-05-01T00:00:00Z", writer: secrets[2], contents: "첫 줄\n\(secrets[1])")
        try store.record(posts: [post, SiteFixture.post(501, at: "2024-05-02T00:00:00Z", writer: secrets[2])], at: Self.when)
        post.viewCount = 9  // a second version: the first one is left in free pages and WAL frames
        try store.record(posts: [post], at: Self.when)
        // An edit at the source: the text with the secrets is now an earlier version, kept in post_version.
        var edited = post
        edited.title = "바뀐 제목"
        edited.contents = "바뀐 본문"
        try store.record(posts: [edited], at: Self.when)
        #expect(try store.snapshot(pseudonyms: nil).versions(ids: [500])[500]?.earlier.first?.post.title == secrets[0])
        #expect(try traces().count >= 3)
        try store.redact(RedactionRequest(target: .post(500), purge: true, reason: "erasure"), at: Self.when)
        // The writer's other post still names them until the writer is purged too (its redaction keeps only a hash).
        try store.redact(RedactionRequest(target: .writer("secret writer"), purge: true, reason: "erasure"), at: Self.when)
        #expect(try traces() == [])
        #expect(FileManager.default.fileExists(atPath: folder.path("archive.sqlite-wal")))
        #expect(try store.redactions().map(\.target) == ["500", nil])
        // A later crawl serving the post again stores only the stub.
        try store.record(posts: [post], at: Self.when)
        #expect(try traces() == [])
    }
}
