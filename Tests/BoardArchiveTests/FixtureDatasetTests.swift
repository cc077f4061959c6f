import BoardArchive
import FixtureAPI
import Foundation
import Testing

/// The bundled demo dataset's invariants, date shifting, file loading and the generator.
@Suite("Fixture dataset")
struct FixtureDatasetTests {
    @Test func demoHasTheBoardsTheDemoNeeds() throws {
        let demo = try FixtureDataset.bundledDemo()
        let counts = demo.boards.map { board in demo.posts.filter { $0.boardId == board.boardId }.count }
        #expect(demo.boards.count >= 5)
        #expect(counts.contains(0))
        #expect(counts.contains { $0 > 100 })
        #expect(counts.contains(31))
        #expect(Set(demo.boards.map(\.boardId)).count == demo.boards.count)
        #expect(demo.referenceDate == ArchiveDate.parse("2026-01-15T12:00:00Z"))
    }

    @Test func demoIdsAreUniqueAndRepliesPointAtOlderPostsOnTheSameBoard() throws {
        let demo = try FixtureDataset.bundledDemo()
        let byId = Dictionary(demo.posts.map { ($0.postId, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byId.count == demo.posts.count)
        let boardIds = Set(demo.boards.map(\.boardId))
        #expect(demo.posts.allSatisfy { boardIds.contains($0.boardId) })
        let replies = demo.posts.filter { $0.postType == .reply }
        #expect(replies.count >= 5)
        for reply in replies {
            let parent = try #require(reply.parentPostId.flatMap { byId[$0] }, "reply \(reply.postId) has no parent")
            #expect(parent.boardId == reply.boardId)
            #expect(parent.createdDateTime < reply.createdDateTime)
            #expect(parent.hasReply == true)
        }
        #expect(demo.posts.filter { $0.postType != .reply }.allSatisfy { $0.parentPostId == nil })
    }

    @Test func demoCoversTheFeaturesTheSiteShows() throws {
        let demo = try FixtureDataset.bundledDemo()
        #expect(demo.posts.contains { $0.postType == .notice })
        #expect(demo.posts.contains { $0.isAnonymous })
        #expect(demo.posts.contains { $0.attachmentsCount > 0 })
        #expect(demo.posts.contains { $0.commentsCount > 0 })
        #expect(demo.posts.contains { $0.contents.isEmpty })
        let bodies = demo.posts.map(\.contents)
        for markdown in ["|---|", "- [ ]", "- [x]", "```swift", "~~", "](https://", "1. "] {
            #expect(bodies.contains { $0.contains(markdown) }, "no body with \(markdown)")
        }
        let text = demo.posts.map { $0.title + "\n" + $0.contents }
        for word in ["서울은", "서울시청", "서울에서", "학교에"] {
            #expect(text.contains { $0.contains(word) }, "no post with \(word)")
        }
        let newest = try #require(demo.posts.map(\.createdDateTime).max())
        let oldest = try #require(demo.posts.map(\.createdDateTime).min())
        #expect(demo.referenceDate.timeIntervalSince(newest) < 600)
        #expect(demo.posts.filter { demo.referenceDate.timeIntervalSince($0.createdDateTime) < 6 * 3_600 }.count >= 5)
        #expect(demo.referenceDate.timeIntervalSince(oldest) > 90 * 86_400)
    }

    @Test func demoCarriesHostileContentForTheRenderer() throws {
        let demo = try FixtureDataset.bundledDemo()
        #expect(demo.posts.contains { $0.title == "<img src=x onerror=alert(1)>" })
        for payload in [
            "<script>alert(1)</script>", "<a href=\"javascript:alert(1)\">x</a>", "[click](javascript:alert(1))", "<img src=x onerror=alert(2)>",
        ] {
            #expect(demo.posts.contains { $0.contents.contains(payload) }, "no body with \(payload)")
        }
        #expect(demo.posts.contains { $0.writer.displayName.contains("<b>") })
    }

    @Test func shiftingPutsTheNewestPostWithinAnHourBeforeNow() throws {
        let demo = try FixtureDataset.bundledDemo()
        let now = try #require(ArchiveDate.parse("2031-07-04T08:30:15Z"))
        let shifted = demo.shifted(toNow: now)
        let newest = try #require(shifted.posts.map(\.createdDateTime).max())
        #expect(newest <= now)
        #expect(now.timeIntervalSince(newest) < 3_600)
        #expect(shifted.referenceDate == now)
        let gap = try #require(demo.posts.first).createdDateTime.distance(to: try #require(shifted.posts.first).createdDateTime)
        #expect(gap == demo.referenceDate.distance(to: now))
        #expect(zip(demo.posts, shifted.posts).allSatisfy { $0.postId == $1.postId && $0.title == $1.title })
    }

    @Test func aDatasetSurvivesAFileRoundTrip() throws {
        let folder = try FixtureTemporaryFolder()
        defer { folder.remove() }
        let demo = try FixtureDataset.bundledDemo()
        let file = folder.url.appendingPathComponent("copy.json")
        try JSONEncoder().encode(demo).write(to: file)
        #expect(try FixtureDataset.load(contentsOf: file) == demo)
    }

    @Test(arguments: [
        ("{\"boards\": [], \"posts\": 3}", "posts"),
        ("{\"referenceDate\": \"2026-01-15 12:00\", \"boards\": [], \"posts\": []}", "referenceDate"),
        (
            #"{"boards": [{"boardId": 1, "displayName": "a", "orderNo": 1}], "posts": [{"postId": 5, "title": "t", "boardId": 1, "writer": {"displayName": "w"}, "createdDateTime": "2026-01-15T12:00:00.000Z"}]}"#,
            "posts[0].createdDateTime"
        ),
        (
            #"{"boards": [{"boardId": 1, "displayName": "a", "orderNo": 1}], "posts": [{"postId": 5, "title": "t", "boardId": 2, "writer": {"displayName": "w"}, "createdDateTime": "2026-01-15T12:00:00Z"}]}"#,
            "board 2"
        ),
        (
            #"{"boards": [{"boardId": 1, "displayName": "a", "orderNo": 1}], "posts": [{"postId": 5, "title": "t", "boardId": 1, "writer": {"displayName": "w"}, "createdDateTime": "2026-01-15T12:00:00Z"}, {"postId": 5, "title": "u", "boardId": 1, "writer": {"displayName": "w"}, "createdDateTime": "2026-01-15T12:00:00Z"}]}"#,
            "post id 5 appears twice"
        ),
        ("not json", "bad.json"),
    ])
    func loadingABadFileNamesTheFileAndTheProblem(json: String, expected: String) throws {
        let folder = try FixtureTemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("bad.json")
        try Data(json.utf8).write(to: file)
        let error = try #require(throws: FixtureDatasetError.self) { try FixtureDataset.load(contentsOf: file) }
        let message = try #require(error.errorDescription)
        #expect(message.contains(file.path))
        #expect(message.contains(expected), "\(message)")
    }

    @Test func loadingAMissingFileIsUnreadable() throws {
        let file = URL(fileURLWithPath: "/nonexistent/boardarchive/data.json")
        let error = try #require(throws: FixtureDatasetError.self) { try FixtureDataset.load(contentsOf: file) }
        guard case .unreadable = error.reason else {
            Issue.record("expected .unreadable, got \(error.reason)")
            return
        }
        #expect(error.path == file.path)
    }

    @Test func generatedIsDeterministicForASeed() throws {
        let now = try #require(ArchiveDate.parse("2026-03-01T00:00:00Z"))
        let first = FixtureDataset.generated(boards: 3, postsPerBoard: 200, seed: 42, now: now)
        let second = FixtureDataset.generated(boards: 3, postsPerBoard: 200, seed: 42, now: now)
        let other = FixtureDataset.generated(boards: 3, postsPerBoard: 200, seed: 43, now: now)
        #expect(first == second)
        #expect(first != other)
        #expect(first.boards.count == 3 && first.posts.count == 600)
    }

    @Test func generatedKeepsTheDatasetInvariants() throws {
        let now = try #require(ArchiveDate.parse("2026-03-01T00:00:00Z"))
        let data = FixtureDataset.generated(boards: 4, postsPerBoard: 500, seed: 7, now: now)
        let byId = Dictionary(data.posts.map { ($0.postId, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byId.count == 2_000)
        for type in PostType.allCases {
            #expect(data.posts.contains { $0.postType == type }, "no \(type) post")
        }
        #expect(data.posts.contains { $0.isAnonymous })
        #expect(data.posts.contains { $0.title.contains("서울") })
        #expect(data.posts.contains { $0.title.unicodeScalars.allSatisfy(\.isASCII) == false && $0.title.contains { $0.isASCII && $0.isLetter } })
        for reply in data.posts where reply.postType == .reply {
            let parent = try #require(reply.parentPostId.flatMap { byId[$0] })
            #expect(parent.boardId == reply.boardId && parent.createdDateTime < reply.createdDateTime && parent.hasReply == true)
        }
        for board in data.boards {
            let newest = try #require(data.posts(inBoard: board.boardId).first)
            #expect(newest.createdDateTime <= now && now.timeIntervalSince(newest.createdDateTime) <= 1_800)
        }
        #expect(data.posts.allSatisfy { ArchiveDate.parse(ArchiveDate.format($0.createdDateTime)) == $0.createdDateTime })
    }

    @Test func generatedScalesToAHundredThousandPosts() throws {
        let data = FixtureDataset.generated(boards: 10, postsPerBoard: 10_000, seed: 1, now: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(data.posts.count == 100_000)
        #expect(Set(data.posts.map(\.postId)).count == 100_000)
    }
}

/// A fresh temporary folder for dataset files; call `remove()` when done.
private struct FixtureTemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("fixture-dataset-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    @Test func newPostsGoAboveTheNewestPostOfEachBoardInTurn() throws {
        let demo = try FixtureDataset.bundledDemo()
        let grown = demo.addingNewPosts(8)
        #expect(grown.posts.count == demo.posts.count + 8)
        #expect(grown.addingNewPosts(0).posts.count == grown.posts.count)
        let maxId = demo.posts.map(\.postId).max() ?? 0
        let added = grown.posts.filter { $0.postId > maxId }
        #expect(added.map(\.postId) == Array(maxId + 1...maxId + 8))
        // Dealt to the 6 boards in turn: the first two boards get two posts, the others one.
        #expect(added.map(\.boardId) == demo.boards.map(\.boardId) + demo.boards.prefix(2).map(\.boardId))
        for board in demo.boards {
            let count = added.filter { $0.boardId == board.boardId }.count
            // The new posts are the newest of their board, in the server's order.
            #expect(
                Set(grown.posts(inBoard: board.boardId).prefix(count).map(\.postId))
                    == Set(added.filter { $0.boardId == board.boardId }.map(\.postId)))
        }
        #expect(demo.addingNewPosts(3).posts == demo.addingNewPosts(3).posts)
    }
}
