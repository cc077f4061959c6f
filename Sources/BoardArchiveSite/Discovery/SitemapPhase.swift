import BoardArchiveModel
import BoardArchiveRender
import Foundation

/// The discovery files of a site with a base URL: `sitemap.xml` (a sitemap index with `sitemaps/<n>.xml` beyond
/// 50,000 pages) and `robots.txt`.
///
/// Runs last, once every page is declared: the sitemap lists every HTML page the build produces except
/// `search.html` (whose results need a query) and pages marked `noindex` (tombstones, earlier versions). With `noindex` for the whole site there is
/// no sitemap, and `robots.txt` lets crawlers in so that they see the pages' `noindex`.
struct SitemapPhase: Sendable {
    let output: SiteOutput
    let base: BuildDigest
    /// Where the site is published, ending in `/`.
    let baseURL: URL
    /// Whether the whole site asks not to be indexed.
    let noindex: Bool
    /// Pages the sitemap leaves out besides `search.html`.
    var excluded: Set<String> = []

    /// Addresses per sitemap file: the sitemap protocol's limit, 50,000 (tests use fewer).
    var pagesPerFile = 50_000
    static let sitemapPath = "sitemap.xml"
    static let robotsPath = "robots.txt"

    /// Declares and, when changed, writes the sitemap files and `robots.txt`.
    func run() throws {
        var robots = "User-agent: *\nAllow: /\n"
        if !noindex {
            try writeSitemaps()
            robots += "Sitemap: \(address(of: Self.sitemapPath))\n"
        }
        try output.writeVerbatim(Data(robots.utf8), to: Self.robotsPath)
    }

    /// The absolute address of a site path, its characters percent-encoded where a URL needs it.
    func address(of path: String) -> String {
        baseURL.absoluteString + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
    }

    private func writeSitemaps() throws {
        let pages = output.producedPaths {
            $0.hasSuffix(".html") && $0 != SitePaths.search && !excluded.contains($0) && !SitePaths.isVersion($0)
        }.sorted()
        if pages.count <= pagesPerFile {
            try write(urlset: pages, to: Self.sitemapPath)
            return
        }
        var files: [String] = []
        for (index, start) in stride(from: 0, to: pages.count, by: pagesPerFile).enumerated() {
            let path = "sitemaps/\(index + 1).xml"
            files.append(path)
            try write(urlset: Array(pages[start..<min(start + pagesPerFile, pages.count)]), to: path)
        }
        let digest = SitemapInput(isIndex: true, baseURL: baseURL.absoluteString, entries: files).digest(base: base)
        guard try output.needsRendering(Self.sitemapPath, digest: digest) else { return }
        var xml = Self.header + #"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"# + "\n"
        for file in files { xml += "<sitemap><loc>\(AtomFeed.escape(address(of: file)))</loc></sitemap>\n" }
        xml += "</sitemapindex>\n"
        try output.write(xml, to: Self.sitemapPath)
    }

    private func write(urlset pages: [String], to path: String) throws {
        let digest = SitemapInput(isIndex: false, baseURL: baseURL.absoluteString, entries: pages).digest(base: base)
        guard try output.needsRendering(path, digest: digest) else { return }
        var xml = Self.header + #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"# + "\n"
        for page in pages { xml += "<url><loc>\(AtomFeed.escape(address(of: page)))</loc></url>\n" }
        xml += "</urlset>\n"
        try output.write(xml, to: path)
    }

    private static let header = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n"
}
