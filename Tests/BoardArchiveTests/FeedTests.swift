import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads an Atom feed or a sitemap with Foundation's XML parser: a document that is not well-formed fails the test.
final class FeedReader: NSObject, XMLParserDelegate {
    struct Entry: Equatable {
        var id = ""
        var title = ""
        var link = ""
        var published = ""
        var author = ""
        var category: String?
        var content = ""
    }

    var entries: [Entry] = []
    var feedTitle = ""
    var selfLink = ""
    var locations: [String] = []
    private var current: Entry?
    private var text = ""
    private var inAuthor = false

    /// Parses `data`; throws the parser's error for a document that is not well-formed XML.
    static func read(_ data: Data) throws -> FeedReader {
        let reader = FeedReader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.fileReadCorruptFile) }
        return reader
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        text = ""
        switch name {
        case "entry": current = Entry()
        case "author": inAuthor = true
        case "link":
            if current != nil, attributes["rel"] == "alternate" { current?.link = attributes["href"] ?? "" }
            if current == nil, attributes["rel"] == "self" { selfLink = attributes["href"] ?? "" }
        case "category": current?.category = attributes["term"]
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        switch name {
        case "entry":
            if let current { entries.append(current) }
            current = nil
        case "author": inAuthor = false
        case "name" where inAuthor: current?.author = text
        case "id": current?.id = text
        case "title": if current != nil { current?.title = text } else { feedTitle = text }
        case "published": current?.published = text
        case "content": current?.content = text
        case "loc": locations.append(text)
        default: break
        }
    }
}

@Suite("Atom feeds, sitemap and robots.txt")
struct FeedTests {
    /// The inline archive plus 3 hostile posts on board 1 (the newest of it), and the build's configuration.
    static func hostileStore() throws -> ArchiveStore {
        var posts = SiteFixture.posts
        posts.append(
            SiteFixture.post(
                501, title: "<script>alert(\"x\")</script> & \u{07}bell", at: "2024-05-15T02:30:00Z", writer: "\"Kim\" <b>&amp;",
                contents: "<img src=x onerror=alert(1)> **굵게** & ]]> done"))
        posts.append(SiteFixture.post(502, title: "같은 시각 A", at: "2024-05-15T02:40:00Z"))
        posts.append(SiteFixture.post(503, title: "같은 시각 B", at: "2024-05-15T02:40:00Z"))
        return try SiteFixture.store(posts: posts)
    }

    static func build(_ store: ArchiveStore, into output: URL, baseURL: URL? = nil, noindex: Bool = false) async throws {
        var configuration = BuildConfiguration(
            outputDirectory: output, templatesDirectory: SiteFixture.templatesDirectory, now: SiteFixture.now, timeZone: SiteFixture.seoul)
        configuration.baseURL = baseURL
        configuration.noindex = noindex
        _ = try await SiteBuilder(configuration: configuration, store: store, logger: .init(label: "test")).build()
    }

    /// The store's posts of `board` (nil: all) newest first, ties by the higher id, as a feed must list them.
    static func newestIds(_ store: ArchiveStore, board: Int?) throws -> [Int] {
        let filter = board.map { "WHERE boardId = \($0)" } ?? ""
        return try store.read { db in
            try Int.fetchAll(db, sql: "SELECT postId FROM post \(filter) ORDER BY createdAt DESC, postId DESC LIMIT 50")
        }
    }

    @Test("a board's feed: valid XML, its newest 50 posts newest first, every text escaped, links that resolve")
    func boardFeed() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try Self.hostileStore()
        let output = root.appendingPathComponent("site")
        try await Self.build(store, into: output)
        let data = try Data(contentsOf: output.appendingPathComponent("boards/1/feed.xml"))
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains("<script"), "a title's markup must arrive escaped")
        #expect(!text.contains("<img"), "a body's markup must arrive escaped")
        let feed = try FeedReader.read(data)
        #expect(feed.entries.count == 50)
        let expected = try Self.newestIds(store, board: 1)
        #expect(feed.entries.map(\.link) == expected.map { "../../posts/\($0).html" })
        #expect(Array(expected.prefix(3)) == [503, 502, 501], "ties go to the higher id")
        let hostile = try #require(feed.entries.first { $0.link.hasSuffix("/501.html") })
        #expect(hostile.title == "<script>alert(\"x\")</script> & \u{FFFD}bell", "escaped and read back; a control character XML forbids is replaced")
        #expect(hostile.author == "\"Kim\" <b>&amp;")
        #expect(hostile.content.contains("<strong>굵게</strong>"))
        #expect(!hostile.content.contains("<img"), "raw HTML in a body never passes through")
        #expect(hostile.published == "2024-05-15T02:30:00Z")
        for entry in feed.entries {
            let page = output.appendingPathComponent("boards/1").appendingPathComponent(entry.link).standardizedFileURL
            #expect(FileManager.default.fileExists(atPath: page.path), "\(entry.link)")
            #expect(entry.id.hasPrefix("tag:boardarchive,2026:posts/"))
        }
        // Every page links to the archive's feed; board and post pages to their board's too.
        let post = try SiteFixture.text("posts/501.html", in: output)
        #expect(post.contains(#"<link rel="alternate" type="application/atom+xml" title="게시판 아카이브" href="../feed.xml">"#))
        #expect(post.contains(#"<link rel="alternate" type="application/atom+xml" title="자유게시판" href="../boards/1/feed.xml">"#))
        let home = try SiteFixture.text("index.html", in: output)
        #expect(home.contains(#"href="feed.xml""#))
        #expect(!home.contains("boards/1/feed.xml\">\n"), "the home page has no board feed")
    }

    @Test("the archive's feed: the newest 50 posts of every board, each with its board; an empty board's feed is valid")
    func archiveFeed() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try Self.hostileStore()
        let output = root.appendingPathComponent("site")
        try await Self.build(store, into: output, baseURL: URL(string: "https://example.org/archive/"))
        let feed = try FeedReader.read(try Data(contentsOf: output.appendingPathComponent("feed.xml")))
        let expected = try Self.newestIds(store, board: nil)
        #expect(feed.entries.map(\.link) == expected.map { "https://example.org/archive/posts/\($0).html" })
        #expect(feed.entries.map(\.id) == feed.entries.map(\.link), "with a base URL, ids are the pages' addresses")
        #expect(Set(feed.entries.compactMap(\.category)) == ["자유게시판", "질문 & 답변"])
        #expect(feed.selfLink == "https://example.org/archive/feed.xml")
        let empty = try FeedReader.read(try Data(contentsOf: output.appendingPathComponent("boards/2/feed.xml")))
        #expect(empty.entries.isEmpty)
        #expect(empty.feedTitle == "빈 게시판 <empty> · 게시판 아카이브")
    }

    @Test("with a base URL: sitemap.xml lists every page but search.html, robots.txt points to it; without one, neither")
    func sitemap() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try SiteFixture.store()
        let plain = root.appendingPathComponent("plain")
        try await Self.build(store, into: plain)
        #expect(!FileManager.default.fileExists(atPath: plain.appendingPathComponent("sitemap.xml").path))
        #expect(!FileManager.default.fileExists(atPath: plain.appendingPathComponent("robots.txt").path))
        let output = root.appendingPathComponent("site")
        try await Self.build(store, into: output, baseURL: URL(string: "https://example.org/archive/"))
        let sitemap = try FeedReader.read(try Data(contentsOf: output.appendingPathComponent("sitemap.xml")))
        let pages = SitePublisher.files(under: output).filter { $0.hasSuffix(".html") && $0 != "search.html" }.sorted()
        #expect(sitemap.locations == pages.map { "https://example.org/archive/" + $0 })
        #expect(pages.contains("posts/101.html") && pages.contains("keywords/index.html"))
        #expect(try SiteFixture.text("robots.txt", in: output) == "User-agent: *\nAllow: /\nSitemap: https://example.org/archive/sitemap.xml\n")
    }

    @Test("a removed post leaves its board's feed and the archive's, and its tombstone stays out of the sitemap")
    func redactedPostLeavesFeedsAndSitemap() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try Self.hostileStore()
        try store.redact(RedactionRequest(target: .post(502), reason: "test"), at: SiteFixture.now)
        let output = root.appendingPathComponent("site")
        try await Self.build(store, into: output, baseURL: URL(string: "https://example.org/"))
        for path in ["boards/1/feed.xml", "feed.xml"] {
            let feed = try FeedReader.read(try Data(contentsOf: output.appendingPathComponent(path)))
            #expect(feed.entries.count == 50)
            #expect(!feed.entries.contains { $0.link.hasSuffix("posts/502.html") }, "\(path)")
            #expect(feed.entries.contains { $0.link.hasSuffix("posts/503.html") }, "\(path)")
        }
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("posts/502.html").path), "the tombstone")
        let sitemap = try FeedReader.read(try Data(contentsOf: output.appendingPathComponent("sitemap.xml")))
        #expect(!sitemap.locations.contains("https://example.org/posts/502.html"))
        #expect(sitemap.locations.contains("https://example.org/posts/503.html"))
    }

    @Test("--noindex: every page asks not to be indexed, and there is no sitemap")
    func noindex() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let output = root.appendingPathComponent("site")
        try await Self.build(try SiteFixture.store(), into: output, baseURL: URL(string: "https://example.org/"), noindex: true)
        let pages = SitePublisher.files(under: output).filter { $0.hasSuffix(".html") }
        #expect(pages.count > 60)
        for page in pages {
            #expect(try SiteFixture.text(page, in: output).contains(#"<meta name="robots" content="noindex">"#), "\(page)")
        }
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("sitemap.xml").path))
        #expect(try SiteFixture.text("robots.txt", in: output) == "User-agent: *\nAllow: /\n")
        let plain = root.appendingPathComponent("plain")
        try await Self.build(try SiteFixture.store(), into: plain)
        #expect(!(try SiteFixture.text("index.html", in: plain)).contains("noindex"))
    }

    @Test("beyond 50,000 pages the sitemap is an index of sitemap files, each within the limit")
    func sitemapIndex() throws {
        let root = try SiteFixture.temporaryDirectory()
        let output = SiteOutput(stagingDirectory: root, previousDirectory: nil)
        for index in 0..<7 { _ = try output.needsRendering("posts/\(index).html", digest: BuildDigest()) }
        var phase = SitemapPhase(output: output, base: BuildDigest(), baseURL: try #require(URL(string: "https://example.org/")), noindex: false)
        phase.pagesPerFile = 3
        try phase.run()
        let index = try FeedReader.read(try Data(contentsOf: root.appendingPathComponent("sitemap.xml")))
        #expect(
            index.locations == ["https://example.org/sitemaps/1.xml", "https://example.org/sitemaps/2.xml", "https://example.org/sitemaps/3.xml"])
        let parts = try (1...3).map { try FeedReader.read(try Data(contentsOf: root.appendingPathComponent("sitemaps/\($0).xml"))).locations }
        #expect(parts.map(\.count) == [3, 3, 1])
        #expect(parts.flatMap { $0 } == (0..<7).map { "https://example.org/posts/\($0).html" }.sorted())
    }

    @Test(
        "XML escaping: markup characters escaped, characters XML 1.0 forbids replaced",
        arguments: [
            ("a & b", "a &amp; b"), ("<t x='1'>", "&lt;t x=&apos;1&apos;&gt;"), ("\"q\"", "&quot;q&quot;"),
            ("x\u{01}y\u{FFFE}", "x\u{FFFD}y\u{FFFD}"),
            ("tab\there\nline", "tab\there\nline"), ("한글", "한글"),
        ])
    func escaping(input: String, expected: String) {
        #expect(AtomFeed.escape(input) == expected)
    }
}
