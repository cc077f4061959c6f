import BoardArchive
import FixtureAPI
import Foundation
import Mustache
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

@Suite("Escaping: hostile posts are rendered inert")
struct EscapingTests {
    /// Hostile values in every field a page shows.
    static let hostilePosts: [Post] = [
        SiteFixture.post(
            1, board: 9, title: "<script>alert('title')</script>", at: "2024-05-15T01:00:00Z", writer: "\"><svg onload=alert(1)>",
            contents: """
                <script>alert(1)</script>

                <img src=x onerror=alert(2)>

                <a href="javascript:alert(3)">raw link</a>

                [md link](javascript:alert(4)) [upper](JAVASCRIPT:alert(5)) [entity](&#106;avascript:alert(6))

                [spaced](java\tscript:alert(7)) ![img](javascript:alert(8)) <javascript:alert(9)>

                [vb](vbscript:msgbox(1)) [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)

                <iframe src="https://evil.example"></iframe> <style>body{display:none}</style>

                <details open ontoggle=alert(10)>x</details>
                """),
        SiteFixture.post(2, board: 9, title: "\" onmouseover=\"alert(1)", at: "2024-05-14T01:00:00Z", contents: "`<b onclick=x>`"),
        SiteFixture.post(3, board: 9, title: "javascript:alert(1)", at: "2024-05-13T01:00:00Z", type: .reply, parent: 1),
    ]

    /// The problems of one page: script tags other than our own classic scripts, event-handler attributes,
    /// script URLs in attributes, and (when `strict`) the text `javascript:` anywhere.
    static func problems(in html: String, strict: Bool) -> [String] {
        var problems: [String] = []
        let withoutOwnScripts = html.replacingOccurrences(
            of: #"<script src="(\.\./)*(assets|search)/[A-Za-z0-9._/-]+\.js"></script>"#, with: "", options: .regularExpression)
        if withoutOwnScripts.range(of: "<script", options: .caseInsensitive) != nil { problems.append("<script") }
        for tag in html.matches(of: #/<[A-Za-z][^<>]*>/#) {
            let text = String(tag.output)
            // Attribute names only: quoted values hold escaped text (a title may read "onerror=…" and stay inert).
            let names = text.replacingOccurrences(of: #""[^"]*""#, with: "\"\"", options: .regularExpression)
            if names.range(of: #"\son[a-z]+\s*="#, options: [.regularExpression, .caseInsensitive]) != nil { problems.append("on*= in \(text)") }
            if text.range(of: #"=\s*"?\s*(javascript|vbscript|data):"#, options: [.regularExpression, .caseInsensitive]) != nil {
                problems.append("script URL in \(text)")
            }
            for name in ["iframe", "style", "svg", "img", "details", "object", "embed"] where text.lowercased().hasPrefix("<\(name)") {
                problems.append("raw <\(name)>")
            }
        }
        if strict, html.range(of: "javascript:", options: .caseInsensitive) != nil { problems.append("javascript: in text") }
        return problems
    }

    @Test("inline hostile posts: no script, no event handler, no script URL in any page")
    func inlineHostilePosts() async throws {
        let board = Board(boardId: 9, displayName: "<img src=x onerror=alert('board')>", orderNo: 1)
        let store = try SiteFixture.store(boards: [board], posts: Self.hostilePosts)
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        try await SiteFixture.build(store, into: output)
        for (path, data) in try SiteFixture.files(under: output) where path.hasSuffix(".html") {
            let html = String(decoding: data, as: UTF8.self)
            #expect(Self.problems(in: html, strict: false) == [], "\(path)")
        }
        let post = try SiteFixture.text("posts/1.html", in: output)
        #expect(post.contains("&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;"))
        #expect(post.contains("&quot;&gt;&lt;svg onload=alert(1)&gt;"))
        #expect(post.contains("<!-- raw HTML omitted -->"))
        #expect(post.contains("<span class=\"inert-link\">md link</span>"))
        // The body's script URLs are gone entirely, not merely escaped (post 3's *title* is text and stays).
        let body = try #require(post.components(separatedBy: "<div class=\"post-body\">").last?.components(separatedBy: "</div>").first)
        #expect(body.range(of: "javascript:", options: .caseInsensitive) == nil)
        #expect(body.range(of: "vbscript:", options: .caseInsensitive) == nil)
        let quoted = try SiteFixture.text("posts/2.html", in: output)
        #expect(quoted.contains("&quot; onmouseover=&quot;alert(1)"))
        #expect(quoted.contains("<code>&lt;b onclick=x&gt;</code>"))
    }

    @Test("the demo dataset's hostile posts: no <script>, no on*= attribute, no javascript: anywhere in any page")
    func demoDataset() async throws {
        let (store, now) = try SiteLinkTests.demoStore()
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        try await SiteFixture.build(store, into: output, now: now)
        var pages = 0
        for (path, data) in try SiteFixture.files(under: output) where path.hasSuffix(".html") {
            pages += 1
            #expect(Self.problems(in: String(decoding: data, as: UTF8.self), strict: true) == [], "\(path)")
        }
        #expect(pages > 200)
    }

    @Test(
        "the checker catches what it should",
        arguments: [
            "<script>x</script>", "<img src=x onerror=y>", "<a href=\"javascript:x\">", "<a href=\" JavaScript:x\">", "<div onclick=\"x\">",
        ])
    func checkerCatches(html: String) {
        #expect(!Self.problems(in: html, strict: false).isEmpty)
        #expect(Self.problems(in: "<script src=\"../assets/site.js\"></script><p>onload=x</p>", strict: false).isEmpty)
    }

    @Test func theByteEscaperMatchesSwiftMustachesOwn() throws {
        let plain = try MustacheTemplate(string: "{{x}}")
        _ = HTMLEscaping.registered
        let fast = try MustacheTemplate(string: HTMLEscaping.pragmaLine + "{{x}}")
        var seed: UInt64 = 11
        for round in 0..<300 {
            // No combining marks: there the built-in escaper leaves a markup character alone and this one does not.
            let text = SearchHighlighterTests.randomText(&seed, length: round % 40).unicodeScalars.filter {
                $0.properties.generalCategory != .nonspacingMark && $0.value != 0x200D
            }
            let value = String(String.UnicodeScalarView(text)) + "<&>\"'"
            #expect(fast.render(["x": value]) == plain.render(["x": value]), "text \(Array(value.unicodeScalars))")
        }
        #expect(fast.render(["x": "\"\u{301}<"]) == "&quot;\u{301}&lt;")
    }
}
