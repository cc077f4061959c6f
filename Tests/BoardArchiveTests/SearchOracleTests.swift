import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The index's answers equal the brute-force scan for thousands of posts, hundreds of queries and every target.
@Suite struct SearchOracleTests {
    static let documents = SearchTestCorpus.documents(count: 5_000, seed: 20_240_601)
    static let queries = SearchTestCorpus.queries(count: 400, seed: 99, from: documents)

    /// Small blocks and shards so the corpus spans many blocks, buckets and contents pieces: most posts' contents are
    /// cut into pieces (a few hundred bytes each), so verifying a word and settling a snippet read them one by one.
    static let configuration = SearchIndexConfiguration(
        blockSize: 700, postingShardTargetBytes: 4_000, metaShardSize: 8, contentsShardTargetBytes: 300)

    @Test(arguments: SearchTarget.allCases)
    func indexEqualsOracle(target: SearchTarget) throws {
        let files = try SearchIndexBuilder(configuration: Self.configuration).makeSearchIndex(for: Self.documents)
        let reader = try SearchIndexReader(files: files)
        let oracle = SearchOracle(documents: Self.documents)
        var nonEmpty = 0
        for (index, query) in Self.queries.enumerated() {
            let boardId: Int? = index % 5 == 0 ? SearchTestCorpus.boards[index % SearchTestCorpus.boards.count].0 : nil
            let expected = oracle.search(query, target: target, boardId: boardId)
            let outcome = try reader.search(query, target: target, boardId: boardId)
            let found = try outcome.hits.map(reader.postId(of:))
            #expect(found == expected, "query \(query.debugDescription) target \(target) board \(String(describing: boardId))")
            if !expected.isEmpty { nonEmpty += 1 }
        }
        // The corpus must exercise the index: most queries find something, some find nothing.
        #expect(nonEmpty > (target == .writer ? 10 : Self.queries.count / 2))
        #expect(nonEmpty < Self.queries.count)
    }

    /// The build's keyword matcher, on each block's documents in memory, finds what the index's block matcher finds
    /// in the written files.
    @Test func keywordMatcherEqualsTheIndex() throws {
        let files = try SearchIndexBuilder(configuration: Self.configuration).makeSearchIndex(for: Self.documents)
        let reader = try SearchIndexReader(files: files)
        // Also words that NFKC cuts with a space (`¨` → space + U+0308), and one that normalises to nothing.
        let queries = Array(Self.queries.prefix(120)) + ["서울", "ＳＥＲＶＥＲ", "a", "  ", "¨", "a¨b", "´", "서¨울"]
        let matcher = KeywordMatcher(keywords: queries)
        var found = 0
        for block in SearchIndexBuilder.blocks(of: Self.documents, size: Self.configuration.blockSize) {
            for (query, positions) in zip(queries, matcher.positions(in: block.documents)) {
                #expect(positions == (try reader.positions(matching: query, target: .all, inBlock: block.id)), "\(query) in \(block.id)")
                found += positions.count
            }
        }
        #expect(found > 1_000)
    }

    @Test func pagedSearchReturnsTheFirstPageOfTheFullAnswer() throws {
        let files = try SearchIndexBuilder(configuration: Self.configuration).makeSearchIndex(for: Self.documents)
        let oracle = SearchOracle(documents: Self.documents)
        for query in ["서울", "회의", "a", "Server 학", "ＳＥＲＶＥＲ"] {
            let reader = try SearchIndexReader(files: files)
            let page = try reader.search(query, target: .all, limit: 31, displayed: 30)
            let expected = oracle.search(query, target: .all)
            #expect(try page.hits.map(reader.postId(of:)) == Array(expected.prefix(31)))
            #expect(page.stoppedEarly || expected.count <= 31)
            #expect(!page.stoppedEarly || expected.count >= 31)
        }
    }

    @Test func indexBytesAreDeterministic() throws {
        let builder = SearchIndexBuilder(configuration: Self.configuration)
        let documents = Array(Self.documents.prefix(1_500))
        #expect(try builder.makeSearchIndex(for: documents) == builder.makeSearchIndex(for: documents.reversed()))
    }
}
