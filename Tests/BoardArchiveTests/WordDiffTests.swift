import Foundation
import Testing

@testable import BoardArchiveModel
@testable import BoardArchiveRender

/// The comparison an earlier version's page shows (issue 27): word by word, bounded, escaped.
@Suite("Word-level comparison of versions")
struct WordDiffTests {
    /// The old text (unchanged and removed runs) and the new text (unchanged and added runs) the segments spell.
    static func sides(_ segments: [WordDiff.Segment]) -> (old: String, new: String) {
        segments.reduce(into: ("", "")) { sides, segment in
            switch segment {
            case .same(let text):
                sides.0 += text
                sides.1 += text
            case .removed(let text): sides.0 += text
            case .added(let text): sides.1 += text
            }
        }
    }

    @Test("one word changed in a line: only that word is removed and added")
    func oneWord() {
        let segments = WordDiff.segments(from: "첫 줄\n회의는 월요일 오후에\n끝 줄", to: "첫 줄\n회의는 화요일 오후에\n끝 줄")
        #expect(segments == [.same("첫 줄\n회의는 "), .removed("월요일"), .added("화요일"), .same(" 오후에\n끝 줄")])
        #expect(WordDiff.hasChanges(segments))
        #expect(!WordDiff.hasChanges(WordDiff.segments(from: "같은 글", to: "같은 글")))
        #expect(WordDiff.segments(from: "같은 글", to: "같은 글") == [.same("같은 글")])
    }

    @Test("changes far apart in a long text are each marked; the lines between stay unchanged")
    func farApart() {
        let lines = (1...400).map { "줄 \($0) 내용\n" }
        var edited = lines
        edited[0] = "줄 1 고친 내용\n"
        edited[399] = "줄 400 내용 더함\n"
        let segments = WordDiff.segments(from: lines.joined(), to: edited.joined())
        let changed = segments.compactMap { segment -> String? in
            switch segment {
            case .same: nil
            case .removed(let text): "-" + text
            case .added(let text): "+" + text
            }
        }
        #expect(changed == ["+고친 ", "+ 더함"])
        #expect(Self.sides(segments).old == lines.joined() && Self.sides(segments).new == edited.joined())
    }

    @Test("any two texts: the segments spell the old text and the new one", arguments: 0..<40)
    func spellsBothSides(seed: UInt64) {
        var random = SearchTestCorpus.Random(state: seed &* 7919 &+ 1)
        let words = ["서울", "회의", "report", "update", " ", "\n", "  ", "일정", "a", "b"]
        func text() -> String { (0..<Int(random.next() % 120)).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined() }
        let (old, new) = (text(), text())
        let segments = WordDiff.segments(from: old, to: new)
        #expect(Self.sides(segments).old == old && Self.sides(segments).new == new)
        #expect(WordDiff.hasChanges(segments) == (old != new))
    }

    @Test("past the limit the middle is shown removed and added in full, still spelling both sides")
    func beyondTheLimit() {
        let old = (0..<(WordDiff.limit * 3)).map { "줄 \($0)\n" }.joined()
        let new = (0..<(WordDiff.limit * 3)).map { "line \($0 * 7)\n" }.joined()
        let segments = WordDiff.segments(from: old, to: new)
        // One removal and one addition of everything between the common start and end (here only the last line break).
        #expect(segments == [.removed(String(old.dropLast())), .added(String(new.dropLast())), .same("\n")])
        #expect(Self.sides(segments).old == old && Self.sides(segments).new == new)
    }

    @Test("one budget for the whole text: word by word until it runs out, then whole runs, still spelling both sides")
    func oneBudgetPerText() {
        // 40 changed lines of 200 words, every other word replaced, between unchanged lines.
        func line(_ k: Int, changed: Bool) -> String {
            (0..<200).map { j in changed && j % 2 == 1 ? "l\(k)x\(j)" : "l\(k)w\(j)" }.joined(separator: " ") + "\n"
        }
        let old = (0..<40).map { "같은 줄 \($0)\n" + line($0, changed: false) }.joined()
        let new = (0..<40).map { "같은 줄 \($0)\n" + line($0, changed: true) }.joined()
        let segments = WordDiff.segments(from: old, to: new)
        #expect(Self.sides(segments).old == old && Self.sides(segments).new == new)
        let removed = segments.compactMap { segment -> String? in if case .removed(let text) = segment { text } else { nil } }
        // The first line word by word; the last, past the budget, as one run.
        #expect(removed.contains("l0w1") && removed.contains("l0w3"))
        #expect(removed.contains { $0.hasPrefix("l39w1 l39w2 l39w3") })
    }

    @Test("the HTML escapes every text and marks removals and additions in words, not only in colour")
    func html() {
        let html = WordDiff.html([.same("<b>&"), .removed("\"옛\""), .added("<script>")], removedLabel: "삭제:", addedLabel: "추가:")
        #expect(
            html.hasPrefix("&lt;b&gt;&amp;<del><span class=\"visually-hidden\">삭제: </span><span class=\"diff-mark\" aria-hidden=\"true\">[-</span>"))
        #expect(html.contains("&quot;옛&quot;") && html.contains("&lt;script&gt;") && !html.contains("<script>"))
        #expect(html.contains("<ins><span class=\"visually-hidden\">추가: </span><span class=\"diff-mark\" aria-hidden=\"true\">{+</span>"))
    }
}
