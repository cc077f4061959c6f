import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Exports a generated index, its queries and the oracle's answers for `Benchmarks/search/engine-check.js`,
/// which runs `search.js` on them under Node: every query's hits (brute force), and what the first run of the search
/// page reads on a cold index (``SearchIndexReader`` with the page's limit and a small byte budget) and whether it pauses.
/// Off unless `BOARDARCHIVE_SEARCH_EXPORT` names a folder.
@Suite struct SearchExportTests {
    static let folder = ProcessInfo.processInfo.environment["BOARDARCHIVE_SEARCH_EXPORT"]
    /// The byte budget of the first runs: smaller than the page's, so this small index makes many of them pause
    /// (`engine-check.js` sets the same).
    static let firstRunBudget = 32_000

    @Test(.enabled(if: folder != nil)) func exportIndexQueriesAndAnswers() throws {
        let root = URL(fileURLWithPath: try #require(Self.folder), isDirectory: true)
        let documents = SearchTestCorpus.documents(count: 5_000, seed: 20_240_601)
        let files = try SearchIndexBuilder(configuration: SearchOracleTests.configuration).makeSearchIndex(for: documents)
        for (path, data) in files {
            let url = root.appendingPathComponent("site").appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        let oracle = SearchOracle(documents: documents)
        var queries: [[String: Any]] = []
        var answers: [[Int]] = []
        var firstRuns: [[String: Any]] = []
        for (index, query) in SearchOracleTests.queries.enumerated() {
            for target in SearchTarget.allCases {
                let board: Int? = index % 5 == 0 ? SearchTestCorpus.boards[index % SearchTestCorpus.boards.count].0 : nil
                queries.append(["q": query, "target": target.rawValue, "board": board.map { $0 as Any } ?? NSNull()])
                answers.append(oracle.search(query, target: target, boardId: board))
                let first = try SearchIndexReader(files: files).search(
                    query, target: target, boardId: board, limit: 31, displayed: 30, byteBudget: Self.firstRunBudget)
                firstRuns.append(["read": first.loadedPaths.filter { $0 != SearchIndexBuilder.manifestPath }, "paused": first.paused])
            }
        }
        try JSONSerialization.data(withJSONObject: queries).write(to: root.appendingPathComponent("queries.json"))
        try JSONSerialization.data(withJSONObject: answers).write(to: root.appendingPathComponent("expected.json"))
        try JSONSerialization.data(withJSONObject: firstRuns).write(to: root.appendingPathComponent("first-runs.json"))
    }
}
