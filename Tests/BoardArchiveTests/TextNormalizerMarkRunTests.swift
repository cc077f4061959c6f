import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The linear ordering of long runs of combining marks gives exactly Unicode's NFKC (checked against Python's
/// `unicodedata`), in time linear in the run.
@Suite("Search text: long runs of combining marks")
struct TextNormalizerMarkRunTests {
    /// Bases, marks of many combining classes (0, 1, 7, 9, 202, 216, 220, 230, 232, 240 …), code points whose
    /// decomposition starts with marks (U+0F73, U+0F75, U+0F81), Hangul syllables and conjoining jamo, and compatibility
    /// characters.
    static let alphabet: [Unicode.Scalar] = [
        "a", "e", "가", "힣", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{FB01}", "\u{2460}", "\u{0301}", "\u{0316}", "\u{0323}",
        "\u{0345}", "\u{05B0}", "\u{093C}", "\u{094D}", "\u{0327}", "\u{031B}", "\u{035C}", "\u{0F71}", "\u{0F72}", "\u{0F73}",
        "\u{0F75}", "\u{0F81}", "\u{0F74}", "\u{1DCE}", "\u{20D2}", "\u{302A}", "\u{3099}", "\u{0334}", "\u{0F39}", "\u{0F7A}",
    ]

    @Test(arguments: 0..<64)
    func orderingFirstGivesTheNFKCOfUnicode(seed: Int) throws {
        var random = MarkdownBudgetPropertyTests.Random(state: UInt64(seed) &* 0x9E37_79B9)
        let marks = Self.alphabet.filter { $0.properties.canonicalCombiningClass != .notReordered || $0.value >= 0xF73 && $0.value <= 0xF81 }
        var scalars: [Unicode.Scalar] = []
        for _ in 0..<(1 + random.below(4)) {
            // A base (sometimes none), then a run long enough to take the linear path (over 32 marks), then text.
            if random.below(4) != 0 { scalars.append(Self.alphabet[random.below(9)]) }
            for _ in 0..<(40 + random.below(61)) { scalars.append(marks[random.below(marks.count)]) }
            for _ in 0..<random.below(6) { scalars.append(Self.alphabet[random.below(Self.alphabet.count)]) }
        }
        let text = TextNormalizer.string(of: scalars)
        let ordered = TextNormalizer.orderingLongMarkRuns(text)
        #expect(ordered != text, "seed \(seed): the run was long enough to be ordered")
        // The oracle: Python's unicodedata (Foundation's own NFKC is not one: on runs this long it can drop or misplace
        // a mark, which is what this ordering also avoids).
        let expected = try Self.pythonNFKC(scalars)
        let got = Array(ordered.precomposedStringWithCompatibilityMapping.unicodeScalars).map(\.value)
        #expect(got == expected, "seed \(seed)")
    }

    /// NFKC of `scalars` by Python's `unicodedata`, as code points.
    static func pythonNFKC(_ scalars: [Unicode.Scalar]) throws -> [UInt32] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            "-c",
            "import sys, unicodedata; t = ''.join(chr(int(h, 16)) for h in sys.argv[1].split()); "
                + "print(' '.join('%x' % ord(c) for c in unicodedata.normalize('NFKC', t)))",
            scalars.map { String($0.value, radix: 16) }.joined(separator: " "),
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { UInt32($0, radix: 16) }
    }
}
