import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The normaliser's cases. Chromium's `BoardArchiveSearch.normalize` (search.js: `s.normalize('NFKC').toUpperCase()
/// .replace(/Σ/g, 'σ').toLowerCase().normalize('NFKC')`) must give the same code points for every one of them:
/// `Tests/Browser/test_search.py::test_normaliser_matches_swift` checks that in Chromium, case by case.
@Suite struct SearchNormalizerTests {
    /// `Tests/Shared/normalizer-cases.json`: `[input, expected]` pairs, shared with the browser test.
    static let cases: [(input: String, expected: String)] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Shared/normalizer-cases.json")
        guard let data = try? Data(contentsOf: url), let pairs = try? JSONSerialization.jsonObject(with: data) as? [[String]] else { return [] }
        return pairs.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
    }()

    @Test func theSharedCasesAreThere() {
        #expect(Self.cases.count >= 30)
        #expect(Self.cases.contains { $0.input == "ẞ" && $0.expected == "ss" })
    }

    @Test(arguments: cases)
    func normalizes(input: String, expected: String) {
        #expect(Array(TextNormalizer.normalize(input).unicodeScalars) == Array(expected.unicodeScalars))
    }

    /// Every code point of the first three planes: a normalised string normalises to itself, so a normalised query
    /// word is found in normalised text exactly when the raw word is.
    @Test func normalizationIsIdempotentOnEveryCodePoint() {
        var failures: [String] = []
        for value in UInt32(0x20)...0x3_FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .unassigned else { continue }
            let once = TextNormalizer.normalize(String(scalar))
            if TextNormalizer.normalize(once) != once { failures.append(String(value, radix: 16)) }
        }
        #expect(failures.isEmpty, "not idempotent: U+\(failures.prefix(20))")
    }

    /// The bytes the search builder and the keyword matcher take are the normal form's, on the shared cases and on texts
    /// of the byte path (ASCII and precomposed syllables) and around it.
    @Test func normalizedUTF8IsTheNormalFormsBytes() {
        let texts =
            Self.cases.map(\.input) + [
                "", "Server 서울 RELEASE notes", "회의실 예약 ABC-12", "Ｓｅｏｕｌ 서울", "서울\u{1100}\u{1161}", "Café 카페", "\u{AC00}\u{D7A3}",
                "\u{D7A4}", "tab\tand\nnewline",
            ]
        for text in texts {
            #expect(TextNormalizer.normalizedUTF8(text) == Array(TextNormalizer.normalize(text).utf8), "\(text.debugDescription)")
        }
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
