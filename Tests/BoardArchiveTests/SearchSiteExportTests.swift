import BoardArchive
import FixtureAPI
import Foundation
import Logging
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Writes a searchable site for the benchmark and the browser checks; off unless `BOARDARCHIVE_SEARCH_SITE` names
/// a folder. The posts come from `BOARDARCHIVE_SEARCH_STORE` (an archive store, e.g. the demo's) or else from
/// `FixtureDataset.generated` with `BOARDARCHIVE_SEARCH_POSTS` posts over 10 boards (default 10,000).
/// `BOARDARCHIVE_SEARCH_TOP` sets the number of top keywords (default 20), `BOARDARCHIVE_SEARCH_KEYWORDS` extra
/// keywords (tab-separated). Also writes `sizes.json`: index size,
/// file count, and the bytes the Swift reader says the benchmark queries load.
@Suite struct SearchSiteExportTests {
    static let environment = ProcessInfo.processInfo.environment
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    /// (first query, later query) pairs measured by the benchmark.
    static let queries: [(first: (String, SearchTarget), later: (String, SearchTarget))] = [
        (("서울", .all), ("회의실", .all)),
        (("학교", .title), ("김민준", .writer)),
        (("release notes", .contents), ("초안", .all)),
        // Sparse and absent words: without the byte budget these read much of a large index.
        (("서울학교", .all), ("회의일정", .all)),
        (("서울", .writer), ("Swift release", .title)),
        (("없는검색어", .all), ("이", .all)),
        // Common two-letter words whose first page of hits is spread over the notices: rows and snippets to load.
        (("담당", .all), ("민준", .contents)),
    ]

    @Test(.enabled(if: environment["BOARDARCHIVE_SEARCH_SITE"] != nil)) func exportSearchableSite() throws {
        let root = URL(fileURLWithPath: try #require(Self.environment["BOARDARCHIVE_SEARCH_SITE"]), isDirectory: true)
        var boards: [Board]
        var posts: [Post] = []
        var now = Self.now
        if let storePath = Self.environment["BOARDARCHIVE_SEARCH_STORE"] {
            now = Date()
            let store = try ArchiveStore(path: storePath)
            boards = try store.boards()
            try store.forEachPost { posts.append($0) }
        } else {
            let count = Int(Self.environment["BOARDARCHIVE_SEARCH_POSTS"] ?? "") ?? 10_000
            let dataset = FixtureDataset.generated(boards: 10, postsPerBoard: count / 10, seed: 42, now: Self.now)
            boards = dataset.boards
            posts = dataset.posts
        }
        let top = Int(Self.environment["BOARDARCHIVE_SEARCH_TOP"] ?? "") ?? 20
        let keywords = (Self.environment["BOARDARCHIVE_SEARCH_KEYWORDS"] ?? "").split(separator: "\t").map(String.init)
        let configuration = BuildConfiguration(
            now: now, timeZone: TimeZone(identifier: "Asia/Seoul") ?? .current, keywords: keywords, topKeywords: top)
        func write(_ data: Data, _ path: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        let started = Date()
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let (files, report) = try SearchPhaseHarness.run(boards: boards, posts: posts, configuration: configuration, into: root)
        let indexFiles = files.filter { $0.key.hasPrefix("search/") }
        let seconds = Date().timeIntervalSince(started)
        for path in TemplateRenderer.assetPaths(in: SiteFixture.templatesDirectory.appendingPathComponent("assets")) {
            try write(
                try Data(contentsOf: SiteFixture.templatesDirectory.appendingPathComponent("assets").appendingPathComponent(path)), "assets/" + path)
        }
        var measured: [[String: Any]] = []
        for pair in Self.queries {
            let reader = try SearchIndexReader(files: indexFiles)
            let budget = SearchIndexReader.browserByteBudget
            let first = try reader.search(pair.first.0, target: pair.first.1, limit: 31, displayed: 30, byteBudget: budget)
            let later = try reader.search(pair.later.0, target: pair.later.1, limit: 31, displayed: 30, byteBudget: budget)
            measured.append([
                "first": pair.first.0, "firstTarget": pair.first.1.rawValue, "firstBytes": first.loadedBytes, "firstFiles": first.loadedPaths.count,
                "firstHits": first.hits.count, "firstPaused": first.paused, "laterPaused": later.paused, "later": pair.later.0,
                "laterTarget": pair.later.1.rawValue, "laterBytes": later.loadedBytes,
                "laterFiles": later.loadedPaths.count, "laterHits": later.hits.count, "firstPaths": first.loadedPaths,
                "laterPaths": later.loadedPaths,
            ])
        }
        let sizes: [String: Any] = [
            "posts": posts.count, "indexFiles": report.indexFiles, "indexBytes": indexFiles.values.reduce(0) { $0 + $1.count },
            "largestFile": indexFiles.values.map(\.count).max() ?? 0, "keywordPages": report.keywordPages, "phaseSeconds": seconds,
            "queries": measured,
        ]
        try JSONSerialization.data(withJSONObject: sizes, options: [.sortedKeys, .prettyPrinted]).write(to: root.appendingPathComponent("sizes.json"))
        #expect(indexFiles.values.allSatisfy { $0.count <= 1_000_000 })
    }
}
