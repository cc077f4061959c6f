import Foundation
import Testing

@testable import BoardArchive

/// Random Markdown shapes at two sizes: what reaches cmark-gfm stays within the budget's work per byte, so the cost
/// per byte does not grow with the size; what does not is kept whole as plain text. The work is counted by the
/// pre-scan, not timed (instruction counts of the real renderer: Benchmarks/hostile/run.sh --callgrind).
@Suite("Markdown budget: random shapes")
struct MarkdownBudgetPropertyTests {
    /// A small deterministic generator (SplitMix64).
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// The pieces shapes are made of: nesting, brackets, emphasis runs, backticks, tables, autolinks, HTML.
    static let pieces: [String] = [
        "[", "]", "![", "](", "(", ")", "[a](b ", "<", ">", "> ", "- ", "1. ", "  ", "*", "**", "_", "__", "~~", "~", "`", "```",
        "<?", "<!", "<!--", "-->", "<![CDATA[", "]]>", "<a b='", "'>", "|", "|-|", "\n|a|b|\n|-|-|\n", "www.", "http://", "a@b.", ":",
        "&#", ";", "\\", "\n", "\n\n", "a", "단어 ", "word ", "x",
    ]

    /// A random shape: a short random motif of pieces repeated to `bytes`, with a little noise.
    static func shape(seed: UInt64, bytes: Int) -> String {
        var random = Random(state: seed)
        let motif = (0..<(1 + random.below(6))).map { _ in pieces[random.below(pieces.count)] }.joined()
        var text = ""
        text.reserveCapacity(bytes + 64)
        while text.utf8.count < bytes {
            text += random.below(8) == 0 ? pieces[random.below(pieces.count)] : motif
        }
        return text
    }

    /// The work a body costs per byte: the pre-scan's bound of cmark-gfm's work for a body it lets through, one pass
    /// for plain text.
    static func workPerByte(_ body: String, budget: MarkdownBudget) -> Double {
        var text = body
        let measure = text.withUTF8 { MarkdownBudget.measure($0) }
        guard budget.excess(of: measure) == nil else { return 1 }
        let blockWork = measure.nesting * measure.bytes + measure.tableColumns * measure.bytes + measure.paddedCells
        return Double(measure.bytes + measure.inlineWork + blockWork) / Double(max(1, measure.bytes))
    }

    @Test("the work per byte of a random shape stays bounded from 16 KB to 512 KB", arguments: 0..<48)
    func workPerByteStaysBounded(seed: Int) {
        let budget = MarkdownBudget()
        let small = Self.shape(seed: UInt64(seed), bytes: 16 << 10)
        let large = Self.shape(seed: UInt64(seed), bytes: 512 << 10)
        let limits = budget.limits
        // The most any body that reaches cmark-gfm may cost per byte at each size.
        let ceiling = { (bytes: Int) in
            Double(1 + limits.inlineWorkPerByte + limits.nesting + limits.tableColumns) + Double(limits.inlineWorkFloor + limits.paddedCellsFloor)
                / Double(bytes)
                + Double(limits.paddedCellsPerTwoBytes) / 2
        }
        let smallWork = Self.workPerByte(small, budget: budget)
        let largeWork = Self.workPerByte(large, budget: budget)
        // One ceiling for both sizes, less for the larger (the floor lets short bodies spend more per byte): 32 times
        // the size never costs more per byte.
        #expect(smallWork <= ceiling(small.utf8.count), "seed \(seed): \(smallWork) per byte at 16 KB")
        #expect(largeWork <= ceiling(large.utf8.count), "seed \(seed): \(largeWork) per byte at 512 KB")
        #expect(ceiling(large.utf8.count) <= ceiling(small.utf8.count))
    }

    @Test("a random shape the budget refuses keeps every character as plain text", arguments: 0..<48)
    func refusedShapesKeepEveryCharacter(seed: Int) {
        let body = Self.shape(seed: UInt64(seed), bytes: 256 << 10)
        let rendered = MarkdownRenderer().renderBody(body)
        if rendered.plainTextBecause != nil {
            #expect(HostileMarkdown.plainText(ofHTML: rendered.html) == HostileMarkdown.keptText(of: InertLinkMarkup.withoutMarkers(body)))
        } else {
            #expect(!rendered.html.isEmpty)
        }
    }

    @Test("the budget refuses a shape from the size where it grows super-linearly", arguments: HostileMarkdown.superLinear)
    func refusalIsMonotoneInSize(shape: HostileMarkdown.Shape) {
        let budget = MarkdownBudget()
        var refused = false
        for bytes in [4 << 10, 32 << 10, 256 << 10, 1 << 20] {
            let excess = budget.excess(of: shape.body(bytes: bytes))
            #expect(!refused || excess != nil, "\(shape.name) refused below \(bytes) bytes but not at it")
            refused = refused || excess != nil
        }
        #expect(refused)
    }
}
