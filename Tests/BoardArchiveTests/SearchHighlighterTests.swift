import BoardArchive
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

@Suite struct SearchHighlighterTests {
    func marked(_ text: String, _ query: String) -> String {
        TextHighlighter(query: query).parts(of: text).map { $0.marked ? "[" + $0.text + "]" : $0.text }.joined()
    }

    @Test func marksLandOnTheOriginalCharacters() {
        #expect(marked("서울은 서울시청에", "서울") == "[서울]은 [서울]시청에")
        #expect(marked("ＳＥＯＵＬ Seoul", "seoul") == "[ＳＥＯＵＬ] [Seoul]")
        let nfd = "서울".decomposedStringWithCanonicalMapping + "시청"
        #expect(marked(nfd, "서울") == "[" + "서울".decomposedStringWithCanonicalMapping + "]시청")
        #expect(marked("ﬁle", "fi") == "[ﬁ]le")
        #expect(marked("abc", "b c") == "a[b][c]")  // one mark per occurrence
        #expect(marked("서울시청", "서울 울시") == "[서울시]청")  // overlapping occurrences share one mark
        #expect(marked("aaaa", "aa") == "[aa][aa]")
        #expect(marked("x 👍🏻 y", "👍") == "x [👍🏻] y")
        #expect(marked("<img src=x>", "<IMG") == "[<img] src=x>")
        #expect(marked("nothing", "zzz") == "nothing")
    }

    @Test func snippetsSurroundTheFirstMatch() throws {
        let text = String(repeating: "가", count: 100) + "\n\n서울   시청" + String(repeating: "나", count: 100)
        let parts = try #require(TextHighlighter(query: "서울").snippet(of: text))
        let joined = parts.map { $0.marked ? "[" + $0.text + "]" : $0.text }.joined()
        #expect(joined.hasPrefix("…"))
        #expect(joined.hasSuffix("…"))
        #expect(joined.contains(" [서울] 시청"))
        #expect(TextHighlighter(query: "부산").snippet(of: text) == nil)
        #expect(TextHighlighter(query: "짧은").snippet(of: "짧은 글")?.map(\.text) == ["짧은", " 글"])
    }

    /// Random text over ASCII, Hangul syllables and clusters the fast path must leave to `Character`: combining
    /// marks after ASCII letters, CR LF, decomposed Hangul, full-width Latin, ligatures, emoji with modifiers.
    static func randomText(_ seed: inout UInt64, length: Int) -> String {
        let pieces = [
            "a", "B", "z", "Q", " ", "  ", "\t", "\n", "\r", "\r\n", "서", "울", "시", "청", "가", "<", "&", "\"", "'", ".",
            "\u{301}", "e\u{301}", "ᄀ", "ᅡ", "ᆨ", "Ａ", "ﬁ", "👍🏻", "🇰🇷", "\u{200D}", "ß", "İ", "\u{0}", "한\u{11A8}", "\u{3000}", "\u{A0}",
        ]
        var text = ""
        for _ in 0..<length {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            text += pieces[Int((seed >> 33) % UInt64(pieces.count))]
        }
        return text
    }

    @Test func theByteFastPathCutsAndNormalisesAsCharactersDo() {
        var seed: UInt64 = 42
        for round in 0..<400 {
            let text = Self.randomText(&seed, length: round % 60)
            let fast = ClusteredText(text)
            #expect(fast == ClusteredText(text, characterByCharacter: true), "text \(Array(text.unicodeScalars))")
            #expect(fast.count == text.count)
            #expect(String(decoding: fast.utf8, as: UTF8.self) == text)
            for (index, character) in text.enumerated() {
                #expect(fast.isWhitespace(index) == character.isWhitespace, "cluster \(Array(String(character).unicodeScalars))")
            }
        }
    }

    /// Texts whose clusters all take the byte path (their normal form is then made at the end, in one go), some with a
    /// `Character` cluster after a run of them, cut with and without a prefix.
    @Test func runsOfByteClustersCutAsCharactersDo() {
        let fast = ["a", "B", " ", "\r\n", "\r", "\n", "서", "울", "Z", "7", "<"]
        var seed: UInt64 = 7
        for round in 0..<300 {
            var text = ""
            for _ in 0..<(round % 50) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += fast[Int((seed >> 33) % UInt64(fast.count))]
            }
            if round % 3 == 1 { text += ["e\u{301}", "Ａ", "ﬁ"][round % 9 / 3] + "Ab서" }
            for prefix in [nil, 0, 5, 17] as [Int?] {
                let clustered = ClusteredText(text, prefix: prefix)
                #expect(
                    clustered == ClusteredText(text, prefix: prefix, characterByCharacter: true),
                    "text \(text.debugDescription) prefix \(String(describing: prefix))")
            }
            #expect(ClusteredText(text).normalized == Array(TextNormalizer.normalize(text).utf8))
        }
    }

    @Test func aSnippetFromThePrefixEqualsOneFromTheWholeText() {
        var seed: UInt64 = 7
        for round in 0..<200 {
            // Long texts with the words placed near the 4 KB cut, to catch a match crossing it or a short excerpt.
            let filler = String(repeating: "서울 가나 ", count: 400 + round % 40)
            let text = Self.randomText(&seed, length: 20) + filler + "시청b" + Self.randomText(&seed, length: 200)
            for query in ["시청", "울 가", "청b", "zz", "b 울"] {
                let highlighter = TextHighlighter(query: query)
                #expect(highlighter.snippet(of: text, prefix: 4096) == highlighter.snippet(of: text, prefix: nil), "query \(query) round \(round)")
                #expect(highlighter.snippet(of: text, prefix: 300) == highlighter.snippet(of: text, prefix: nil), "query \(query) round \(round)")
                #expect(highlighter.snippet(in: ClusteredText(text)) == highlighter.snippet(of: text, prefix: nil), "query \(query) round \(round)")
            }
        }
    }

    @Test func htmlEscapesEveryMarkupByte() {
        let parts = [TextHighlighter.Part(text: "<a href=\"x\">'&", marked: false), TextHighlighter.Part(text: "\"\u{301}<", marked: true)]
        #expect(TextHighlighter.html(of: parts) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;<mark>&quot;\u{301}&lt;</mark>")
    }
    @Test func theFirstMatchIsTheFirstOfAllMatches() {
        var seed: UInt64 = 11
        let queries = ["서울", "a", "aa aab", "ab bcab", "울 서", "e\u{301}", "ﬁ fi", "가 가가", "b a"]
        for round in 0..<600 {
            let text = Self.randomText(&seed, length: round % 80) + ["", "aab", "bcabcab", "서울서울", "aaaa"][round % 5]
            let clustered = ClusteredText(text)
            for query in queries {
                let needles = TextNormalizer.normalizedQueryWords(query).map { Array($0.utf8) }
                #expect(clustered.firstMatchRange(of: needles) == clustered.matchRanges(of: needles).first, "query \(query) text \(text)")
            }
        }
    }
}
