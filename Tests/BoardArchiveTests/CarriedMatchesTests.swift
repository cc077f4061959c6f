import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// A re-encoded block carries its unchanged posts' keyword matches over and matches only its fresh posts.
@Suite struct CarriedMatchesTests {
    static let keywords = ["서울", "부산 회의", "release"].map { SearchKeyword(text: $0, slug: KeywordSelector.slug(for: $0)) }
    static let words = ["서울", "부산", "회의", "release", "notes", "일정", "서울시청", "회의실"]

    /// Post `id`, version `version`: a title and body drawn from `words` by the id and the version.
    static func document(_ id: Int, version: Int = 0) -> SearchDocument {
        let pick = { (salt: Int) in words[(id * 7 + version * 3 + salt) % words.count] }
        return SearchDocument(
            postId: id, boardId: 1, boardName: "자유게시판", title: "\(pick(0)) \(pick(5))", writer: "김민준",
            contents: "\(pick(1)) 그리고 \(pick(2))", createdDateTime: SiteFixture.now.addingTimeInterval(TimeInterval(id * 60)), postType: .normal)
    }

    /// What the block matcher finds in a block of `documents` read from its encoded files: the oracle.
    static func oracle(_ documents: [SearchDocument]) throws -> [String: [Int]] {
        let reader = try SearchIndexReader(files: try SearchIndexBuilder().makeSearchIndex(for: documents))
        var result: [String: [Int]] = [:]
        for keyword in keywords { result[keyword.slug] = try reader.positions(matching: keyword.text, target: .all, inBlock: "n0") }
        return result
    }

    static func record(_ documents: [SearchDocument], versions: [Int: Int], base: BuildDigest, matches: [String: [Int]] = [:]) -> SearchBlockRecord {
        SearchBlockRecord(
            id: "n0", postingBuckets: 1, files: [], postIds: documents.map(\.postId), created: documents.map { _ in 0 },
            hashes: documents.map { UInt64($0.postId * 100 + (versions[$0.postId] ?? 0)) }, boards: documents.map { _ in 1 }, matches: matches,
            base: base)
    }

    @Test("edited, new and gone posts: the carried matches equal the matcher's on the new block")
    func carriedEqualsTheMatcher() throws {
        var base = BuildDigest()
        base.add("search")
        let before = (1...40).map { Self.document($0) }
        let previous = Self.record(before, versions: [:], base: base, matches: try Self.oracle(before))
        // Posts 5 and 9 edited, post 3 gone (every later post moves up one place), post 41 new.
        var after = before.filter { $0.postId != 3 }.map { $0.postId == 5 || $0.postId == 9 ? Self.document($0.postId, version: 1) : $0 }
        after.append(Self.document(41))
        let versions = [5: 1, 9: 1]
        let record = Self.record(after, versions: versions, base: base)
        let carried = try #require(CarriedMatches(record: record, documents: after, previous: previous))
        #expect(carried.fresh.map(\.document.postId) == [5, 9, 41])
        let expected = try Self.oracle(after)
        #expect(expected.values.contains { !$0.isEmpty })
        #expect(carried.covers(Self.keywords))
        #expect(carried.positions(matching: Self.keywords, matcher: KeywordMatcher(keywords: Self.keywords.map(\.text))) == expected)
        // The edits change what matches, so a list that was only moved would differ.
        #expect(try Self.oracle(after.map { Self.document($0.postId) }) != expected)

        // Another digest base (a template, string or setting changed), too many fresh posts, or a keyword the previous
        // build did not match: nothing carries over.
        var other = base
        other.add("another")
        #expect(CarriedMatches(record: Self.record(after, versions: versions, base: other), documents: after, previous: previous) == nil)
        let rewritten = after.map { Self.document($0.postId, version: 2) }
        let allNew = Dictionary(uniqueKeysWithValues: after.map { ($0.postId, 2) })
        #expect(CarriedMatches(record: Self.record(rewritten, versions: allNew, base: base), documents: rewritten, previous: previous) == nil)
        let extra = SearchKeyword(text: "일정", slug: KeywordSelector.slug(for: "일정"))
        #expect(!carried.covers(Self.keywords + [extra]))
    }

    @Test("the block record keeps its digest base")
    func recordKeepsItsBase() throws {
        var base = BuildDigest()
        base.add("search")
        let record = Self.record([Self.document(1)], versions: [:], base: base, matches: ["k": [0]])
        #expect(SearchBlockRecord(id: "n0", data: record.encoded())?.base == base)
        var without = record
        without.base = nil
        #expect(SearchBlockRecord(id: "n0", data: without.encoded())?.base == nil)
    }
}
