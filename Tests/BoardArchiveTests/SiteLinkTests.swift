import BoardArchive
import FixtureAPI
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Checks that a generated site is self-contained: every reference is relative and names an existing file.
enum SiteLinkChecker {
    /// One bad reference: the page, the attribute value, and what is wrong with it.
    struct Problem: CustomStringConvertible, Equatable {
        var page: String
        var reference: String
        var issue: String
        var description: String { "\(page): \(reference) (\(issue))" }
    }

    /// Every reference of the site, checked: `href`, `src`, `action`, `formaction`, `poster`, `data` and every
    /// `srcset` candidate in `.html` files, and `url(…)` / `@import` in `.css` files and inline `style` attributes.
    static func problems(in root: URL) throws -> [Problem] {
        var problems: [Problem] = []
        let files = SitePublisher.files(under: root)
        for sheet in files.sorted() where sheet.hasSuffix(".css") {
            problems += cssProblems(in: try SiteFixture.text(sheet, in: root), on: sheet, files: files)
        }
        for page in files.sorted() where page.hasSuffix(".html") {
            let html = try SiteFixture.text(page, in: root)
            for tag in html.matches(of: #/<[A-Za-z][^<>]*>/#) {
                let text = String(tag.output)
                for match in text.matches(of: #/\sstyle\s*=\s*"([^"]*)"/#) {
                    problems += cssProblems(in: String(match.output.1), on: page, files: files)
                }
                for match in text.matches(of: #/\ssrcset\s*=\s*"([^"]*)"/#) {
                    for candidate in match.output.1.split(separator: ",") {
                        let value = String(candidate.trimmingCharacters(in: .whitespaces).prefix { !$0.isWhitespace })
                        if let issue = issue(with: value, attribute: "srcset", on: page, files: files) {
                            problems.append(Problem(page: page, reference: "srcset=\"\(value)\"", issue: issue))
                        }
                    }
                }
                for match in text.matches(of: #/\s(href|src|action|formaction|poster|data)\s*=\s*"([^"]*)"/#) {
                    let attribute = String(match.output.1)
                    let value = String(match.output.2)
                    // The search page's row template: search.js puts each post's address in place of the placeholder.
                    if value == SearchRowTemplate.placeholder("href") { continue }
                    // A link within the page (the skip link to `#main`) must name an element of the page.
                    if value.hasPrefix("#"), value.count > 1 {
                        if !html.contains(" id=\"\(value.dropFirst())\"") {
                            problems.append(Problem(page: page, reference: "\(attribute)=\"\(value)\"", issue: "names no element of the page"))
                        }
                        continue
                    }
                    if let issue = issue(with: value, attribute: attribute, on: page, files: files) {
                        problems.append(Problem(page: page, reference: "\(attribute)=\"\(value)\"", issue: issue))
                    }
                }
                if text.range(of: #"\s(href|src|action)\s*=\s*[^"\s>]"#, options: .regularExpression) != nil {
                    problems.append(Problem(page: page, reference: text, issue: "unquoted reference"))
                }
            }
        }
        return problems
    }

    /// The `url(…)` and `@import "…"` references of a style sheet or `style` attribute; `data:` URLs are inline.
    static func cssProblems(in css: String, on page: String, files: Set<String>) -> [Problem] {
        var problems: [Problem] = []
        var values: [String] = []
        for match in css.matches(of: #/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)/#) {
            values.append(String(match.output.1 ?? match.output.2 ?? match.output.3 ?? ""))
        }
        for match in css.matches(of: #/@import\s+["']([^"']*)["']/#) { values.append(String(match.output.1)) }
        for value in values where !value.hasPrefix("data:") {
            if let issue = issue(with: value, attribute: "url", on: page, files: files) {
                problems.append(Problem(page: page, reference: "url(\(value))", issue: issue))
            }
        }
        return problems
    }

    static func issue(with value: String, attribute: String, on page: String, files: Set<String>) -> String? {
        if value.isEmpty { return "empty" }
        if value.hasPrefix("/") { return "absolute path" }
        let path = String(value.prefix { $0 != "?" && $0 != "#" })
        if path.contains(":") { return "has a scheme (network or script URL)" }
        if value.hasSuffix("/") { return "directory link" }
        if value.contains("#") { return "fragment" }
        // A query is part of the URL contract for the search page only (search.html?q=…&target=…&board=…).
        if let mark = value.firstIndex(of: "?"), !value[..<mark].hasSuffix("search.html") { return "query on a page other than search.html" }
        let resolved = resolve(path, from: page)
        guard let resolved else { return "escapes the site" }
        if attribute == "action" { return resolved == SitePaths.search ? nil : "form does not target search.html" }
        return files.contains(resolved) ? nil : "no such file (\(resolved))"
    }

    /// The site-relative path `value` names when written on `page`, or nil when it climbs out of the site.
    static func resolve(_ value: String, from page: String) -> String? {
        var components = page.split(separator: "/").dropLast().map(String.init)
        for part in value.split(separator: "/", omittingEmptySubsequences: false) {
            switch part {
            case "..":
                guard !components.isEmpty else { return nil }
                components.removeLast()
            case ".", "": continue
            default: components.append(String(part))
            }
        }
        return components.joined(separator: "/")
    }
}

@Suite("Whole-tree checks: links, files, offline safety")
struct SiteLinkTests {
    /// The bundled demo dataset, shifted so that its reference date is the fixed build clock.
    static func demoStore() throws -> (ArchiveStore, Date) {
        let dataset = try FixtureDataset.bundledDemo()
        let store = try ArchiveStore.inMemory()
        try store.record(boards: dataset.boards, at: dataset.referenceDate)
        try store.record(posts: dataset.posts, at: dataset.referenceDate)
        return (store, dataset.referenceDate)
    }

    @Test("the inline archive's site: every href/src resolves to a file, none absolute, network or a directory")
    func inlineArchiveLinks() async throws {
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        try await SiteFixture.build(try SiteFixture.store(), into: output)
        let problems = try SiteLinkChecker.problems(in: output)
        #expect(problems.isEmpty, "\(problems.prefix(10))")
    }

    @Test("the demo site: exactly the expected files, and every reference resolves")
    func demoSite() async throws {
        let (store, now) = try Self.demoStore()
        let dataset = try FixtureDataset.bundledDemo()
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        try await SiteFixture.build(store, into: output, now: now)
        let files = Set(try SiteFixture.files(under: output).keys)
        var expected: Set<String> = ["index.html", ".boardarchive", SitePaths.archiveFeed]
        for board in dataset.boards {
            let posts = dataset.posts.filter { $0.boardId == board.boardId }
            let notices = posts.filter { $0.postType == .notice }.count
            let listing = ListingPages(pinnedCount: notices, itemCount: posts.count - notices)
            expected.insert(SitePaths.board(board.boardId))
            expected.insert(SitePaths.boardFeed(board.boardId))
            for page in 0..<listing.archivePageCount { expected.insert(SitePaths.board(board.boardId, archivePage: page)) }
        }
        for post in dataset.posts { expected.insert(SitePaths.post(post.postId)) }
        let assets = TemplateRenderer.assetPaths(in: SiteFixture.templatesDirectory.appendingPathComponent("assets")).map { "assets/" + $0 }
        expected.formUnion(assets)
        expected.formUnion(["search.html", "search/manifest.js", "keywords/index.html"])
        // The search index and keyword pages have documented names; nothing else is allowed.
        let indexFile = #/search/(d\d+|[nt]\d+/([pm]\d+|c\d+-\d+))\.js/#
        let keywordPage = #/keywords/k-[0-9a-f]+(-page-[2-9]|-page-[1-9]\d+)?\.html/#
        let extra = files.subtracting(expected).filter {
            (try? indexFile.wholeMatch(in: $0)) == nil && (try? keywordPage.wholeMatch(in: $0)) == nil
        }
        #expect(extra.isEmpty, "unexpected files: \(extra.sorted().prefix(10))")
        #expect(expected.subtracting(files).isEmpty, "missing files: \(expected.subtracting(files).sorted().prefix(10))")
        let problems = try SiteLinkChecker.problems(in: output)
        #expect(problems.isEmpty, "\(problems.prefix(10))")
    }

    @Test(
        "the checker itself catches bad references",
        arguments: [
            ("/index.html", "absolute path"), ("https://cdn.example/x.js", "has a scheme (network or script URL)"),
            ("//cdn.example/x.js", "absolute path"), ("../boards/1/", "directory link"), ("../posts/999.html", "no such file (posts/999.html)"),
            ("../../../x.html", "escapes the site"), ("javascript:alert(1)", "has a scheme (network or script URL)"),
        ])
    func checkerCatches(value: String, issue: String) {
        let sheet = "a { background: url(\"\(value)\") } @import '\(value)'; b { background: url(data:image/png;base64,AA) }"
        #expect(SiteLinkChecker.cssProblems(in: sheet, on: "posts/1.html", files: ["posts/1.html", "index.html"]).map(\.issue) == [issue, issue])
        #expect(SiteLinkChecker.issue(with: value, attribute: "href", on: "posts/1.html", files: ["posts/1.html", "index.html"]) == issue)
        #expect(SiteLinkChecker.issue(with: "../index.html", attribute: "href", on: "posts/1.html", files: ["index.html"]) == nil)
    }
}
