import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

@Suite("Site build")
struct SiteBuildTests {
    @Test("a build writes exactly the pages of the URL contract, plus assets, search files and the marker")
    func expectedFiles() async throws {
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        let report = try await SiteFixture.build(try SiteFixture.store(), into: output)
        let files = Set(try SiteFixture.files(under: output).keys)
        var expected: Set<String> = [
            "index.html", ".boardarchive", "assets/site.css", "assets/site.js", "search.html", "keywords/index.html",
        ]
        expected.formUnion(["boards/1/index.html", "boards/1/page-2.html", "boards/1/page-3.html", "boards/2/index.html", "boards/3/index.html"])
        expected.formUnion(["feed.xml", "boards/1/feed.xml", "boards/2/feed.xml", "boards/3/feed.xml"])
        expected.formUnion((101...161).map { "posts/\($0).html" })
        expected.formUnion((301...304).map { "posts/\($0).html" })
        let assets = Set(files.filter { $0.hasPrefix("assets/") })
        // The search index is sharded (its file names are the index's business) and keyword pages are named by slug.
        let index = Set(files.filter { $0.hasPrefix("search/") })
        let keywordPages = Set(files.filter { $0.hasPrefix("keywords/k-") })
        #expect(files.subtracting(assets).subtracting(index).subtracting(keywordPages) == expected.filter { !$0.hasPrefix("assets/") })
        // The build's own state for the next build is beside the site, never in it: the manifest, the search blocks'
        // records and the search phase's choices.
        let stateFolder = output.deletingLastPathComponent().appendingPathComponent("site.boardarchive-state")
        let state = Set(try SiteFixture.files(under: stateFolder).keys)
        #expect(state.contains("manifest"))
        let stateFile = #/manifest|site-identity|cache/(search/[nt]\d+\.(txt|terms)|search-(directory|keywords|blocks)\.txt|pages\.txt)/#
        #expect(state.allSatisfy { (try? stateFile.wholeMatch(in: $0)) != nil }, "\(state.sorted())")
        #expect(!files.contains { $0.hasPrefix(".boardarchive-") })
        #expect(index.contains("search/manifest.js"))
        #expect(index.allSatisfy { $0.hasSuffix(".js") })
        #expect(keywordPages.allSatisfy { $0.range(of: #"^keywords/k-[0-9a-f]+(-page-[2-9][0-9]*)?\.html$"#, options: .regularExpression) != nil })
        #expect(assets.isSuperset(of: ["assets/site.css", "assets/site.js"]))
        // Every file but the manifest and the site's identity, which the publisher writes.
        #expect(report.written == files.count + state.count - 2)
        #expect(report.unchanged == 0)
        #expect(report.files[.post] == 65)
        #expect(report.files[.board] == 5)
        #expect(report.files[.feed] == 4)
        #expect(report.files[.home] == 1)
    }
}

@Suite("Replies across boards")
struct CrossBoardReplyTests {
    @Test("a reply in another board is listed on its parent's page, and links back to it")
    func replyInAnotherBoard() async throws {
        let reply = SiteFixture.post(700, board: 1, title: "다른 게시판의 답글", at: "2024-05-15T02:00:00Z", type: .reply, parent: 301)
        let store = try SiteFixture.store(posts: SiteFixture.posts + [reply])
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        try await SiteFixture.build(store, into: output)
        let parent = try SiteFixture.text("posts/301.html", in: output)
        let replies = try #require(parent.components(separatedBy: "<section class=\"replies\">").last)
        #expect(replies.contains("data-post-id=\"302\""), "the same-board reply is still listed")
        #expect(replies.contains("data-post-id=\"700\""), "the reply from board 1 is listed")
        #expect(replies.contains("href=\"../posts/700.html\""))
        let child = try SiteFixture.text("posts/700.html", in: output)
        #expect(child.contains("class=\"parent-post\"") && child.contains("href=\"../posts/301.html\""))
        #expect(try SiteLinkChecker.problems(in: output).isEmpty)
    }
}
