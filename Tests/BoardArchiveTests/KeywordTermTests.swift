import Testing

@testable import BoardArchive

@Suite struct KeywordTermTests {
    @Test func theByteFastPathFindsTheTermsEveryWordGives() {
        var seed: UInt64 = 99
        let words = [
            "서울은", "서울에서", "Seoul,", "(swift)", "release-notes", "v2", "2024", "the", "THE", "그리고", "회의를", "가가", "가",
            "x1", "!!", "a.b", "é", "\u{1}ab", "ab\u{1}", "ａｂ", "서울\u{A0}시청", "foo\u{3000}bar", "naïve", "…end", "“quoted”",
        ]
        for round in 0..<300 {
            var text = ""
            for _ in 0..<(round % 40) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let pick = Int((seed >> 33) % UInt64(words.count + 4))
                text += pick < words.count ? words[pick] : SearchHighlighterTests.randomText(&seed, length: 3)
                text += ["", " ", "\n", "\t", "  "][Int((seed >> 20) % 5)]
            }
            var fast = Set<String>()
            var slow = Set<String>()
            KeywordSelector.addTerms(of: text, to: &fast)
            KeywordSelector.addTerms(of: text, to: &slow, byteFastPath: false)
            #expect(fast == slow, "text \(Array(text.unicodeScalars))")
        }
    }
}
