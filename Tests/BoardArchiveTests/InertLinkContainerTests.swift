import BoardArchive
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Every inline kind of link, in every container kind, must keep its label and its address as inert text.
///
/// A table cell cannot hold a custom inline node: the old rewrite inserted one there, the insert failed, and the
/// link's label and address vanished (`<td></td>`). These tests render each (container, inline) pair with the real
/// cmark-gfm, and random documents mixing them.
@Suite("Inert links in every container")
struct InertLinkContainerTests {
    /// An inline kind: its Markdown and the inert HTML it must render to.
    struct Inline: Sendable, CustomTestStringConvertible {
        var name: String
        var markdown: String
        var html: String
        var testDescription: String { name }
    }

    /// A container kind: its Markdown around `{}` (the inline) and the HTML element the inline must end up in.
    struct Container: Sendable, CustomTestStringConvertible {
        var name: String
        var markdown: String
        var element: String
        var testDescription: String { name }
    }

    static let inlines = [
        Inline(
            name: "link", markdown: "[Example](https://example.com/)",
            html: #"<span class="inert-link">Example</span> <span class="link-url">https://example.com/</span>"#),
        Inline(name: "autolink", markdown: "<https://example.com/a>", html: #"<span class="inert-link">https://example.com/a</span>"#),
        Inline(name: "bare URL", markdown: "https://example.com/b", html: #"<span class="inert-link">https://example.com/b</span>"#),
        Inline(name: "www autolink", markdown: "www.example.com", html: #"<span class="inert-link">www.example.com</span>"#),
        Inline(name: "email autolink", markdown: "<kim@example.com>", html: #"<span class="inert-link">kim@example.com</span>"#),
        Inline(
            name: "image", markdown: "![사진](https://example.com/p.png)",
            html: #"<span class="inert-link inert-image">사진</span> <span class="link-url">https://example.com/p.png</span>"#),
        Inline(
            name: "emphasised link", markdown: "**[굵게](https://example.com/s)**",
            html: #"<strong><span class="inert-link">굵게</span> <span class="link-url">https://example.com/s</span></strong>"#),
        Inline(
            name: "link with emphasis inside", markdown: "[*기울임*](https://example.com/e)",
            html: #"<span class="inert-link"><em>기울임</em></span> <span class="link-url">https://example.com/e</span>"#),
        Inline(
            name: "code label", markdown: "[`code`](https://example.com/c)",
            html: #"<span class="inert-link"><code>code</code></span> <span class="link-url">https://example.com/c</span>"#),
        Inline(
            name: "image inside a link", markdown: "[![그림](https://example.com/i.png)](https://example.com/l)",
            html:
                #"<span class="inert-link"><span class="inert-link inert-image">그림</span> <span class="link-url">https://example.com/i.png</span></span> <span class="link-url">https://example.com/l</span>"#
        ),
        Inline(
            name: "struck-through link", markdown: "~~[취소](https://example.com/d)~~",
            html: #"<del><span class="inert-link">취소</span> <span class="link-url">https://example.com/d</span></del>"#),
        Inline(
            name: "reference link", markdown: "[참조][r]\n\n[r]: https://example.com/r",
            html: #"<span class="inert-link">참조</span> <span class="link-url">https://example.com/r</span>"#),
    ]

    static let containers = [
        Container(name: "paragraph", markdown: "앞 {} 뒤", element: "p"),
        Container(name: "table cell", markdown: "| x | y |\n|---|---|\n| a | {} |", element: "td"),
        Container(name: "table header cell", markdown: "| {} | y |\n|---|---|\n| a | b |", element: "th"),
        Container(name: "heading", markdown: "## 제목 {}", element: "h2"),
        Container(name: "setext heading", markdown: "제목 {}\n===", element: "h1"),
        Container(name: "list item", markdown: "- 하나 {}\n- 둘", element: "li"),
        Container(name: "ordered list item", markdown: "1. {}", element: "li"),
        Container(name: "task list item", markdown: "- [ ] 할 일 {}", element: "li"),
        Container(name: "block quote", markdown: "> 인용 {}", element: "blockquote"),
        Container(name: "table in a block quote", markdown: "> | x |\n> |---|\n> | {} |", element: "td"),
        Container(name: "nested list in a quote", markdown: "> - a\n>   - {}", element: "li"),
        Container(name: "footnote-style definition", markdown: "본문[^1]\n\n[^1]: 각주 {}", element: "p"),
    ]

    static var pairs: [(Container, Inline)] {
        containers.flatMap { container in inlines.map { (container, $0) } }
    }

    @Test(arguments: pairs)
    func everyLinkKeepsItsLabelAndAddressInEveryContainer(container: Container, inline: Inline) {
        let markdown: String
        if inline.name == "reference link" {
            let parts = inline.markdown.components(separatedBy: "\n\n")
            markdown = container.markdown.replacingOccurrences(of: "{}", with: parts[0]) + "\n\n" + parts[1]
        } else {
            markdown = container.markdown.replacingOccurrences(of: "{}", with: inline.markdown)
        }
        let html = MarkdownRenderer().render(markdown)
        #expect(html.contains(inline.html), "\(container.name) / \(inline.name): \(html)")
        #expect(Self.elementTexts(html, container.element).contains { $0.contains(inline.html) }, "not inside <\(container.element)>: \(html)")
        #expect(!html.contains("href=") && !html.contains("src=") && !html.contains("<a ") && !html.contains("<img"))
        #expect(!html.unicodeScalars.contains { (0xFDD0...0xFDEF).contains($0.value) })
    }

    @Test func markerCharactersInAPostCannotProduceMarkup() {
        let (open, image, address, close) = (InertLinkMarkup.openLink, InertLinkMarkup.openImage, InertLinkMarkup.openAddress, InertLinkMarkup.close)
        let html = MarkdownRenderer().render("| a |\n|---|\n| \(open)x\(close) \(address)y |\n\n\(image)z [l](https://e.com/)")
        #expect(!html.contains("<span class=\"inert-link\">x"))
        #expect(!html.contains("inert-image"))
        #expect(html.contains("\u{FFFD}x\u{FFFD}"))
        #expect(html.contains("<span class=\"inert-link\">l</span> <span class=\"link-url\">https://e.com/</span>"))
    }

    /// Random documents: links, images and autolinks in random containers, nested at random. Every label word and
    /// every address must appear in the HTML as text, and no `href`/`src` may be left.
    @Test(arguments: 0..<40)
    func randomDocumentsLoseNoLinkText(seed: UInt64) {
        var random = SearchTestCorpus.Random(state: 0x5EED_0000 + seed)
        var blocks: [String] = []
        var expected: [String] = []
        for index in 0..<random.int(3..<12) {
            let label = "라벨\(seed)x\(index)"
            let address = "https://example.com/\(seed)/\(index)"
            let inline: String
            switch random.int(0..<6) {
            case 0: inline = "[\(label)](\(address))"
            case 1: inline = "![\(label)](\(address))"
            case 2: inline = "**[\(label)](\(address))**"
            case 3: inline = "[`\(label)`](\(address))"
            case 4: inline = "~~[\(label)](\(address))~~"
            default: inline = "\(label) <\(address)>"
            }
            expected += [label, address]
            let container = random.pick(Self.containers.map(\.markdown))
            blocks.append(container.replacingOccurrences(of: "{}", with: inline))
        }
        let html = MarkdownRenderer().render(blocks.joined(separator: "\n\n"))
        for text in expected { #expect(html.contains(text), "lost \(text) in \(html)") }
        #expect(!html.contains("href=") && !html.contains("src="))
    }

    /// The text from each `<element>` (or `<element …>`) to the next `</element>` in `html`.
    static func elementTexts(_ html: String, _ element: String) -> [String] {
        var texts: [String] = []
        var rest = html[...]
        while let open = rest.range(of: "<\(element)>") ?? rest.range(of: "<\(element) "),
            let close = rest.range(of: "</\(element)>", range: open.upperBound..<rest.endIndex)
        {
            texts.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[open.upperBound...]
        }
        return texts
    }
}
