import Foundation
import Testing

@testable import BoardArchive

/// The normaliser's cases. Chromium's `BoardArchiveSearch.normalize` (search.js: `s.normalize('NFKC')
/// .replace(/Σ/g, 'σ').toLowerCase()`) gives the same code points for every one of them (checked by hand in
/// Chromium 156; `Benchmarks/search/engine-check.js` runs the whole engine against the oracle under Node).
@Suite struct SearchNormalizerTests {
    static let cases: [(input: String, expected: String)] = [
        ("서울".decomposedStringWithCanonicalMapping, "서울"),
        ("서울시청", "서울시청"),
        ("ＡＢＣ", "abc"),
        ("Ｓｅｏｕｌ", "seoul"),
        ("SeOuL", "seoul"),
        ("MiXeD 케이스", "mixed 케이스"),
        ("👍🏻", "👍🏻"),
        ("👨‍👩‍👧", "👨‍👩‍👧"),
        ("🇰🇷", "🇰🇷"),
        ("ΣΑΣ", "σασ"),
        ("İ", "i\u{307}"),
        ("ß", "ß"),
        ("ﬁle", "file"),
        ("①②", "12"),
        ("㈜", "(주)"),
        ("™", "tm"),
        ("¨", " \u{308}"),
        ("cafe\u{301}", "café"),
        ("\u{AC00}\u{11B0}", "\u{AC09}"),  // a precomposed LV syllable + trailing jamo compose to 갉
        ("\u{1100}\u{1161}\u{11A8}", "각"),
        ("ｶﾞ", "ガ"),
        ("<IMG SRC=X>", "<img src=x>"),
        ("", ""),
    ]

    @Test(arguments: cases)
    func normalizes(input: String, expected: String) {
        #expect(Array(TextNormalizer.normalize(input).unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test func normalizationIsIdempotentOnTheCases() {
        for (input, _) in Self.cases {
            let once = TextNormalizer.normalize(input)
            #expect(TextNormalizer.normalize(once) == once, "\(input.debugDescription)")
        }
    }

    @Test func nfdAndNfcHangulMatchEachOther() {
        let decomposed = "서울은 서울시청에".decomposedStringWithCanonicalMapping
        #expect(decomposed.unicodeScalars.count > "서울은 서울시청에".unicodeScalars.count)
        #expect(TextNormalizer.scalarsContain(TextNormalizer.normalize(decomposed), TextNormalizer.normalize("서울시")))
        #expect(TextNormalizer.scalarsContain(TextNormalizer.normalize("서울은"), TextNormalizer.normalize("서울".decomposedStringWithCanonicalMapping)))
    }

    @Test func queryWordsSplitAtJavaScriptWhitespace() {
        #expect(TextNormalizer.queryWords("  서울\t시청\u{3000}ＡＢＣ\u{A0}x\n") == ["서울", "시청", "ＡＢＣ", "x"])
        #expect(TextNormalizer.queryWords(" \u{2003} ").isEmpty)
        #expect(TextNormalizer.queryWords("a\u{200B}b") == ["a\u{200B}b"])  // zero width space is not \s
        #expect(TextNormalizer.normalizedQueryWords("서울 ＳＥＯＵＬ seoul 서울") == ["서울", "seoul"])
    }

    @Test func containsComparesScalarsNotGraphemes() {
        #expect("e\u{301}".contains("e") == false)  // why the oracle does not use String.contains
        #expect(TextNormalizer.scalarsContain("e\u{301}", "e"))
        #expect(TextNormalizer.scalarsContain("👨‍👩‍👧", "👩"))
        #expect(!TextNormalizer.scalarsContain("서울", "울시"))
        #expect(TextNormalizer.scalarsContain("abc", ""))
    }
}
