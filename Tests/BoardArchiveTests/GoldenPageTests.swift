import BoardArchive
import Foundation
import Logging
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Golden-file tests: each page kind of the inline archive, byte for byte.
///
/// Golden files live in `Tests/BoardArchiveTests/Golden/`. To re-record after an intended change, run
/// `RECORD_GOLDEN=1 swift test --filter GoldenPageTests`; a recording run always fails so that it is never
/// mistaken for a pass. Then review the diff and commit it. CI never records.
@Suite("Golden pages")
struct GoldenPageTests {
    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden", isDirectory: true)
    static let isRecording = ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1"

    /// The site a golden page comes from.
    enum Site: Sendable {
        /// The inline archive, built with the default settings.
        case inline
        /// The inline archive with post 303 taken down, built with a base URL (feeds with absolute links, a sitemap)
        /// and the keyword 답글.
        case published
        /// The inline archive as the source changed it (issue 27): post 150 edited twice, post 110 and board 2 deleted at the
        /// source.
        case history
    }

    /// Golden file name → generated page, and the site it comes from.
    static let pages: [(golden: String, page: String, site: Site)] = [
        ("home.html", "index.html", .inline),
        ("board-full-page.html", "boards/1/index.html", .inline),
        ("board-last-partial-page.html", "boards/1/page-3.html", .inline),
        ("board-empty.html", "boards/2/index.html", .inline),
        ("post-with-table.html", "posts/301.html", .inline),
        ("post-reply.html", "posts/302.html", .inline),
        ("post-notice.html", "posts/140.html", .inline),
        ("tombstone.html", "posts/303.html", .published),
        ("search.html", "search.html", .published),
        ("keyword-index.html", "keywords/index.html", .published),
        ("keyword-page.html", "keywords/k-eb8bb5eab880.html", .published),
        ("feed-archive.xml", "feed.xml", .published),
        ("feed-board.xml", "boards/3/feed.xml", .published),
        ("sitemap.xml", "sitemap.xml", .published),
        ("board-with-deleted.html", "boards/1/index.html", .history),
        ("post-deleted.html", "posts/110.html", .history),
        ("post-edited.html", "posts/150.html", .history),
        ("version.html", "posts/150-v1.html", .history),
        ("home-with-deleted-board.html", "index.html", .history),
        ("board-deleted.html", "boards/2/index.html", .history),
    ]

    /// The days of ``Site/history``: the archive first crawled three days before the build, then two edits and a deletion.
    static let historyDays = (1...3).map { SiteFixture.now.addingTimeInterval(TimeInterval(-86_400 * $0)) }

    /// The store of ``Site/history``.
    static func historyStore() throws -> ArchiveStore {
        let store = try ArchiveStore.inMemory()
        try store.record(boards: SiteFixture.boards, at: historyDays[2])
        try store.record(posts: SiteFixture.posts, at: historyDays[2])
        var edited = try #require(SiteFixture.posts.first { $0.postId == 150 })
        let deleted = try #require(SiteFixture.posts.first { $0.postId == 110 })
        edited.title += " (고침)"
        edited.contents = "첫 줄은 그대로.\n고친 줄 <b>굵게</b> & 더함.\n\n새 문단."
        try store.record(posts: [edited, deleted], at: historyDays[1])
        edited.contents += "\n마지막 줄."
        try store.record(posts: [edited], at: historyDays[0])
        try store.transact { db in try db.execute("UPDATE post SET goneSince = ? WHERE postId = 110", [.init(historyDays[0])]) }
        try store.transact { db in try db.execute("UPDATE board SET goneSince = ? WHERE boardId = 2", [.init(historyDays[0])]) }
        return store
    }

    /// Builds `site` into a new folder and returns the folder.
    static func build(_ site: Site, name: String) async throws -> URL {
        let output = try SiteFixture.temporaryDirectory("golden-\(name)").appendingPathComponent("site")
        let store = site == .history ? try historyStore() : try SiteFixture.store()
        switch site {
        case .inline, .history:
            try await SiteFixture.build(store, into: output)
        case .published:
            _ = try store.redact(RedactionRequest(target: .post(303), reason: "asked by the writer"), at: SiteFixture.now)
            var configuration = BuildConfiguration(
                outputDirectory: output, templatesDirectory: SiteFixture.templatesDirectory, now: SiteFixture.now, timeZone: SiteFixture.seoul,
                keywords: ["답글"])
            configuration.baseURL = URL(string: "https://archive.example/board/")
            _ = try await SiteBuilder(
                configuration: configuration, store: store, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
            ).build()
        }
        return output
    }

    @Test("every page kind matches its golden file", arguments: pages.map(\.golden))
    func pageMatchesGolden(golden: String) async throws {
        let (page, site) = try #require(Self.pages.first { $0.golden == golden }.map { ($0.page, $0.site) })
        let output = try await Self.build(site, name: golden)
        let actual = try SiteFixture.text(page, in: output)
        let goldenURL = Self.goldenDirectory.appendingPathComponent(golden)
        if Self.isRecording {
            try FileManager.default.createDirectory(at: Self.goldenDirectory, withIntermediateDirectories: true)
            try actual.write(to: goldenURL, atomically: true, encoding: .utf8)
            Issue.record("Recorded \(golden) from \(page); re-run without RECORD_GOLDEN=1 to verify.")
            return
        }
        guard let expected = try? String(contentsOf: goldenURL, encoding: .utf8) else {
            Issue.record("Missing golden file \(golden); record it with RECORD_GOLDEN=1 swift test --filter GoldenPageTests.")
            return
        }
        if actual != expected {
            let actualLines = actual.components(separatedBy: "\n")
            let expectedLines = expected.components(separatedBy: "\n")
            let first = zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }
            let line = first?.offset ?? min(actualLines.count, expectedLines.count)
            Issue.record(
                """
                \(page) differs from Golden/\(golden) at line \(line + 1):
                  expected: \(line < expectedLines.count ? expectedLines[line] : "<end of file>")
                  actual:   \(line < actualLines.count ? actualLines[line] : "<end of file>")
                """)
        }
    }

    @Test("the golden pages show what the issue asks for")
    func goldenContents() throws {
        guard !Self.isRecording else { return }
        func golden(_ name: String) throws -> String {
            try String(contentsOf: Self.goldenDirectory.appendingPathComponent(name), encoding: .utf8)
        }
        let full = try golden("board-full-page.html")
        #expect(full.components(separatedBy: "<tr class=\"post-row").count - 1 == 30)
        // The front page is the current page: its pager links to the archive pages, numbered from the oldest.
        #expect(!full.contains("aria-current=\"page\""))
        #expect(full.contains("<a href=\"page-3.html\" aria-label=\"2쪽\">2</a>"))
        let last = try golden("board-last-partial-page.html")
        #expect(last.components(separatedBy: "<tr class=\"post-row").count - 1 == 1)
        #expect(last.contains("aria-current=\"page\">2</a>"))
        #expect(try golden("board-empty.html").contains("class=\"empty-state\""))
        #expect(try golden("post-with-table.html").contains("<table>"))
        #expect(try golden("post-reply.html").contains("<a href=\"../posts/301.html\">표가 있는 글</a>"))
        #expect(try golden("post-notice.html").contains("class=\"notice-badge\">공지</span>"))
        #expect(full.contains("<td class=\"post-writer\">익명</td>"))
        #expect(full.contains("class=\"attachment-marker\""))
        #expect(full.contains("class=\"new-badge\""))
        // Notices first (newest first), then the others newest first.
        let ids = full.matches(of: #/data-post-id="(\d+)"/#).map { Int($0.output.1) ?? 0 }
        #expect(Array(ids.prefix(4)) == [120, 140, 160, 101])
        // The taken-down post: a tombstone with its date, never its title; out of the sitemap, the keyword page and
        // the feeds (its title holds the keyword 답글).
        let tombstone = try golden("tombstone.html")
        #expect(tombstone.contains("class=\"post tombstone\"") && tombstone.contains("<meta name=\"robots\" content=\"noindex"))
        #expect(!tombstone.contains("원글이 없는 답글"))
        #expect(!(try golden("sitemap.xml")).contains("posts/303.html"))
        #expect(try golden("sitemap.xml").contains("<loc>https://archive.example/board/posts/302.html</loc>"))
        let keyword = try golden("keyword-page.html")
        #expect(keyword.contains("../posts/302.html") && !keyword.contains("posts/303.html"))
        #expect(try golden("keyword-index.html").contains("href=\"k-eb8bb5eab880.html\""))
        for feed in ["feed-archive.xml", "feed-board.xml"] {
            let text = try golden(feed)
            #expect(text.contains("<feed xmlns=\"http://www.w3.org/2005/Atom\"") && !text.contains("posts/303.html"), "\(feed)")
            #expect(text.contains("href=\"https://archive.example/board/posts/302.html\""), "\(feed)")
        }
        #expect(try golden("search.html").contains("id=\"search-form\""))
        // Issue 27: the deleted post says so, with the day it was last seen (Seoul), on its page and in its row.
        let lastSeen = "2024-05-13"
        #expect(try golden("post-deleted.html").contains("원본 게시판에서 삭제된 글입니다. 마지막 확인: <time datetime=\"2024-05-13T03:00:00Z\">\(lastSeen)</time>"))
        #expect(try golden("board-with-deleted.html").contains("<span class=\"source-deleted\">원본에서 삭제됨, 마지막 확인 \(lastSeen)</span>"))
        let edited = try golden("post-edited.html")
        #expect(edited.contains("<dt>수정 확인</dt><dd class=\"post-edited\"><time datetime=\"2024-05-14T03:00:00Z\">2024-05-14</time></dd>"))
        #expect(edited.contains("<a href=\"../posts/150-v1.html\">버전 1</a>") && edited.contains("<a href=\"../posts/150-v2.html\">버전 2</a>"))
        // Version 1 (the original) against version 2: the title's addition and the body's words, marked without colour.
        let version = try golden("version.html")
        #expect(version.contains("<meta name=\"robots\" content=\"noindex"))
        #expect(version.contains("<ins><span class=\"visually-hidden\">추가된 부분: </span><span class=\"diff-mark\" aria-hidden=\"true\">{+</span>"))
        #expect(version.contains("&lt;b&gt;굵게&lt;/b&gt; &amp; 더함"))
        #expect(!(try golden("board-with-deleted.html")).contains("150-v1"))
        // A board the source deleted says so on its page and on the home page, with the day it was last seen.
        #expect(try golden("board-deleted.html").contains("원본에서 삭제된 게시판입니다. 마지막 확인: <time datetime=\"2024-05-12T03:00:00Z\">2024-05-12</time>"))
        #expect(try golden("home-with-deleted-board.html").contains("<span class=\"source-deleted\">원본에서 삭제됨, 마지막 확인 2024-05-12</span>"))
    }
}
