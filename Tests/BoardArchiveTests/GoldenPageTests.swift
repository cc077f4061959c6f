import Foundation
import Testing

@testable import BoardArchive

/// Golden-file tests: each page kind of the inline archive, byte for byte.
///
/// Golden files live in `Tests/BoardArchiveTests/Golden/`. To re-record after an intended change, run
/// `RECORD_GOLDEN=1 swift test --filter GoldenPageTests`; a recording run always fails so that it is never
/// mistaken for a pass. Then review the diff and commit it. CI never records.
@Suite("Golden pages")
struct GoldenPageTests {
    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden", isDirectory: true)
    static let isRecording = ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1"

    /// Golden file name → generated page.
    static let pages: [(golden: String, page: String)] = [
        ("home.html", "index.html"),
        ("board-full-page.html", "boards/1/index.html"),
        ("board-last-partial-page.html", "boards/1/page-3.html"),
        ("board-empty.html", "boards/2/index.html"),
        ("post-with-table.html", "posts/301.html"),
        ("post-reply.html", "posts/302.html"),
        ("post-notice.html", "posts/140.html"),
    ]

    @Test("every page kind matches its golden file", arguments: pages.map(\.golden))
    func pageMatchesGolden(golden: String) async throws {
        let page = try #require(Self.pages.first { $0.golden == golden }?.page)
        let output = try SiteFixture.temporaryDirectory("golden-\(golden)").appendingPathComponent("site")
        try await SiteFixture.build(try SiteFixture.store(), into: output)
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
    }
}
