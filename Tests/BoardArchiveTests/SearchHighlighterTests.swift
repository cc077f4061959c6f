import Testing

@testable import BoardArchive

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
}
