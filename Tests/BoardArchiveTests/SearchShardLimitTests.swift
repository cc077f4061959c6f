import Foundation
import Testing

@testable import BoardArchive

/// The shard limits hold on a large generated archive: no file over 1 MB, a small first query.
@Suite struct SearchShardLimitTests {
    static let documents = SearchTestCorpus.documents(count: 20_000, seed: 4_242)
    /// Queries a reader types first: common words, a substring, an English word, two words, a rare word.
    static let firstQueries: [(String, SearchTarget)] = [
        ("서울", .all), ("회의", .all), ("학교", .title), ("울시", .all), ("서울시청", .all), ("Server", .all), ("회의 자료", .all),
        ("주차장", .contents), ("김민준", .writer), ("대한민국", .all), ("없는단어", .all), ("배", .all),
    ]

    @Test func filesStayUnderTheCapAndFirstQueriesStaySmall() throws {
        let files = try SearchIndexBuilder().makeSearchIndex(for: Self.documents)
        let largest = try #require(files.max { $0.value.count < $1.value.count })
        #expect(largest.value.count <= 1_000_000, "\(largest.key) has \(largest.value.count) bytes")
        #expect(files.keys.allSatisfy { $0.hasPrefix("search/") && $0.hasSuffix(".js") })
        for (query, target) in Self.firstQueries {
            let reader = try SearchIndexReader(files: files)
            let outcome = try reader.search(query, target: target, limit: 31, displayed: 30)
            var kinds: [String: Int] = [:]
            for path in outcome.loadedPaths {
                let kind = path.split(separator: "/").last.map { String($0.prefix(1)) } ?? "?"
                kinds[kind, default: 0] += files[path]?.count ?? 0
            }
            // The manifest grows by about 20 bytes per 2,048-post block; everything else a first query loads does
            // not depend on the archive's size, so 20k posts must leave the 100k headroom: 150 kB − 1 kB.
            #expect(
                outcome.loadedBytes <= 149_000, "\(query)/\(target) loaded \(outcome.loadedBytes) bytes by kind \(kinds.sorted { $0.key < $1.key })")
            #expect(outcome.hits.count == (query == "없는단어" ? 0 : 31))
        }
    }
}

@Suite struct SearchLargePostTests {
    @Test func hugeContentsIsSplitAcrossFilesAndStillFound() throws {
        let line = String(repeating: "가나다라마바사 \"quote\" back\\slash\n", count: 60_000)  // about 2.4 MB escaped
        let documents = [
            SearchDocument(
                postId: 1, boardId: 1, boardName: "b", title: "huge", writer: "w", contents: line + "끝말잇기",
                createdDateTime: Date(timeIntervalSince1970: 0)),
            SearchDocument(
                postId: 2, boardId: 1, boardName: "b", title: "small", writer: "w", contents: "끝말", createdDateTime: Date(timeIntervalSince1970: 1)),
        ]
        let files = try SearchIndexBuilder().makeSearchIndex(for: documents)
        #expect(files.values.allSatisfy { $0.count <= 1_000_000 })
        #expect(files.keys.filter { $0.contains("/c") }.count >= 3)
        let reader = try SearchIndexReader(files: files)
        #expect(try reader.search("끝말잇기", target: .contents).hits.map(reader.postId(of:)) == [1])
        #expect(try reader.search("끝말", target: .contents).hits.map(reader.postId(of:)) == [2, 1])
        #expect(try reader.search("잇기 quote", target: .all).hits.map(reader.postId(of:)) == [1])
    }
}
