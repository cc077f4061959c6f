import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Markdown shapes that Debian 12's cmark-gfm (0.29.0.gfm.6) parses in super-linear time, each built to about a given
/// size; the measured times are in docs/hostile-posts.md (Benchmarks/hostile generates the same shapes).
enum HostileMarkdown {
    /// A named shape.
    struct Shape: Sendable, CustomTestStringConvertible {
        var name: String
        var make: @Sendable (Int) -> String

        var testDescription: String { name }

        /// The shape at about `bytes` bytes.
        func body(bytes: Int) -> String { make(bytes) }
    }

    /// `unit` repeated to about `bytes` bytes, between `head` and `tail`.
    static func repeated(_ unit: String, _ bytes: Int, head: String = "", tail: String = "") -> String {
        head + String(repeating: unit, count: max(1, (bytes - head.utf8.count - tail.utf8.count) / unit.utf8.count)) + tail
    }

    /// The shapes measured super-linear in cmark-gfm 0.29.0.gfm.6, or over a second at 1 MB (`a@`: 3.7 s). The corpus
    /// tests (`HostileMarkdownTests`) render each at 1 MB and build each as a post; on the build path before the
    /// pre-scan, each would reach cmark-gfm (the tests require a plain-text reason) and take from 0.86 s to over a
    /// minute at 1 MB (docs/hostile-posts.md).
    static let superLinear: [Shape] = [
        Shape(name: "images around empty links (![[]() repeated)") { repeated("![[]()", $0) },
        Shape(name: "unclosed processing instructions (<? repeated)") { repeated("<?", $0, head: "a") },
        Shape(name: "unclosed declarations (<!A repeated)") { repeated("<!A ", $0, head: "a") },
        Shape(name: "unclosed CDATA sections (<![CDATA[ repeated)") { repeated("<![CDATA[", $0, head: "a") },
        Shape(name: "nested brackets ([[[a]]])") { String(repeating: "[", count: $0 / 2) + "a" + String(repeating: "]", count: $0 / 2) },
        Shape(name: "unclosed link openers ([a repeated)") { repeated("[a", $0) },
        Shape(name: "a table 5,000 columns wide") { wideTable(bytes: $0, columns: 5_000) },
        Shape(name: "deep block quotes followed by lazy lines") { deepThenLazy(bytes: $0, opener: "> ") },
        Shape(name: "deep list items followed by lazy lines") { deepThenLazy(bytes: $0, opener: "- ") },
        Shape(name: "a 100-column header over 500,000 one-cell rows") { paddedTable(bytes: $0, columns: 100) },
        Shape(name: "www autolinks with underscores (www.a_ repeated)") { repeated("www.a_", $0) },
        Shape(name: "email autolinks with dots (a.a@ repeated)") { repeated("a.a@", $0) },
        Shape(name: "email autolink candidates (a@ repeated)") { repeated("a@", $0) },
    ]

    /// A table of `columns` columns: a header, its delimiter row, then rows like the header.
    static func wideTable(bytes: Int, columns: Int) -> String {
        let header = "|" + String(repeating: "a|", count: columns) + "\n"
        let delimiter = "|" + String(repeating: "-|", count: columns) + "\n"
        return header + delimiter + String(repeating: header, count: max(1, (bytes - 2 * header.utf8.count) / header.utf8.count))
    }

    /// A table of `columns` columns whose body rows hold one cell each (each rendered padded to `columns` cells).
    static func paddedTable(bytes: Int, columns: Int) -> String {
        let head = "|" + String(repeating: "a|", count: columns) + "\n|" + String(repeating: "-|", count: columns) + "\n"
        return head + String(repeating: "a\n", count: max(1, (bytes - head.utf8.count) / 2))
    }

    /// `opener` repeated on one line, then lines continuing its paragraph lazily.
    static func deepThenLazy(bytes: Int, opener: String) -> String {
        let depth = bytes / 4 / opener.utf8.count
        return String(repeating: opener, count: depth) + "a\n" + String(repeating: "b\n", count: bytes / 4)
    }

    /// The text a reader sees in ``PlainTextBody`` HTML: tags dropped, line breaks and entities decoded.
    static func plainText(ofHTML html: String) -> String {
        var text = html
        if text.hasPrefix(PlainTextBody.open) { text.removeFirst(PlainTextBody.open.count) }
        if text.hasSuffix(PlainTextBody.close) { text.removeLast(PlainTextBody.close.count) }
        return
            text
            .replacingOccurrences(of: "<br />\n", with: "\n")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// `body` as ``PlainTextBody`` keeps it: line endings as `\n`, U+0000 as U+FFFD.
    static func keptText(of body: String) -> String {
        body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n").replacingOccurrences(
            of: "\u{0}", with: "\u{FFFD}")
    }
}
