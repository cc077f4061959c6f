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
@testable import FixtureAPI

/// Posts shaped after the inputs cmark-gfm 0.29.0.gfm.6 parses in super-linear time: each is rendered as plain text
/// with every character kept, and the build names it in one warning. (Their times are benchmark figures:
/// Benchmarks/hostile/run.sh.)
@Suite("Hostile Markdown: bounded rendering")
struct HostileMarkdownTests {
    @Test("a super-linear shape of about 1 MB is rendered as plain text keeping every character", arguments: HostileMarkdown.superLinear)
    func superLinearShapeBecomesPlainText(shape: HostileMarkdown.Shape) throws {
        let body = shape.body(bytes: 1_000_000)
        let rendered = MarkdownRenderer().renderBody(body)
        let reason = try #require(rendered.plainTextBecause, "\(shape.name) would reach cmark-gfm")
        #expect(rendered.html.hasPrefix(PlainTextBody.open), "\(reason)")
        #expect(HostileMarkdown.plainText(ofHTML: rendered.html) == HostileMarkdown.keptText(of: body))
    }

    @Test("ordinary posts stay Markdown: the demo dataset, the inline archive and generated benchmark bodies")
    func ordinaryPostsStayMarkdown() throws {
        let budget = MarkdownBudget()
        let demo = try FixtureDataset.bundledDemo().posts
        for post in demo + SiteFixture.posts {
            #expect(budget.excess(of: post.contents) == nil, "post \(post.postId)")
        }
        let archive = BenchmarkArchive(posts: 2_000, boards: 4, seed: 7)
        for index in 0..<archive.postCount {
            let post = archive.post(at: index)
            #expect(budget.excess(of: post.contents) == nil, "generated post \(post.postId)")
        }
        // The generator's longest bodies (its log-normal tail stops at 150 KB), Korean and English.
        var random = SeededRandom(seed: 11)
        for target in [20_000, 60_000, BenchmarkBody.maximumTarget] {
            for english in [false, true] {
                let body = BenchmarkBody.text(target: target, english: english, &random)
                #expect(budget.excess(of: body) == nil, "a generated body of \(body.utf8.count) bytes")
            }
        }
    }

    @Test(
        "the pre-scan's reasons",
        arguments: [
            ("> > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > a", "nest"),
            ("|" + String(repeating: "a|", count: 200) + "\n|" + String(repeating: "-|", count: 200), "columns"),
            (String(repeating: "<?", count: 50_000), "steps"),
        ])
    func reasons(body: String, phrase: String) throws {
        let excess = try #require(MarkdownBudget().excess(of: body))
        #expect(excess.description.contains(phrase), "\(excess)")
    }

    @Test(
        "Markdown within the budget renders as before",
        arguments: ["**bold** [a](https://e.com/) <?php ?>", "| a |\n|---|\n| b |", "- a\n  - b\n    > c"])
    func withinBudgetRendersAsMarkdown(body: String) {
        let rendered = MarkdownRenderer().renderBody(body)
        #expect(rendered.plainTextBecause == nil)
        #expect(rendered.html == MarkdownRenderer().renderMarkdown(body))
    }

    @Test("plain text escapes markup and keeps blank lines, CR LF and NUL as cmark would")
    func plainTextEscapes() {
        let html = PlainTextBody.html("<b>a</b> & \"q\" 'x'\r\n\r\nnext\u{0}\rlast")
        #expect(html == "<p class=\"plain-text\">&lt;b&gt;a&lt;/b&gt; &amp; &quot;q&quot; &#39;x&#39;<br />\n<br />\nnext\u{FFFD}<br />\nlast</p>\n")
    }

    @Test("a feed entry carries a body over 256 KiB as plain text; its page keeps the Markdown")
    func feedEntriesOfLongBodiesArePlainText() async throws {
        let long = String(repeating: "**굵게** 그리고 보통 글자\n", count: 12_000)
        let store = try SiteFixture.store(posts: [SiteFixture.post(1, at: "2024-05-01T00:00:00Z", contents: long)])
        let site = try SiteFixture.temporaryDirectory()
        try await SiteFixture.build(store, into: site)
        #expect(try SiteFixture.text("posts/1.html", in: site).contains("<strong>굵게</strong>"))
        let feed = try SiteFixture.text("feed.xml", in: site)
        #expect(feed.contains(AtomFeed.escape(PlainTextBody.open + "**굵게** 그리고 보통 글자<br />")))
        #expect(!feed.contains(AtomFeed.escape("<strong>")))
    }

    @Test("every super-linear shape, built as a post, gets a page that keeps every character of it")
    func everyShapeKeepsEveryCharacterOnItsPage() async throws {
        let budget = MarkdownBudget()
        // Each shape at the smallest of these sizes that the pre-scan refuses (its page is then plain text).
        let bodies = try HostileMarkdown.superLinear.map { shape in
            try #require([32 << 10, 256 << 10, 1 << 20].lazy.map { shape.body(bytes: $0) }.first { budget.excess(of: $0) != nil }, "\(shape.name)")
        }
        let posts = bodies.enumerated().map { index, body in
            SiteFixture.post(index + 1, title: HostileMarkdown.superLinear[index].name, at: "2024-05-01T00:00:00Z", contents: body)
        }
        let site = try SiteFixture.temporaryDirectory()
        _ = try await SiteFixture.build(try SiteFixture.store(posts: posts), into: site)
        for (index, body) in bodies.enumerated() {
            let name = HostileMarkdown.superLinear[index].name
            let page = try SiteFixture.text("posts/\(index + 1).html", in: site)
            let start = try #require(page.range(of: PlainTextBody.open), "\(name): no plain-text body on its page")
            let end = try #require(page.range(of: PlainTextBody.close, range: start.upperBound..<page.endIndex))
            let shown = HostileMarkdown.plainText(ofHTML: String(page[start.upperBound..<end.lowerBound]))
            #expect(shown == HostileMarkdown.keptText(of: body), "\(name): the page lost or changed characters of the post")
        }
    }

    @Test("a build renders a hostile post as plain text and names it in one warning; its neighbours stay Markdown")
    func buildWarnsOncePerPost() async throws {
        let hostile = try #require(HostileMarkdown.superLinear.first).body(bytes: 200_000)
        var posts = [
            SiteFixture.post(1, title: "평범한 글", at: "2024-05-01T00:00:00Z", contents: "**굵게**"),
            SiteFixture.post(2, title: "위험한 글", at: "2024-05-02T00:00:00Z", contents: hostile),
        ]
        posts.append(SiteFixture.post(3, board: 3, title: "또 하나", at: "2024-05-03T00:00:00Z", contents: String(repeating: "<?", count: 100_000)))
        let store = try SiteFixture.store(posts: posts)
        let site = try SiteFixture.temporaryDirectory()
        let logs = CapturedLogs()
        let configuration = BuildConfiguration(
            outputDirectory: site, templatesDirectory: SiteFixture.templatesDirectory, now: SiteFixture.now, timeZone: SiteFixture.seoul)
        _ = try await SiteBuilder(configuration: configuration, store: store, logger: logs.logger()).build()
        #expect(try SiteFixture.text("posts/1.html", in: site).contains("<strong>굵게</strong>"))
        let page = try SiteFixture.text("posts/2.html", in: site)
        #expect(page.contains(PlainTextBody.open))
        #expect(page.contains(PlainTextBody.html(hostile)))
        let warnings = logs.all.filter { $0.hasPrefix("warning Post rendered as plain text") }
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.contains { $0.contains("\"post\": 2") && $0.contains("\"board\": 1") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("\"post\": 3") && $0.contains("\"board\": 3") && $0.contains("steps") }, "\(warnings)")
        // A rebuild with nothing changed renders nothing, so it warns about nothing.
        let again = CapturedLogs()
        _ = try await SiteBuilder(configuration: configuration, store: store, logger: again.logger()).build()
        #expect(!again.all.contains { $0.contains("plain text") })
    }
}
