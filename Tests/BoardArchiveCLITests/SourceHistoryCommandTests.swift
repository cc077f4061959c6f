import BoardArchive
import FixtureAPI
import Foundation
import Testing

/// Issue 27 end to end, over real HTTP against the fixture API with the real binary: what the source edits or deletes,
/// the archive keeps and says.
@Suite("Versions and deletions, crawled and published")
struct SourceHistoryCommandTests {
    /// `yyyy-MM-dd` of `seconds` (a stored time) in Seoul, as the site shows the day.
    static func seoulDay(_ seconds: String) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Asia/Seoul")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date(timeIntervalSince1970: try #require(Double(seconds))))
    }

    /// Builds the harness's store into `name` with `arguments`; returns the site folder.
    static func build(_ nightly: NightlyHarness, _ name: String, _ arguments: [String] = []) async throws -> URL {
        let out = nightly.folder.appendingPathComponent(name)
        let built = try await CommandRunner.run(["build", "--store", nightly.store, "--out", out.path] + NightlyHarness.clock + arguments)
        #expect(built.status == 0, "stderr: \(built.stderr)")
        return out
    }

    static func page(_ site: URL, _ path: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func anEditAndADeletionDeepInABoardAreKeptMarkedAndPublished() async throws {
        try await NightlyHarness.with { nightly in
            #expect(try await nightly.run().0.status == 0)
            let original = nightly.dataset
            let (changed, edited, deleted) = try NightlyCrawlCommandTests.deepChanges(to: original)
            let before = try #require(original.posts.first { $0.postId == edited })
            await nightly.serve(changed)
            // The rota finds both within four runs (NightlyCrawlCommandTests); the store keeps the text the edit replaced.
            for _ in 1...4 { #expect(try await nightly.run(["--verify-fraction", "1/4"]).0.status == 0) }
            let versions = try nightly.rows("SELECT version, contents, title FROM post_version WHERE postId = \(edited)")
            #expect(versions == [["1", before.contents, before.title]])
            #expect(try nightly.rows("SELECT versionCount FROM post WHERE postId = \(edited)") == [["1"]])
            let lastSeen = try #require(try nightly.rows("SELECT lastSeen FROM post WHERE postId = \(deleted)").first?.first)
            let day = try Self.seoulDay(lastSeen)

            let korean = try await Self.build(nightly, "ko")
            let post = try Self.page(korean, "posts/\(edited).html")
            #expect(post.contains("<dt>수정 확인</dt>") && post.contains("<a href=\"../posts/\(edited)-v1.html\">버전 1</a>"))
            let version = try Self.page(korean, "posts/\(edited)-v1.html")
            #expect(version.contains("<meta name=\"robots\" content=\"noindex"))
            #expect(version.contains("{+</span>") && version.contains("(수정됨: edited deep in the board)"))
            let gone = try Self.page(korean, "posts/\(deleted).html")
            #expect(gone.contains("원본 게시판에서 삭제된 글입니다. 마지막 확인: <time datetime=\"") && gone.contains("\">\(day)</time></p>"))
            let listing = try FileManager.default.subpathsOfDirectory(atPath: korean.appendingPathComponent("boards/\(NightlyHarness.bigBoard)").path)
                .filter { $0.hasSuffix(".html") }.map { try Self.page(korean, "boards/\(NightlyHarness.bigBoard)/\($0)") }
                .first { $0.contains("data-post-id=\"\(deleted)\"") }
            #expect(try #require(listing).contains("<span class=\"source-deleted\">원본에서 삭제됨, 마지막 확인 \(day)</span>"))
            #expect(!(try Self.page(korean, "search.html")).contains("-v1.html"))
            let english = try await Self.build(nightly, "en", ["--lang", "en"])
            #expect(try Self.page(english, "posts/\(deleted).html").contains("Deleted at the source; last seen on <time datetime=\""))
            #expect(try Self.page(english, "posts/\(deleted).html").contains("\">\(day)</time></p>"))
            // Unmarked: the deleted post is published like any other, its page and row without a mark.
            let unmarked = try await Self.build(nightly, "unmarked", ["--deleted-posts", "unmarked"])
            #expect(!(try Self.page(unmarked, "posts/\(deleted).html")).contains("source-deleted"))
            #expect(try Self.page(unmarked, "posts/\(deleted).html") != gone)
            // Left out: its address says the source deleted it, with nothing of the post; no listing shows its row.
            let leftOut = try await Self.build(nightly, "left-out", ["--deleted-posts", "left-out"])
            let tombstone = try Self.page(leftOut, "posts/\(deleted).html")
            let deletedPost = try #require(original.posts.first { $0.postId == deleted })
            #expect(tombstone.contains("이 글은 원본 게시판에서 삭제되어 보관본에 싣지 않습니다.") && !tombstone.contains(deletedPost.title))
            #expect(tombstone.contains("<meta name=\"robots\" content=\"noindex"))
            let boardFolder = leftOut.appendingPathComponent("boards/\(NightlyHarness.bigBoard)")
            let boardPages = try FileManager.default.contentsOfDirectory(atPath: boardFolder.path).filter { $0.hasSuffix(".html") }
            #expect(try boardPages.allSatisfy { !(try Self.page(boardFolder, $0)).contains("data-post-id=\"\(deleted)\"") })
            #expect(try Self.page(leftOut, "posts/\(edited)-v1.html") == version)

            // The post comes back at the source: its mark goes, the edited post's history stays.
            var back = changed
            back.posts.append(try #require(original.posts.first { $0.postId == deleted }))
            await nightly.serve(back)
            #expect(try await nightly.run(["--full"]).0.status == 0)
            let rebuilt = try await Self.build(nightly, "ko")
            #expect(!(try Self.page(rebuilt, "posts/\(deleted).html")).contains("source-deleted"))
            #expect(try Self.page(rebuilt, "posts/\(edited)-v1.html") == version)
            #expect(try nightly.rows("SELECT count(*) FROM post_version") == [["1"]])

            // A takedown with --purge covers history: no byte of either version in the site, the store or its WAL.
            let suffix = "(수정됨: edited deep in the board)"
            try #require(original.posts.count { $0.contents == before.contents } == 1)
            let redacted = try await CommandRunner.run(
                ["redact", "--post", String(edited), "--purge", "--reason", "erasure", "--store", nightly.store])
            #expect(redacted.status == 0, "stderr: \(redacted.stderr)")
            let after = try await Self.build(nightly, "ko")
            #expect(!FileManager.default.fileExists(atPath: after.appendingPathComponent("posts/\(edited)-v1.html").path))
            for path in try FileManager.default.subpathsOfDirectory(atPath: after.path) {
                guard let data = FileManager.default.contents(atPath: after.appendingPathComponent(path).path) else { continue }
                #expect(data.range(of: Data(suffix.utf8)) == nil && data.range(of: Data(before.contents.utf8)) == nil, "\(path)")
            }
            for name in try FileManager.default.contentsOfDirectory(atPath: nightly.folder.path) where name.hasPrefix("archive.sqlite") {
                let data = try Data(contentsOf: nightly.folder.appendingPathComponent(name))
                #expect(data.range(of: Data(suffix.utf8)) == nil && data.range(of: Data(before.contents.utf8)) == nil, "\(name)")
            }
        }
    }

    @Test func aBoardTheSourceNoLongerListsIsMarkedOnItsPageAndTheHomePage() async throws {
        try await NightlyHarness.with { nightly in
            #expect(try await nightly.run().0.status == 0)
            var changed = nightly.dataset
            let board = try #require(changed.boards.first { $0.boardId != NightlyHarness.bigBoard })
            changed.boards.removeAll { $0.boardId == board.boardId }
            changed.posts.removeAll { $0.boardId == board.boardId }
            await nightly.serve(changed)
            #expect(try await nightly.run().0.status == 0)
            let lastSeen = try #require(
                try nightly.rows("SELECT lastSeen FROM board WHERE boardId = \(board.boardId) AND goneSince IS NOT NULL").first?.first)
            let day = try Self.seoulDay(lastSeen)
            let site = try await Self.build(nightly, "boards")
            #expect(try Self.page(site, "boards/\(board.boardId)/index.html").contains("원본에서 삭제된 게시판입니다. 마지막 확인: <time datetime=\""))
            #expect(try Self.page(site, "index.html").contains("<span class=\"source-deleted\">원본에서 삭제됨, 마지막 확인 \(day)</span>"))
            let unmarked = try await Self.build(nightly, "boards-unmarked", ["--deleted-posts", "unmarked"])
            #expect(!(try Self.page(unmarked, "index.html")).contains("source-deleted"))
        }
    }
}
