import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// What the site shows after a redaction: a tombstone at the post's address, the post gone from listings, links,
/// replies and search, writers anonymised, and a rebuild that rewrites only the files that showed the post.
@Suite("Redactions on the site")
struct RedactionSiteTests {
    static let when = SiteFixture.date("2024-05-14T15:30:00Z")

    /// Every published file under `root` (the build's own bookkeeping, `.boardarchive*`, aside) whose bytes contain `text`.
    static func files(under root: URL, containing text: String) throws -> [String] {
        try SiteFixture.files(under: root).filter { !$0.key.hasPrefix(".boardarchive") && $0.value.range(of: Data(text.utf8)) != nil }.keys
            .sorted()
    }

    @Test("a removed post's address shows a tombstone (Korean and English); listings, links and replies leave it", arguments: SiteLanguage.allCases)
    func tombstone(language: SiteLanguage) async throws {
        let store = try SiteFixture.store()
        try store.redact(RedactionRequest(target: .post(301), reason: "erasure request"), at: Self.when)
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        let report = try await SiteFixture.build(store, into: output, language: language)
        #expect(report.redacted == 1)
        let strings = SiteStrings(language: language)
        let tombstone = try SiteFixture.text("posts/301.html", in: output)
        #expect(tombstone.contains("<meta name=\"robots\" content=\"noindex\">"))
        #expect(tombstone.contains(strings["removedNotice"]))
        #expect(tombstone.contains("<time datetime=\"2024-05-14T15:30:00Z\">2024-05-15</time>"))  // the day in Seoul
        for hidden in ["표가 있는 글", "사과", "홍길동", "완료"] { #expect(!tombstone.contains(hidden), "\(hidden)") }
        let reply = try SiteFixture.text("posts/302.html", in: output)
        #expect(reply.contains(strings["parentRemoved"]))
        #expect(!reply.contains("301.html"))
        #expect(try Self.files(under: output, containing: "posts/301.html") == [])
        #expect(try Self.files(under: output, containing: "data-post-id=\"301\"") == ["posts/301.html"])
        #expect(try Self.files(under: output, containing: "사과") == [])
        let other = try SiteFixture.text("posts/101.html", in: output)
        #expect(!other.contains("noindex"))
    }

    @Test("a board redaction removes every post of the board: tombstones, an empty listing, zero on the home page")
    func boardRedaction() async throws {
        let store = try SiteFixture.store()
        try store.redact(RedactionRequest(target: .board(3), reason: "board closed"), at: Self.when)
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        let report = try await SiteFixture.build(store, into: output)
        #expect(report.redacted == 4)
        let listing = try SiteFixture.text("boards/3/index.html", in: output)
        #expect(!listing.contains("data-post-id="))
        #expect(listing.contains("글 0개"))
        for id in [301, 302, 303, 304] { #expect(try SiteFixture.text("posts/\(id).html", in: output).contains("name=\"robots\"")) }
        for text in ["표가 있는 글", "원글이 없는 답글", "공지: 질문 전에 읽어 주세요", "운영자"] {
            #expect(try Self.files(under: output, containing: text) == [], "\(text)")
        }
        #expect(try SiteFixture.text("posts/101.html", in: output).contains("<dd class=\"post-writer\">홍길동</dd>"))
    }

    @Test("--mode anonymize shows the anonymous label instead of the writer, everywhere")
    func anonymizedWriter() async throws {
        let store = try SiteFixture.store()
        try store.redact(RedactionRequest(target: .writer("운영자"), mode: .anonymize, reason: "left the company"), at: Self.when)
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        let report = try await SiteFixture.build(store, into: output)
        #expect(report.redacted == 0)
        #expect(try Self.files(under: output, containing: "운영자") == [])
        let page = try SiteFixture.text("posts/304.html", in: output)
        #expect(page.contains("<dd class=\"post-writer\">익명</dd>"))
        #expect(page.contains("공지: 질문 전에 읽어 주세요"))
    }

    @Test("the site never publishes a writer's email address")
    func noEmailAddresses() async throws {
        let posts = SiteFixture.posts.map { post -> Post in
            var post = post
            post.writer.emailAddress = "writer\(post.postId)@mail.example"
            post.writer.profileImage = "https://img.example/\(post.postId).png"
            return post
        }
        let store = try SiteFixture.store(posts: posts)
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        try await SiteFixture.build(store, into: output)
        #expect(try Self.files(under: output, containing: "@mail.example") == [])
        #expect(try Self.files(under: output, containing: "img.example") == [])
        #expect(try SiteFixture.files(under: output).count > 60)
    }

    @Test("a redaction rewrites only the files that showed the post, and counts it in the build report")
    func boundedRebuild() async throws {
        let root = try SiteFixture.temporaryDirectory()
        let store = try SiteFixture.store()
        let output = root.appendingPathComponent("site")
        try await IncrementalBuildTests.build(store, IncrementalBuildTests.Inputs(), into: output)
        let before = try SiteFixture.filesWithState(under: output)
        let stamps = try PublishTests.stamps(under: output)
        // Post 150 sits on board 1's oldest archive page (page-2.html) between 151 (newer) and 149 (older).
        #expect(before["boards/1/page-2.html"].map { String(decoding: $0, as: UTF8.self).contains("data-post-id=\"150\"") } == true)
        try store.redact(RedactionRequest(target: .post(150), reason: "mistake"), at: Self.when)
        let report = try await IncrementalBuildTests.build(store, IncrementalBuildTests.Inputs(), into: output)
        let after = try SiteFixture.filesWithState(under: output)
        #expect(Set(after.keys).isSubset(of: before.keys))
        let changed = Set(before.keys).filter { before[$0] != after[$0] }
        let pages = changed.filter { !$0.hasPrefix("search/") && !$0.hasPrefix("keywords/") && !$0.hasPrefix(".boardarchive") }
        #expect(
            pages.sorted()
                == [
                    "boards/1/feed.xml", "boards/1/index.html", "boards/1/page-2.html", "index.html", "posts/149.html", "posts/150.html",
                    "posts/151.html",
                ])
        // The search index changed in the one block that held the post.
        let blocks = Set(changed.filter { $0.hasPrefix("search/") && $0.split(separator: "/").count == 3 }.map { $0.split(separator: "/")[1] })
        #expect(blocks.count == 1, "\(blocks)")
        // The post keeps its place in each keyword list that held it: of the keyword pages, only the page that held
        // it changed, with its keyword's front page (the count) and the keyword index; no keyword page moved or went.
        var expected: Set<String> = ["keywords/index.html"]
        var deep = 0
        for (path, data) in before where path.hasPrefix("keywords/k-") && String(decoding: data, as: UTF8.self).contains("posts/150.html") {
            let slug = String(path.dropFirst("keywords/".count).split(separator: ".")[0]).replacingOccurrences(
                of: #"-page-\d+$"#, with: "", options: .regularExpression)
            expected.formUnion([path, "keywords/\(slug).html"])
            // Pages of the keyword newer than the one that held the post: they would have moved without its place.
            if let page = Int(path.split(separator: "-").last?.split(separator: ".").first ?? ""),
                before.keys.contains("keywords/\(slug)-page-\(page + 1).html")
            {
                deep += 1
            }
        }
        #expect(deep > 0, "the fixture should list post 150 under a keyword page with newer pages")
        #expect(changed.filter { $0.hasPrefix("keywords/") } == expected)
        // The report counts what changed; every other file kept its bytes and its modification time.
        #expect(report.redacted == 1)
        let bookkeeping = changed.filter { $0 == SiteManifest.path }
        #expect(report.written + report.removed == changed.count - bookkeeping.count, "\(changed.sorted())")
        // No file appeared; the block that held the post lost its last position, so exactly one file went: the head of
        // the post now past the block's end (`search/<block>/c<group>-<index>.js`).
        #expect(Set(after.keys).isSubset(of: Set(before.keys)))
        let gone = Set(before.keys).subtracting(after.keys)
        #expect(gone.count == 1, "\(gone.sorted())")
        #expect(gone.allSatisfy { $0.wholeMatch(of: #/search/[nt]\d+/c\d+-\d+\.js/#) != nil && blocks.contains($0.split(separator: "/")[1]) })
        let stampsAfter = try PublishTests.stamps(under: output)
        for path in after.keys where !changed.contains(path) { #expect(stampsAfter[path] == stamps[path], "\(path)") }
    }

    @Test("--pseudonymize-writers: one stable pseudonym per writer on every page and in search, none of the names")
    func pseudonyms() async throws {
        let store = try SiteFixture.store()
        let root = try SiteFixture.temporaryDirectory()
        func build(_ name: String, key: String) async throws -> URL {
            let output = root.appendingPathComponent(name)
            var configuration = IncrementalBuildTests.configuration(IncrementalBuildTests.Inputs(), output: output)
            configuration.pseudonymKey = Data(key.utf8)
            try await SiteBuilder(configuration: configuration, store: store, logger: .init(label: "test")).build()
            return output
        }
        let first = try await build("first", key: "first key, 32 bytes of secret!!")
        let again = try await build("again", key: "first key, 32 bytes of secret!!")
        let other = try await build("other", key: "another key, also long enough..")
        let pseudonyms = try #require(WriterPseudonyms(key: Data("first key, 32 bytes of secret!!".utf8), label: "작성자"))
        let hong = pseudonyms.pseudonym(for: "홍길동")
        #expect(hong.range(of: #"^작성자 [0-9a-f]{10}$"#, options: .regularExpression) != nil)
        #expect(hong == pseudonyms.pseudonym(for: " 홍길동 "))
        #expect(hong != pseudonyms.pseudonym(for: "운영자"))
        for name in ["홍길동", "운영자"] { #expect(try Self.files(under: first, containing: name) == []) }
        #expect(try SiteFixture.text("posts/101.html", in: first).contains("<dd class=\"post-writer\">\(hong)</dd>"))
        #expect(try SiteFixture.text("boards/1/index.html", in: first).contains(hong))
        #expect(try !Self.files(under: first, containing: hong).filter { $0.hasPrefix("search/") }.isEmpty)
        #expect(try SiteFixture.files(under: first) == SiteFixture.files(under: again))
        #expect(try Self.files(under: other, containing: hong) == [])
        #expect(WriterPseudonyms(key: Data("short".utf8), label: "x") == nil)
    }
}
