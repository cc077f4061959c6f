import Foundation
import Testing

@testable import BoardArchive

@Suite("Site build")
struct SiteBuildTests {
    @Test("a build writes exactly the pages of the URL contract, plus assets, search files and the marker")
    func expectedFiles() async throws {
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        let report = try await SiteFixture.build(try SiteFixture.store(), into: output)
        let files = Set(try SiteFixture.files(under: output).keys)
        var expected: Set<String> = ["index.html", ".boardarchive", "assets/site.css", "assets/site.js", "search.html", "keywords/index.html"]
        expected.formUnion(["boards/1/index.html", "boards/1/page-2.html", "boards/1/page-3.html", "boards/2/index.html", "boards/3/index.html"])
        expected.formUnion((101...161).map { "posts/\($0).html" })
        expected.formUnion((301...304).map { "posts/\($0).html" })
        let assets = Set(files.filter { $0.hasPrefix("assets/") })
        // The search index is sharded (its file names are the index's business) and keyword pages are named by slug.
        let index = Set(files.filter { $0.hasPrefix("search/") })
        let keywordPages = Set(files.filter { $0.hasPrefix("keywords/k-") })
        #expect(files.subtracting(assets).subtracting(index).subtracting(keywordPages) == expected.filter { !$0.hasPrefix("assets/") })
        #expect(index.contains("search/manifest.js"))
        #expect(index.allSatisfy { $0.hasSuffix(".js") })
        #expect(keywordPages.allSatisfy { $0.range(of: #"^keywords/k-[0-9a-f]+(-page-[2-9][0-9]*)?\.html$"#, options: .regularExpression) != nil })
        #expect(assets.isSuperset(of: ["assets/site.css", "assets/site.js"]))
        #expect(report.written == files.count)
        #expect(report.unchanged == 0)
        #expect(report.files[.post] == 65)
        #expect(report.files[.board] == 5)
        #expect(report.files[.home] == 1)
    }
}
