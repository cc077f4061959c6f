import Foundation
import Testing

@testable import BoardArchive

@Suite("Site build")
struct SiteBuildTests {
    @Test("a build writes exactly the pages of the URL contract, plus assets and the marker")
    func expectedFiles() async throws {
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        let report = try await SiteFixture.build(try SiteFixture.store(), into: output)
        let files = Set(try SiteFixture.files(under: output).keys)
        var expected: Set<String> = ["index.html", ".boardarchive", "assets/site.css", "assets/site.js"]
        expected.formUnion(["boards/1/index.html", "boards/1/page-2.html", "boards/1/page-3.html", "boards/2/index.html", "boards/3/index.html"])
        expected.formUnion((101...161).map { "posts/\($0).html" })
        expected.formUnion((301...304).map { "posts/\($0).html" })
        let assets = Set(files.filter { $0.hasPrefix("assets/") })
        #expect(files.subtracting(assets) == expected.filter { !$0.hasPrefix("assets/") })
        #expect(assets.isSuperset(of: ["assets/site.css", "assets/site.js"]))
        #expect(report.written == files.count)
        #expect(report.unchanged == 0)
        #expect(report.files[.post] == 65)
        #expect(report.files[.board] == 5)
        #expect(report.files[.home] == 1)
    }
}
