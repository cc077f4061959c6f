import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

@Suite struct BytesTests {
    @Test(arguments: [
        ("서버실", "서버", 0, 0 as Int?), ("회의 서버", "서버", 0, 7), ("서버", "서버실", 0, nil), ("abcabc", "bc", 2, 4), ("abc", "c", 3, nil),
        ("abc", "", 1, 1), ("aab", "ab", 0, 1),
    ])
    func firstIndexFindsTheFirstOccurrenceAtOrAfterStart(haystack: String, needle: String, start: Int, expected: Int?) {
        #expect(Bytes.firstIndex(of: Array(needle.utf8), in: Array(haystack.utf8), from: start) == expected)
    }

    @Test func gramSlotsNumberKeysInOrderOfFirstSightAcrossGrowth() {
        // Keys that share their low or high halves (the mix's input), random ones, zero, and repeats.
        var seed: UInt64 = 7
        var keys: [UInt64] = [0, 0, .max]
        for index in 0..<3_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            keys.append(index % 3 == 0 ? UInt64(index % 700) << 32 : index % 3 == 1 ? UInt64(index % 900) : seed % 5_000)
        }
        var table = GramSlots(capacity: 4)
        var expected: [UInt64: Int] = [:]
        for key in keys {
            let (slot, isNew) = table.slot(for: key)
            #expect(isNew == (expected[key] == nil))
            if isNew { expected[key] = expected.count }
            #expect(slot == expected[key])
        }
        #expect(table.count == expected.count)
    }

    @Test func fnv1aHasItsPublishedValues() {
        #expect(Bytes.fnv1a([]) == 0xCBF2_9CE4_8422_2325)
        #expect(Bytes.fnv1a(Array("a".utf8)) == 0xAF63_DC4C_8601_EC8C)
        #expect(Bytes.fnv1a(Array("foobar".utf8)) == 0x8594_4171_F739_67E8)
    }

    @Test func theIndexParserReadsBackWhatTheIndexWrites() throws {
        func parse(_ text: String) -> Any? { Array(text.utf8).withUnsafeBufferPointer { SearchJSON.parse($0) } }
        let strings = ["", "plain", "서울 글", "quote \" backslash \\ slash /", "tab\tline\nreturn\r", "\u{01}\u{1F}\u{7F}", "\u{2028}\u{2029}", "😀 é"]
        #expect(parse(SearchJSON.array(strings.map(SearchJSON.string)).text) as? [String] == strings)
        let records = SearchJSON.array([.array([.int(0), .string("a\"b")]), .array([.int(-12), .int(Int.max), .string("")]), .array([])])
        let parsed = try #require(parse(records.text) as? [[Any]])
        #expect(parsed.count == 3 && parsed[2].isEmpty)
        #expect(parsed[0][0] as? Int == 0 && parsed[0][1] as? String == "a\"b")
        #expect(parsed[1][0] as? Int == -12 && parsed[1][1] as? Int == Int.max && parsed[1][2] as? String == "")
        #expect(parse(#"[ "\u00e9\ud83d\ude00" , "\/\b\f" ]"#) as? [String] == ["é😀", "/\u{08}\u{0C}"])
        // Not what the index writes: nil here, and `JSONSerialization` reads what is JSON.
        for other in [#"["a""#, #"["a",]"#, #"["a"] x"#, #"["\x"]"#, #"["\ud800"]"#, "{}", "", "[1.5]", "[1e3]", "[true]", "[99999999999999999999]"] {
            #expect(parse(other) == nil, "\(other)")
        }
        #expect((SearchJSON.parse(Data("[1.5]".utf8)) as? [Double]) == [1.5])
        #expect((SearchJSON.parse(Data(#"{"a":[1]}"#.utf8)) as? [String: [Int]]) == ["a": [1]])
    }

    @Test func utf8OrderIsStringOrderForNormalisedText() {
        let words = ["b", "a", "ab", "", "서울", "서", "글", "Z", "é", "e", "😀", "a b", "ａ"].shuffled()
        #expect(words.sorted(by: Bytes.utf8Precedes) == words.sorted())
        // Prefixes of eight bytes first, whole texts where they tie (long tokens, trailing U+0000).
        let tokens = ["#b:10001", "#b:100012", "#b:10001\u{0}", "a", "a\u{0}", "서울", "서울시청", "서울시", "😀😀", "😀", "", "#b:9"].shuffled()
        #expect(Bytes.sortedByUTF8(tokens, key: { $0 }) == tokens.sorted(by: Bytes.utf8Precedes))
        // Paths that tie on their first eight bytes and differ further on, and equal keys (kept in their order).
        let paths = [
            "search/n40/c3-0.js", "search/n40/c3-10.js", "search/n4/m1.js", "search/n40/c3-1.js", "posts/12345.html", "posts/1234.html",
            "posts/1234.html", "keywords/k-ec849cec9ab8.html", "keywords/k-ec849c.html",
        ].enumerated().map { ($0.element, $0.offset) }.shuffled()
        let sorted = Bytes.sortedByUTF8(paths, key: \.0)
        #expect(sorted.map(\.0) == paths.map(\.0).sorted(by: Bytes.utf8Precedes))
        let twins = sorted.filter { $0.0 == "posts/1234.html" }.map(\.1)
        #expect(twins == paths.filter { $0.0 == "posts/1234.html" }.map(\.1))
        #expect(!Bytes.utf8Precedes("a", "a"))
        #expect(Bytes.utf8Precedes("a", "ab"))
    }
}
