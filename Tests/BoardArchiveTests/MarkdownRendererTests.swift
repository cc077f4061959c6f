import BoardArchive
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

@Suite("Markdown rendering with cmark-gfm")
struct MarkdownRendererTests {
    let renderer = MarkdownRenderer()

    @Test("GFM tables, strikethrough and task lists")
    func extensions() {
        let html = renderer.render("| a | b |\n|---|--:|\n| 1 | ~~2~~ |\n\n- [x] done\n- [ ] todo")
        #expect(html.contains("<table>"))
        #expect(html.contains("<td style=\"text-align: right\"><del>2</del></td>"))
        #expect(!html.contains("align=\""), "the Nu HTML Checker rejects the obsolete align attribute")
        #expect(html.contains("<input type=\"checkbox\" checked=\"\" disabled=\"\" /> done"))
        #expect(html.contains("<input type=\"checkbox\" disabled=\"\" /> todo"))
    }

    @Test("hard line breaks keep the lines of plain-text posts")
    func hardBreaks() {
        #expect(renderer.render("첫 줄\n둘째 줄") == "<p>첫 줄<br />\n둘째 줄</p>\n")
    }

    @Test(
        "raw HTML is omitted, never passed through",
        arguments: [
            "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<a href=\"javascript:alert(1)\">x</a>",
            "<iframe src=\"https://evil.example\"></iframe>", "<svg onload=alert(1)>", "<div style=\"x\" onclick=\"y\">z</div>",
        ])
    func rawHTMLOmitted(source: String) {
        for policy in [MarkdownRenderer.LinkPolicy.inert, .keep] {
            let html = MarkdownRenderer(linkPolicy: policy).render(source)
            #expect(!html.contains("<script"))
            #expect(!html.contains("<img"))
            #expect(!html.contains("<iframe"))
            #expect(!html.contains("<svg"))
            #expect(!html.contains("onerror"))
            #expect(!html.contains("onload"))
            #expect(!html.contains("onclick"))
        }
    }

    @Test(
        "cmark itself drops dangerous link schemes without CMARK_OPT_UNSAFE",
        arguments: ["javascript:alert(1)", "JavaScript:alert(1)", "vbscript:msgbox(1)", "file:///etc/passwd", "data:text/html;base64,PHNjcmlwdD4="])
    func cmarkDropsDangerousURLs(url: String) {
        let html = MarkdownRenderer(linkPolicy: .keep).render("[click](\(url)) ![img](\(url))")
        #expect(html.contains("href=\"\""))
        #expect(html.contains("src=\"\""))
        #expect(!html.lowercased().contains(String(url.lowercased().prefix(8))))
    }

    @Test("links and images become inert text; safe web addresses stay readable, dangerous ones vanish")
    func inertLinks() {
        let html = renderer.render("[문서](https://example.com/a?b=1&c=2) ![사진](http://example.com/p.png) [x](javascript:alert(1))")
        #expect(!html.contains("href="))
        #expect(!html.contains("src="))
        #expect(!html.contains("<a "))
        #expect(!html.contains("<img"))
        #expect(html.contains("<span class=\"inert-link\">문서</span> <span class=\"link-url\">https://example.com/a?b=1&amp;c=2</span>"))
        #expect(html.contains("<span class=\"inert-link inert-image\">사진</span> <span class=\"link-url\">http://example.com/p.png</span>"))
        #expect(html.contains("<span class=\"inert-link\">x</span>"))
        #expect(!html.contains("javascript"))
    }

    @Test("autolinks are shown once, not twice")
    func autolinks() {
        let html = renderer.render("see https://example.com/x and www.example.org")
        #expect(html == "<p>see <span class=\"inert-link\">https://example.com/x</span> and <span class=\"inert-link\">www.example.org</span></p>\n")
    }

    @Test("an image inside a link is neutralised too")
    func nestedImage() {
        let html = renderer.render("[![alt](https://e.example/i.png)](https://e.example/)")
        #expect(!html.contains("<img"))
        #expect(!html.contains("<a "))
        #expect(html.contains("alt"))
    }

    @Test("text that looks like markup is escaped")
    func escaping() {
        #expect(renderer.render("a < b & \"c\"") == "<p>a &lt; b &amp; &quot;c&quot;</p>\n")
    }
}

@Suite("Markdown rendering: hostile autolinks")
struct MarkdownHostileAutolinkTests {
    @Test("an angle-bracket autolink to a script URL disappears with its label")
    func scriptAutolink() {
        let html = MarkdownRenderer().render("a <javascript:alert(1)> b <https://ok.example/>")
        #expect(html == "<p>a  b <span class=\"inert-link\">https://ok.example/</span></p>\n")
    }
}

@Suite("Markdown rendering: many tasks at once")
struct MarkdownConcurrencyTests {
    /// cmark-gfm keeps the extensions' special inline characters (`~`, `:`, `w`) in one process-wide table that
    /// every parse fills at its start and clears at its end, so two parses at once can lose `~~` and autolinks.
    /// Every concurrent render must still equal the serial one.
    @Test("concurrent renders give the same HTML as a serial render")
    func concurrentRendersAgree() async {
        let source = "~~취소~~ 새 일정은 https://example.com/a 와 www.example.org 입니다.\n\n| a | b |\n|---|---|\n| ~~1~~ | 2 |"
        let expected = MarkdownRenderer().render(source)
        #expect(expected.contains("<del>취소</del>"))
        #expect(expected.contains("<span class=\"inert-link\">www.example.org</span>"))
        let outputs = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let renderer = MarkdownRenderer()
                    return (0..<400).map { _ in renderer.render(source) }
                }
            }
            var all: [String] = []
            for await batch in group { all += batch }
            return all
        }
        #expect(outputs.count == 3_200)
        #expect(outputs.filter { $0 != expected }.count == 0)
    }
}
