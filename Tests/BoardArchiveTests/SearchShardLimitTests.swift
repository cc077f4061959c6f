import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The shard limits hold on a large generated archive: no file over 1 MB, and a first query (whatever it is) loads
/// under 150 kB, because a run of the search pauses once it has loaded its byte budget.
@Suite struct SearchShardLimitTests {
    static let documents = SearchTestCorpus.documents(count: 20_000, seed: 4_242)
    /// Queries a reader types first: common words, a substring, an English word, two words, a rare word, and words
    /// whose pieces are common but never adjacent or never together (these read the most without a budget).
    static let firstQueries: [(String, SearchTarget)] = [
        ("서울", .all), ("회의", .all), ("학교", .title), ("울시", .all), ("서울시청", .all), ("Server", .all), ("회의 자료", .all),
        ("주차장", .contents), ("김민준", .writer), ("대한민국", .all), ("없는단어", .all), ("배", .all), ("서울학교", .all),
        ("회의일정", .all), ("서울", .writer), ("Swift release", .title), ("서울 김민준", .contents), ("e", .writer),
    ]
    static let files: [String: Data] = (try? SearchIndexBuilder().makeSearchIndex(for: documents)) ?? [:]

    @Test func filesStayUnderTheCap() throws {
        let largest = try #require(Self.files.max { $0.value.count < $1.value.count })
        #expect(largest.value.count <= 1_000_000, "\(largest.key) has \(largest.value.count) bytes")
        #expect(Self.files.keys.allSatisfy { $0.hasPrefix("search/") && $0.hasSuffix(".js") })
    }

    @Test(arguments: firstQueries)
    func aFirstQueryStaysUnder150kB(query: String, target: SearchTarget) throws {
        let reader = try SearchIndexReader(files: Self.files)
        let outcome = try reader.search(query, target: target, limit: 31, displayed: 30, byteBudget: SearchIndexReader.browserByteBudget)
        var kinds: [String: Int] = [:]
        for path in outcome.loadedPaths {
            let kind = path.split(separator: "/").last.map { String($0.prefix(1)) } ?? "?"
            kinds[kind, default: 0] += Self.files[path]?.count ?? 0
        }
        // The manifest grows by about 20 bytes per 2,048-post block (1 kB more at 100k posts): 150 kB − 1 kB.
        #expect(outcome.loadedBytes <= 149_000, "\(query)/\(target) loaded \(outcome.loadedBytes) bytes by kind \(kinds.sorted { $0.key < $1.key })")
        // Paused or not, what it found is the start of the full answer.
        let full = try SearchIndexReader(files: Self.files).search(query, target: target).hits
        #expect(Array(full.prefix(outcome.hits.count)) == outcome.hits, "\(query)/\(target)")
        if !outcome.paused && !outcome.stoppedEarly { #expect(outcome.hits == full, "\(query)/\(target)") }
        if outcome.hits.count < 31 && outcome.hits.count < full.count { #expect(outcome.paused, "\(query)/\(target) stopped short unpaused") }
    }

    @Test func aTinyBudgetPausesAtOnceAndStillAnswersAPrefix() throws {
        let full = try SearchIndexReader(files: Self.files).search("서울시청", target: .all).hits
        let outcome = try SearchIndexReader(files: Self.files).search("서울시청", target: .all, byteBudget: 1)
        #expect(outcome.paused)
        #expect(outcome.hits.count < full.count)
        #expect(Array(full.prefix(outcome.hits.count)) == outcome.hits)
    }

    /// The index of `posts` posts in blocks of 4: "공통회의" in every post, "드문단어" in the oldest only.
    static func rareWordIndex(posts: Int) throws -> [String: Data] {
        let documents = (0..<posts).map { index in
            SearchDocument(
                postId: index + 1, boardId: 1, boardName: "b", title: "공통회의 \(index)", writer: "w",
                contents: index == 0 ? "드문단어" : "본문 \(index)", createdDateTime: Date(timeIntervalSince1970: Double(index)))
        }
        return try SearchIndexBuilder(configuration: SearchIndexConfiguration(blockSize: 4)).makeSearchIndex(for: documents)
    }

    /// A query whose words every block holds reads its blocks one after another, never the block directory; the
    /// directory is read once a full block gives no hit, and then skips the blocks that lack a token.
    @Test func theDirectoryIsReadOnceABlockGivesNoHit() throws {
        // Blocks of 4 posts, newest first: n3, n2, n1, n0.
        let files = try Self.rareWordIndex(posts: 16)
        let directory = "search/" + SearchIndexFormat.directoryShard
        let common = try SearchIndexReader(files: files).search("공통회의", target: .all)
        #expect(common.hits.count == 16)
        #expect(!common.loadedPaths.contains { $0.hasPrefix(directory) }, "\(common.loadedPaths)")
        let rare = try SearchIndexReader(files: files).search("드문단어", target: .all)
        #expect(rare.hits.count == 1)
        #expect(rare.loadedPaths.contains { $0.hasPrefix(directory) }, "\(rare.loadedPaths)")
        let blocksRead = Set(rare.loadedPaths.filter { $0.contains(SearchIndexFormat.postingShard) }.map { $0.split(separator: "/")[1] })
        #expect(blocksRead == ["n3", "n0"], "the newest block, then the one the directory names: \(blocksRead.sorted())")
    }

    /// A block smaller than a full one (the newest, partial block) without a hit is not enough to read the directory:
    /// the next block is read first, and the directory only once a full block's posts had no hit.
    @Test func aPartialBlockWithoutAHitReadsTheNextBlockBeforeTheDirectory() throws {
        // Blocks of 4 posts, newest first: n3 (2 posts), n2, n1, n0.
        let files = try Self.rareWordIndex(posts: 14)
        #expect(try SearchIndexReader(files: files).fullBlock == 4)
        let directory = "search/" + SearchIndexFormat.directoryShard
        let rare = try SearchIndexReader(files: files).search("드문단어", target: .all)
        #expect(rare.hits.count == 1)
        #expect(rare.loadedPaths.contains { $0.hasPrefix(directory) }, "\(rare.loadedPaths)")
        let blocksRead = Set(rare.loadedPaths.filter { $0.contains(SearchIndexFormat.postingShard) }.map { $0.split(separator: "/")[1] })
        #expect(blocksRead == ["n3", "n2", "n0"], "the partial block, a full one, then the one the directory names: \(blocksRead.sorted())")
    }

    @Test func theManifestHandsTheBrowserTheLayoutAndBudget() throws {
        let manifest = try #require(Self.files[SearchIndexBuilder.manifestPath].flatMap(SearchScript.unwrap))
        let object = try #require(try JSONSerialization.jsonObject(with: manifest.json) as? [String: Any])
        let layout = try #require(object["layout"] as? [String: Any])
        #expect(layout["budget"] as? Int == SearchIndexReader.browserByteBudget)
        let estimates = try #require(layout["estimates"] as? [String: Int])
        #expect(estimates == Dictionary(uniqueKeysWithValues: SearchRecordLayout.FileKind.allCases.map { ("\($0)", $0.estimate) }))
        let meta = try #require(layout["meta"] as? [String: Int])
        #expect(meta.count == SearchRecordLayout.Meta.allCases.count)
        for field in SearchRecordLayout.Meta.allCases { #expect(meta["\(field)"] == field.rawValue) }
        #expect(layout["postings"] as? [String: Int] == ["title": 0, "contents": 1, "writer": 2])
        // A record the encoder wrote, read by the layout's names, is the post it describes.
        let reader = try SearchIndexReader(files: Self.files)
        let record = try reader.meta(blockIndex: 0, position: 0, viaHead: false)
        #expect(record.count == meta.count)
        // The post's head holds the same record.
        #expect(try reader.meta(blockIndex: 0, position: 0, viaHead: true).map { "\($0)" } == record.map { "\($0)" })
        let postId = try #require(record[meta["postId"] ?? -1] as? Int)
        let document = try #require(Self.documents.first { $0.postId == postId })
        #expect(record[meta["title"] ?? -1] as? String == document.title)
        #expect(record[meta["writer"] ?? -1] as? String == document.writer)
        // The browser has no layout or budget of its own.
        let script = try String(contentsOf: SiteFixture.templatesDirectory.appendingPathComponent("assets/search.js"), encoding: .utf8)
        #expect(script.firstMatch(of: #/record\[\d/#) == nil)
        for number in [SearchIndexReader.browserByteBudget] + SearchRecordLayout.FileKind.allCases.map(\.estimate) {
            #expect(script.firstMatch(of: try Regex("\\b\(number)\\b")) == nil, "search.js has \(number) of its own")
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

    /// A long post is cut into pieces of about the contents target, only between code points that stand alone; where
    /// none comes before the hard limit, the cut is made anyway and the piece says so.
    @Test func contentsAreCutWhereNoRuleJoinsTheTwoSides() {
        var seed: UInt64 = 11
        for round in 0..<200 {
            let words = (0..<(20 + round)).map { _ in SearchHighlighterTests.randomText(&seed, length: 12) }
            let text = words.joined(separator: round % 2 == 0 ? " " : "")
            let pieces = SearchBlockEncoder.pieces(of: text, target: 64, limit: 4_096)
            #expect(pieces.map(\.text).joined() == text)
            for (piece, next) in zip(pieces, pieces.dropFirst()) {
                let (last, first) = (piece.text.unicodeScalars.last, next.text.unicodeScalars.first)
                if let last, let first, piece.clean {
                    #expect(SearchBlockEncoder.isCleanCut(between: last, and: first), "\(last.value) | \(first.value)")
                    // Normalising and clustering the two sides apart gives the whole's.
                    let apart = TextNormalizer.normalize(piece.text) + TextNormalizer.normalize(next.text)
                    #expect(apart == TextNormalizer.normalize(piece.text + next.text))
                    #expect(piece.text.count + next.text.count == (piece.text + next.text).count)
                }
            }
        }
        // Combining marks all the way: no clean place, cut at the limit and marked.
        let marks = "e" + String(repeating: "\u{301}", count: 3_000)
        let forced = SearchBlockEncoder.pieces(of: marks, target: 64, limit: 1_000)
        #expect(forced.count > 1 && !forced[0].clean && forced.last?.clean == true)
        #expect(forced.map(\.text).joined() == marks)
    }

    /// A result row reads its post's contents only until its snippet is settled: a long post whose first match is
    /// near its start costs its first piece, not the whole post; a word only at its end costs every piece.
    @Test func aRowReadsItsContentsOnlyUntilItsSnippetIsSettled() throws {
        let filler = String(repeating: "회의 자료를 정리했습니다. ", count: 400)  // about 14 kB
        let documents = [
            SearchDocument(
                postId: 1, boardId: 1, boardName: "b", title: "t", writer: "w", contents: "첫머리에 서울시청 이야기. " + filler + "끝에 부산역",
                createdDateTime: Date(timeIntervalSince1970: 0))
        ]
        let files = try SearchIndexBuilder().makeSearchIndex(for: documents)
        let pieces = files.keys.filter { $0.contains("/c") }
        #expect(pieces.count >= 5, "\(pieces.sorted())")
        let early = try SearchIndexReader(files: files).search("서울시청", target: .contents, limit: 31, displayed: 30)
        #expect(early.hits.count == 1)
        #expect(early.loadedPaths.filter { $0.contains("/c") } == ["search/n0/c0-0.js"], "\(early.loadedPaths)")
        let late = try SearchIndexReader(files: files).search("부산역", target: .contents, limit: 31, displayed: 30)
        #expect(late.hits.count == 1)
        #expect(Set(late.loadedPaths.filter { $0.contains("/c") }) == Set(pieces))
    }

    @Test func aTextCostsWhatItsCodePointsCost() {
        var seed: UInt64 = 5
        for round in 0..<300 {
            let text = SearchHighlighterTests.randomText(&seed, length: round % 50) + (round % 3 == 0 ? "\u{2028}x\u{2029}\\\u{7F}" : "")
            #expect(SearchBlockEncoder.literalCost(of: text) == text.unicodeScalars.reduce(0) { $0 + SearchBlockEncoder.literalCost(of: $1) })
        }
    }
}
