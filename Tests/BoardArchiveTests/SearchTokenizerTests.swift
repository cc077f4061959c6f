import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

@Suite struct SearchTokenizerTests {
    func tokens(of text: String) -> Set<String> {
        var keys = Set<UInt64>()
        SearchTokenizer.addGramKeys(ofNormalized: TextNormalizer.normalize(text), to: &keys)
        return Set(keys.map(SearchTokenizer.token(for:)))
    }

    @Test func indexesUnigramsAndBigramsWithinWords() {
        #expect(tokens(of: "서울 시청") == ["서", "울", "시", "청", "서울", "시청"])
        #expect(tokens(of: "ＡＢ") == ["a", "b", "ab"])
        #expect(tokens(of: "서울".decomposedStringWithCanonicalMapping) == ["서", "울", "서울"])
        #expect(tokens(of: "👍🏻") == ["👍", "🏻", "👍🏻"])
        #expect(tokens(of: " \t\n ").isEmpty)
    }

    @Test(arguments: [
        ("서울시청", ["서울", "울시", "시청"], false),
        ("대한민국만세", ["대한", "한민", "민국", "국만", "만세"], false),
        ("서울학교", ["서울", "울학", "학교"], false),
        ("회의실", ["회의", "의실"], false),
        ("서울", ["서울"], true),
        ("서", ["서"], true),
        ("ＳＥＯＵＬ", ["se", "eo", "ou", "ul"], false),
        ("¨", ["\u{308}"], false),
        ("👍🏻", ["👍🏻"], true),
    ])
    func plansQueryWords(word: String, expected: [String], exact: Bool) {
        let plan = SearchQueryPlan.plans(for: word)
        #expect(plan.count == 1)
        #expect(Set(plan.first?.tokens ?? []) == Set(expected))
        #expect(plan.first?.exact == exact)
    }

    @Test func aLongWordReadsItsRarestTokensOnceEachHasBeenRead() throws {
        let plan = try #require(SearchQueryPlan.plans(for: "release").first)
        #expect(plan.tokens.count == 6)
        #expect(SearchRecordLayout.tokensPerWord == 2)
        // Before a block has read every token: all of them.
        var seen = Dictionary(uniqueKeysWithValues: plan.tokens.dropLast().map { ($0, (positions: 50, blocks: 1)) })
        #expect(SearchIndexReader.readTokens(of: plan, seen: seen) == plan.tokens)
        // Then the two with the fewest positions per block read: "as" in 3 of 2 blocks (1.5 a block) is rarer than
        // "le" in 2 of 1; "el" and "ea" tie at 4 a block and go by their UTF-16 code units.
        seen = ["re": (90, 1), "el": (8, 2), "le": (2, 1), "ea": (4, 1), "as": (3, 2), "se": (40, 1)]
        #expect(SearchIndexReader.readTokens(of: plan, seen: seen) == ["as", "le"])
        seen["le"] = (9, 1)
        #expect(SearchIndexReader.readTokens(of: plan, seen: seen) == ["as", "ea"])
        // An exact word (its one posting list answers it) and a word of two bigrams read every token.
        for word in ["서울", "abc"] {
            let short = try #require(SearchQueryPlan.plans(for: word).first)
            let counts = Dictionary(uniqueKeysWithValues: short.tokens.map { ($0, (positions: 1, blocks: 1)) })
            #expect(SearchIndexReader.readTokens(of: short, seen: counts) == short.tokens)
        }
    }

    @Test func bucketsAreStableAndInRange() {
        // FNV-1a of the UTF-8 bytes; search.js computes the same numbers (pinned here).
        #expect(SearchTokenizer.bucket(of: "", count: 1 << 30) == Int(0x811C_9DC5 & ((1 << 30) - 1)))
        #expect(SearchTokenizer.bucket(of: "a", count: 1 << 30) == Int(0xE40C_292C & ((1 << 30) - 1)))
        for token in ["서울", "a", "#b:7"] {
            #expect((0..<64).contains(SearchTokenizer.bucket(of: token, count: 64)))
        }
    }

    @Test(arguments: [[], [0], [5], [0, 1, 2, 3], [31, 32, 33, 1_000, 1_001, 2_047], Array(stride(from: 0, to: 2_048, by: 2)), Array(0..<2_048)])
    func postingListsRoundTrip(positions: [Int]) {
        let encoded = PostingCodec.encode(positions)
        #expect(PostingCodec.decode(encoded) == positions)
        #expect(encoded.utf8.allSatisfy { PostingCodec.alphabet.contains($0) || $0 == UInt8(ascii: "!") })
    }

    /// The block encoder's posting entries equal those made the plain way: per field, the set of every post holding
    /// each gram, sorted; lists `title.contents.writer` with trailing empty ones dropped; a board token per board.
    @Test func postingEntriesEqualEachGramsPostsCountedThePlainWay() {
        var seed: UInt64 = 41
        let words = ["서울", "서울시청", "회의", "회의실", "Seoul", "seoul", "ab", "a", "가", "é", "ｓｅｏｕｌ", "x1", "서 울", "\u{3000}"]
        func pick(_ count: Int) -> String {
            (0..<count).map { _ in
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return words[Int((seed >> 33) % UInt64(words.count))]
            }.joined(separator: " ")
        }
        let documents = (0..<300).map { index in
            SearchDocument(
                postId: index, boardId: index % 3, boardName: "b", title: pick(index % 4), writer: pick(index % 2),
                contents: pick(index % 9), createdDateTime: Date(timeIntervalSince1970: 0))
        }
        var lists: [UInt64: [Set<Int>]] = [:]
        for (position, document) in documents.enumerated() {
            for field in SearchField.allCases {
                SearchTokenizer.forEachGramKey(ofNormalized: TextNormalizer.normalize(field.text(of: document))) { key in
                    lists[key, default: [[], [], []]][field.rawValue].insert(position)
                }
            }
        }
        var expected = lists.map { key, fields in
            var encoded = fields.map { PostingCodec.encode($0.sorted()) }
            while encoded.last?.isEmpty == true { encoded.removeLast() }
            return (token: SearchTokenizer.token(for: key), lists: encoded.joined(separator: SearchIndexFormat.listSeparator))
        }
        for board in 0..<3 {
            expected.append((SearchTokenizer.boardToken(board), PostingCodec.encode(documents.indices.filter { $0 % 3 == board })))
        }
        expected.sort { Array($0.token.utf8).lexicographicallyPrecedes(Array($1.token.utf8)) }
        let entries = SearchBlockEncoder(configuration: SearchIndexConfiguration()).postingEntries(of: documents)
        #expect(entries.map(\.token) == expected.map(\.token))
        #expect(entries.map(\.lists) == expected.map(\.lists))
        #expect(entries.contains { $0.lists.hasSuffix(SearchIndexFormat.listSeparator) } == false)
    }

    @Test func denseListsUseTheBitmap() {
        let dense = PostingCodec.encode(Array(0..<600))
        #expect(dense.hasPrefix("!"))
        #expect(dense.count == 1 + 100)
        #expect(!PostingCodec.encode([3, 900]).hasPrefix("!"))
    }

    @Test("every script declares its own exact size, across digit-count boundaries", arguments: [0, 1, 50, 52, 53, 940, 941, 9_930, 9_945])
    func scriptsDeclareTheirSize(padding: Int) throws {
        let data = SearchScript.wrap(shardId: "n0/m0", payload: .string(String(repeating: "x", count: padding)))
        let parsed = try #require(SearchScript.unwrap(data))
        #expect(parsed.declaredBytes == data.count)
    }

    @Test func scriptsRoundTripAwkwardText() throws {
        let text = "it's \"quoted\" \\ back\\slash </script> \u{2028}\u{2029} \u{0} \u{7F} 서울 👍🏻\n\t"
        let data = SearchScript.wrap(shardId: "n0/c3", payload: .array([.int(-1), .string(text)]))
        let script = try #require(String(data: data, encoding: .utf8))
        #expect(script.hasPrefix("BoardArchiveSearch.load(\"n0/c3\",JSON.parse('"))
        #expect(!script.contains("\u{2028}") && !script.dropLast().contains("\n"))
        let (id, json, declared) = try #require(SearchScript.unwrap(data))
        #expect(id == "n0/c3")
        #expect(declared == data.count)
        #expect(script.hasSuffix("'),\(data.count));\n"))
        let parsed = try #require(try JSONSerialization.jsonObject(with: json) as? [Any])
        #expect(parsed.first as? Int == -1)
        #expect(parsed.last as? String == text)
    }

    @Test("a token gives back the gram key it was written from; text that is not one or two code points gives none")
    func tokensGiveBackTheirKeys() {
        var keys = Set<UInt64>()
        SearchTokenizer.addGramKeys(ofNormalized: "서울 ab 👍🏻 \u{1F600}x é", to: &keys)
        #expect(keys.count > 8)
        for key in keys { #expect(SearchTokenizer.key(ofToken: SearchTokenizer.token(for: key)) == key) }
        #expect(SearchTokenizer.key(ofToken: "") == nil)
        #expect(SearchTokenizer.key(ofToken: "abc") == nil)
        #expect(SearchTokenizer.key(ofToken: SearchTokenizer.boardToken(7)) == nil)
        #expect(SearchTokenizer.key(ofToken: "a") != SearchTokenizer.key(ofToken: "b"))
    }
}
