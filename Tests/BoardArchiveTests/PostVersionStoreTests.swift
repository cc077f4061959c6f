import BoardArchive
import Foundation
import GRDB
import Testing

@testable import BoardArchiveModel
@testable import BoardArchiveStore

/// Issue 27, point 1: a crawl that finds a post's text changed keeps the version it replaces, append-only, on SQLite
/// and PostgreSQL alike; counters change in place; a purge wipes every version's text.
@Suite("Post versions in the store")
struct PostVersionStoreTests {
    static let day1 = SiteFixture.date("2024-05-16T00:00:00Z")
    static let day2 = SiteFixture.date("2024-05-17T00:00:00Z")
    static let day3 = SiteFixture.date("2024-05-18T00:00:00Z")
    static let day4 = SiteFixture.date("2024-05-19T00:00:00Z")

    /// The stored earlier versions of `id`: (version, title, contents, writer, raw, firstSeen, lastSeen, purged).
    static func versionRows(_ store: any ArchiveDatabase, _ id: Int) throws -> [[StoredValue]] {
        try store.readOnly { db in
            try db.rows(
                "SELECT version, title, contents, writerName, raw, firstSeen, lastSeen, purged FROM post_version WHERE postId = ? ORDER BY version",
                [.init(id)])
        }
    }

    static func counters(_ store: any ArchiveDatabase, _ id: Int) throws -> [StoredValue] {
        try #require(try store.readOnly { db in try db.row("SELECT versionCount, editedAt, viewCount FROM post WHERE postId = ?", [.init(id)]) })
    }

    @Test("an edit keeps the replaced version with every field and its raw JSON; counters change in place", arguments: StoreBackend.allCases)
    func anEditKeepsTheReplacedVersion(backend: StoreBackend) throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        try store.record(boards: SiteFixture.boards, at: Self.day1)
        var post = SiteFixture.post(900, title: "처음 제목", at: "2024-05-01T00:00:00Z", contents: "처음 본문 first body")
        try store.record(posts: [post], at: Self.day1)
        let firstRaw = try #require(try store.rawJSON(ofPost: 900))
        // Seen again unchanged, then with only its view count changed: no version, the count updated in place.
        try store.record(posts: [post], at: Self.day2)
        post.viewCount = 42
        #expect(try store.record(posts: [post], at: Self.day2).changed == 1)
        #expect(try Self.versionRows(store, 900).isEmpty)
        #expect(try Self.counters(store, 900) == [.integer(0), .null, .integer(42)])
        let rawBeforeEdit = try #require(try store.rawJSON(ofPost: 900))
        #expect(rawBeforeEdit != firstRaw)

        post.title = "고친 제목"
        post.contents = "고친 본문 edited body"
        try store.record(posts: [post], at: Self.day3)
        let rows = try Self.versionRows(store, 900)
        #expect(rows.count == 1)
        #expect(rows.first?[0...4] == [.integer(1), .text("처음 제목"), .text("처음 본문 first body"), .text("홍길동"), .text(rawBeforeEdit)])
        #expect(rows.first?[5].double == Self.day1.timeIntervalSince1970 && rows.first?[6].double == Self.day2.timeIntervalSince1970)
        #expect(try Self.counters(store, 900)[0...1] == [.integer(1), .real(Self.day3.timeIntervalSince1970)])
        #expect(try store.publishedPost(id: 900)?.title == "고친 제목")

        // A second edit: version 2 is the text first seen on day 3.
        post.contents = "세 번째 본문"
        try store.record(posts: [post], at: Self.day4)
        let versions = try #require(try store.snapshot(pseudonyms: nil).versions(ids: [900, 1])[900])
        #expect(versions.earlier.map(\.version) == [1, 2])
        #expect(versions.earlier.map(\.post.contents) == ["처음 본문 first body", "고친 본문 edited body"])
        #expect(versions.earlier.map(\.firstSeen) == [Self.day1, Self.day3])
        #expect(versions.earlier.map(\.lastSeen) == [Self.day2, Self.day3])
        #expect(versions.currentSince == Self.day4)
        #expect(try store.snapshot(pseudonyms: nil).versions(ids: [1]).isEmpty)
        // The keys the build's digests read: numbers, hashes and dates, the hash the version had as current.
        let keys = try #require(try store.snapshot(pseudonyms: nil).versionKeys(ids: [900, 1])[900])
        #expect(keys.earlier.map(\.version) == [1, 2] && keys.currentSince == Self.day4)
        #expect(keys.earlier[0].contentHash == ContentHash.hex(of: rawBeforeEdit))
        #expect(keys.earlier[0].contentHash != keys.earlier[1].contentHash)
        #expect(keys.earlier.map(\.lastSeen) == [Self.day2, Self.day3])
        #expect(try store.snapshot(pseudonyms: nil).listedPosts(ids: [900])[900]?.editedAt == Self.day4)
    }

    @Test("a post that goes and comes back keeps its history; coming back edited adds a version", arguments: StoreBackend.allCases)
    func aPostThatComesBackKeepsItsHistory(backend: StoreBackend) throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        try store.record(boards: SiteFixture.boards, at: Self.day1)
        var post = SiteFixture.post(901, title: "제목", at: "2024-05-01T00:00:00Z", contents: "하나")
        try store.record(posts: [post], at: Self.day1)
        post.contents = "둘"
        try store.record(posts: [post], at: Self.day2)
        try store.transact { db in try db.execute("UPDATE post SET goneSince = ? WHERE postId = ?", [.init(Self.day3), .init(901)]) }
        // While gone, a read says when it was last seen; its key, since when it is gone.
        #expect(try store.snapshot(pseudonyms: nil).listedPosts(ids: [901])[901]?.goneLastSeen == Self.day2)
        #expect(try store.snapshot(pseudonyms: nil).keys(ids: [901])[901]?.goneSince == Self.day3)
        // Back unchanged: the mark goes, the history stays.
        try store.record(posts: [post], at: Self.day3)
        #expect(try store.history(ofPost: 901)?.goneSince == nil)
        #expect(try store.snapshot(pseudonyms: nil).listedPosts(ids: [901])[901]?.goneLastSeen == nil)
        #expect(try Self.versionRows(store, 901).map { $0[2] } == [.text("하나")])
        try store.transact { db in try db.execute("UPDATE post SET goneSince = ? WHERE postId = ?", [.init(Self.day3), .init(901)]) }
        post.contents = "셋"
        try store.record(posts: [post], at: Self.day4)
        #expect(try Self.versionRows(store, 901).map { $0[2] } == [.text("하나"), .text("둘")])
        #expect(try Self.counters(store, 901)[0] == .integer(2))
    }

    @Test(
        "a purge wipes every version's text and raw JSON; removed posts' versions are not read; anonymize reaches versions",
        arguments: StoreBackend.allCases)
    func takedownsCoverVersions(backend: StoreBackend) throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        try store.record(boards: SiteFixture.boards, at: Self.day1)
        var first = SiteFixture.post(902, title: "지울 제목", at: "2024-05-01T00:00:00Z", writer: "작성자 A", contents: "지울 본문")
        var second = SiteFixture.post(903, title: "둘째", at: "2024-05-02T00:00:00Z", writer: "작성자 B", contents: "처음")
        try store.record(posts: [first, second], at: Self.day1)
        first.title = "지울 제목 2"
        second.contents = "나중"
        try store.record(posts: [first, second], at: Self.day2)

        try store.redact(RedactionRequest(target: .writer("작성자 B"), mode: .anonymize, reason: "privacy"), at: Self.day3)
        let anonymized = try #require(try store.snapshot(pseudonyms: nil).versions(ids: [903])[903])
        #expect(anonymized.earlier.map(\.post.writer.displayName) != ["작성자 B"])

        let removal = try store.redact(RedactionRequest(target: .post(902), reason: "takedown"), at: Self.day3)
        #expect(try store.snapshot(pseudonyms: nil).versions(ids: [902]).isEmpty)
        #expect(try Self.versionRows(store, 902).first?[1] == .text("지울 제목"))
        try store.undoRedaction(removal.id, at: Self.day3)
        #expect(try store.snapshot(pseudonyms: nil).versions(ids: [902])[902]?.earlier.first?.post.title == "지울 제목")

        try store.redact(RedactionRequest(target: .post(902), purge: true, reason: "erasure"), at: Self.day4)
        #expect(try Self.versionRows(store, 902).map { Array($0[1...4]) + [$0[7]] } == [[.text(""), .text(""), .text(""), .text("{}"), .integer(2)]])
    }

    // SQLite only: a store written by the boardarchive before versions (schema 5) migrates; its history starts then.
    @Test("a store at schema 5 migrates to versions: existing posts have none, the next edit keeps one")
    func aStoreBeforeVersionsMigrates() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("archive.sqlite")
        do {
            let queue = try DatabaseQueue(path: path)
            try ArchiveStore.migrator.migrate(queue, upTo: "v5-listing-keys")
            try queue.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO post (postId, boardId, title, writerName, contents, createdAt, viewCount, postType, commentsCount,
                            attachmentsCount, isAnonymous, raw, contentHash, firstSeen, lastSeen)
                        VALUES (904, 1, '옛 제목', '홍길동', '옛 본문', 1714521600, 0, 'normal', 0, 0, 0, '{}', 'old', ?, ?)
                        """, arguments: [Self.day1.timeIntervalSince1970, Self.day1.timeIntervalSince1970])
            }
        }
        let store = try ArchiveStore(path: path)
        #expect(try store.schemaVersion() == ArchiveStore.migrator.migrations.count)
        #expect(try Self.counters(store, 904)[0...1] == [.integer(0), .null])
        try store.record(posts: [SiteFixture.post(904, title: "새 제목", at: "2024-05-01T00:00:00Z", contents: "옛 본문")], at: Self.day2)
        #expect(try Self.versionRows(store, 904).map { Array($0[0...2]) } == [[.integer(1), .text("옛 제목"), .text("옛 본문")]])
    }

    @Test("leaving out deleted posts: every read of the build treats them as removed, at the source", arguments: StoreBackend.allCases)
    func leavingOutDeletedPosts(backend: StoreBackend) throws {
        let test = try TestStore.holding(backend)
        defer { test.remove() }
        let store = test.database
        try store.transact { db in try db.execute("UPDATE post SET goneSince = ? WHERE postId = 301", [.init(Self.day2)]) }
        let kept = try store.snapshot(pseudonyms: nil)
        #expect(try kept.listedPosts(ids: [301])[301]?.goneLastSeen != nil)
        #expect(try kept.keys(ids: [301])[301]?.removed == nil)
        let left = try store.snapshot(pseudonyms: nil, rule: Publication(leavesOutGone: true))
        #expect(try left.listedPosts(ids: [301, 302]).keys.sorted() == [302])
        #expect(try left.postsWithBodies(ids: [301]).isEmpty)
        let removed = try #require(try left.keys(ids: [301])[301]?.removed)
        #expect(removed.atSource && removed.redactedAt == Self.day2)
        #expect(try left.removedPostIds() == [301] && left.removedPostCount() == 1)
        #expect(try left.listingCounts(ofBoard: 3).removed == 1 && kept.listingCounts(ofBoard: 3).removed == 0)
        // Its text stays matchable for the keyword places it keeps; a reply to it no longer lists it as a reply.
        #expect(try left.removedPosts(ids: [301]).keys.sorted() == [301])
        #expect(try left.replyKeys(toPostIds: [301])[301]?.map(\.postId) == [302])
        try store.transact { db in try db.execute("UPDATE post SET goneSince = ? WHERE postId = 302", [.init(Self.day2)]) }
        #expect(try store.snapshot(pseudonyms: nil, rule: Publication(leavesOutGone: true)).replyKeys(toPostIds: [301]).isEmpty)
        var streamed: [Int] = []
        let keys = try store.snapshot(pseudonyms: nil, rule: Publication(leavesOutGone: true)).listingKeys(ofBoard: 3)
        while let key = try keys.next() {
            if key.removed != nil { streamed.append(key.postId) }
        }
        #expect(streamed.sorted() == [301, 302])
    }

    @Test(
        "a writer renamed at the source stays under the writer's takedown, in every version; a purge keeps no new version",
        arguments: StoreBackend.allCases)
    func aRenamedWriterStaysTakenDown(backend: StoreBackend) throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        try store.record(boards: SiteFixture.boards, at: Self.day1)
        var post = SiteFixture.post(905, title: "제목", at: "2024-05-01T00:00:00Z", writer: "Alice Kim", contents: "본문")
        try store.record(posts: [post], at: Self.day1)
        try store.redact(RedactionRequest(target: .writer("alice kim"), mode: .anonymize, reason: "left"), at: Self.day1)
        // The source renames the leaving member: the post keeps the redaction, and its earlier version the old name,
        // withheld when read.
        post.writer = Writer(displayName: "탈퇴한 회원")
        try store.record(posts: [post], at: Self.day2)
        #expect(try Self.versionRows(store, 905).map { $0[3] } == [.text("Alice Kim")])
        let snapshot = try store.snapshot(pseudonyms: nil)
        #expect(try snapshot.keys(ids: [905])[905]?.writerWithheld == true)
        #expect(try snapshot.versions(ids: [905])[905]?.earlier.first?.post.writer.displayName != "Alice Kim")
        // A takedown asked after the rename finds the writer by the earlier version, and its purge reaches it.
        try store.redact(RedactionRequest(target: .writer("Alice Kim"), purge: true, reason: "erasure"), at: Self.day3)
        #expect(try Self.versionRows(store, 905).map { $0[3] } == [.text("")])
        // Served again with other text under the purge: no version keeps the stored text.
        post.contents = "바뀐 본문"
        post.writer = Writer(displayName: "Alice Kim")
        try store.record(posts: [post], at: Self.day4)
        #expect(try Self.versionRows(store, 905).count == 1)
        // A changed e-mail address (never published) is no version either.
        var other = SiteFixture.post(906, at: "2024-05-01T00:00:00Z", writer: "Bob")
        try store.record(posts: [other], at: Self.day1)
        other.writer = Writer(displayName: "Bob", emailAddress: "bob@example.com")
        try store.record(posts: [other], at: Self.day2)
        #expect(try Self.versionRows(store, 906).isEmpty)
    }
}
