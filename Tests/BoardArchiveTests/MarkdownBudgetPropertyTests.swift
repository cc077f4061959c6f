import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Random Markdown shapes: what the pre-scan refuses is kept whole as plain text, what it lets through keeps its words,
/// and a shape refused at one size stays refused at larger ones. That the cost per byte of what reaches cmark-gfm does
/// not grow with the size is measured, not asserted here: `Benchmarks/hostile/run.sh --callgrind` counts cmark-gfm's
/// instructions for the same random shapes at 64 KB and 512 KB and fails when the larger costs over twice as much per
/// byte.
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

    @Test("a random shape the budget refuses keeps every character as plain text", arguments: 0..<48)
    func refusedShapesKeepEveryCharacter(seed: Int) {
        let body = Self.shape(seed: UInt64(seed), bytes: 256 << 10)
        let rendered = MarkdownRenderer().renderBody(body)
        if rendered.plainTextBecause != nil {
            #expect(HostileMarkdown.plainText(ofHTML: rendered.html) == HostileMarkdown.keptText(of: InertLinkMarkup.withoutMarkers(body)))
        } else {
            // Markup characters become markup, but a word of text is never dropped: every Korean word is still there
            // (raw HTML is omitted by design, and a link's address that is not a web address is not shown, so shapes with
            // `<` or `](` are left out of this count).
            if !body.contains("<") && !body.contains("](") {
                let words = body.components(separatedBy: "단어").count - 1
                #expect(rendered.html.components(separatedBy: "단어").count - 1 == words, "seed \(seed): \(words) words in the body")
            }
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
