import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore
@testable import FixtureAPI

/// Posts far from the ordinary: several megabytes, one enormous word, thousands of table columns, tens of thousands of
/// list items, a title of combining marks. Each gets its page with its text, its search entries and its highlights.
@Suite("Big and odd posts")
struct BigOddPostTests {
    /// An odd post, and a word of it that search and highlighting must find.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var post: Post
        /// A query word found in the post (in `target`).
        var probe: String
        var target: SearchTarget = .contents
        /// Text the post's page must hold (HTML as rendered).
        var onPage: String

        var testDescription: String { name }
    }

    static let cases: [Case] = {
        var random = SeededRandom(seed: 5)
        var megabytes = ""
        while megabytes.utf8.count < 3_000_000 { megabytes += BenchmarkBody.text(target: 100_000, english: false, &random) + "\n\n" }
        megabytes += "마지막줄표지"
        let word = String(repeating: "ab", count: 50_000) + "zq"
        let columns = (1...3_000).map { "c\($0)" }
        let table =
            "|" + columns.joined(separator: "|") + "|\n|" + String(repeating: "-|", count: columns.count) + "\n|" + columns.joined(separator: "|")
            + "|"
        let items = (1...30_000).map { "- 항목\($0)" }.joined(separator: "\n")
        let marks = String(repeating: "\u{301}\u{302}\u{323}", count: 20_000)
        func post(_ id: Int, title: String, contents: String) -> Post {
            SiteFixture.post(id, title: title, at: "2024-05-0\(id)T00:00:00Z", contents: contents)
        }
        return [
            Case(name: "a body of 3 MB", post: post(1, title: "큰 글", contents: megabytes), probe: "마지막줄표지", onPage: "마지막줄표지"),
            Case(name: "a word of 100,002 characters", post: post(2, title: "긴 낱말", contents: "앞 " + word + " 뒤"), probe: "bzq", onPage: "abzq 뒤"),
            Case(name: "a table of 3,000 columns", post: post(3, title: "넓은 표", contents: table), probe: "c2999", onPage: "|c2999|c3000|"),
            Case(name: "30,000 list items", post: post(4, title: "긴 목록", contents: items), probe: "항목29999", onPage: "<li>항목29999</li>"),
            Case(
                name: "a title and body of combining marks", post: post(5, title: "x" + marks, contents: marks), probe: "\u{301}\u{302}",
                target: .title, onPage: "\u{301}\u{302}\u{323}\u{301}"),
        ]
    }()

    /// Builds the site of every case once, for all the tests of the suite.
    actor SiteCache {
        private var build: Task<URL, any Error>?

        func site() async throws -> URL {
            let build =
                self.build
                ?? Task {
                    let folder = try SiteFixture.temporaryDirectory("big-odd-posts")
                    let store = try SiteFixture.store(boards: [Board(boardId: 1, displayName: "큰 글", orderNo: 1)], posts: cases.map(\.post))
                    try await SiteFixture.build(store, into: folder)
                    return folder
                }
            self.build = build
            return try await build.value
        }
    }

    static let cache = SiteCache()

    @Test("every big or odd post gets its page with its text", arguments: cases)
    func page(of oddCase: Case) async throws {
        let page = try SiteFixture.text(SitePaths.post(oddCase.post.postId), in: try await Self.cache.site())
        // Compared as code points: `String.contains` compares characters, and the marks are one character with their base.
        #expect(TextNormalizer.scalarsContain(page, oddCase.onPage))
        // Its title too, whole, in the page's heading.
        let heading = try #require(page.range(of: "<h1"), "no heading")
        let title = String(page[heading.lowerBound...].prefix { $0 != "\n" })
        #expect(TextNormalizer.scalarsContain(title, oddCase.post.title), "the heading holds the whole title")
    }

    @Test("every big or odd post is found by its title, and the marks also by its body", arguments: cases)
    func titleAndBodyEntries(of oddCase: Case) async throws {
        let site = try await Self.cache.site()
        let reader = try SearchIndexReader(load: { try? Data(contentsOf: site.appendingPathComponent($0)) })
        let byTitle = oddCase.target == .title ? "x" : oddCase.post.title
        #expect(try reader.search(byTitle, target: .title).hits.map { try reader.postId(of: $0) } == [oddCase.post.postId])
        if oddCase.target == .title {
            #expect(try reader.search(oddCase.probe, target: .contents).hits.map { try reader.postId(of: $0) } == [oddCase.post.postId])
        }
    }

    @Test("every big or odd post is found by search", arguments: cases)
    func searchEntries(of oddCase: Case) async throws {
        let site = try await Self.cache.site()
        let reader = try SearchIndexReader(load: { try? Data(contentsOf: site.appendingPathComponent($0)) })
        let hits = try reader.search(oddCase.probe, target: oddCase.target).hits
        #expect(try hits.map { try reader.postId(of: $0) } == [oddCase.post.postId])
    }

    @Test("every big or odd post's text is highlighted where the query occurs", arguments: cases)
    func highlights(of oddCase: Case) throws {
        let text = oddCase.target == .title ? oddCase.post.title : oddCase.post.contents
        let highlighter = TextHighlighter(query: oddCase.probe)
        let snippet = try #require(highlighter.snippet(of: text))
        #expect(snippet.contains { $0.marked })
        let parts = highlighter.parts(of: text)
        #expect(parts.map(\.text).joined() == text, "the parts keep every character")
        #expect(
            parts.contains { $0.marked && TextNormalizer.scalarsContain(TextNormalizer.normalize($0.text), TextNormalizer.normalize(oddCase.probe)) })
    }
}
