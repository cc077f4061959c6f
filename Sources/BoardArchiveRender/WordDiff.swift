/// A word-level comparison of two texts, for a version page: what the next version removed and added.
///
/// Lines are compared first (the standard library's `difference(from:)`, on numbers standing for the distinct lines, so
/// that comparing two items costs the same whatever their length), then the words (and the spaces between them) of each
/// run of changed lines. The common start and end are set aside before either comparison. Bounded: a comparison of more
/// than ``limit`` items on a side (after the common start and end) is not attempted, and all comparisons of one page
/// together may do at most ``budget`` units of work; what is past either is shown removed in full and added in full, so
/// that any text costs time and memory in proportion to its size.
package enum WordDiff {
    /// A run of text: unchanged, removed by the next version, or added by it.
    package enum Segment: Equatable, Sendable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// The most lines, or words of a run of changed lines, compared on one side (Myers' comparison keeps a trace that
    /// grows with the square of the differences: 500 items a side keep it under 8 MB).
    package static let limit = 500

    /// The work all comparisons of one text may do, in units of (old items + new items)² per comparison: four
    /// comparisons of ``limit`` items a side.
    package static let budget = 4 * (2 * limit) * (2 * limit)

    /// The segments that turn `old` into `new`, adjacent segments of one kind merged.
    package static func segments(from old: String, to new: String) -> [Segment] {
        var result: [Segment] = []
        var work = budget
        for part in compare(lines(of: old), lines(of: new), work: &work) {
            switch part {
            case .same(let lines): append(.same(lines.joined()), to: &result)
            case .changed(let removed, let added):
                for word in compare(words(of: removed.joined()), words(of: added.joined()), work: &work) {
                    switch word {
                    case .same(let words): append(.same(words.joined()), to: &result)
                    case .changed(let removed, let added):
                        if !removed.isEmpty { append(.removed(removed.joined()), to: &result) }
                        if !added.isEmpty { append(.added(added.joined()), to: &result) }
                    }
                }
            }
        }
        return result
    }

    /// Whether the segments hold any change.
    package static func hasChanges(_ segments: [Segment]) -> Bool {
        segments.contains { if case .same = $0 { false } else { true } }
    }

    /// The segments as HTML: text escaped, removals in `<del>` and additions in `<ins>`, each also marked in text
    /// (`[-…-]`, `{+…+}`) and named for screen readers, so that the change is clear without colour or strike-through.
    package static func html(_ segments: [Segment], removedLabel: String, addedLabel: String) -> String {
        var html = ""
        for segment in segments {
            switch segment {
            case .same(let text): html += HTMLEscaping.escape(text)
            case .removed(let text):
                html += "<del><span class=\"visually-hidden\">\(HTMLEscaping.escape(removedLabel)) </span>"
                html += "<span class=\"diff-mark\" aria-hidden=\"true\">[-</span>\(HTMLEscaping.escape(text))"
                html += "<span class=\"diff-mark\" aria-hidden=\"true\">-]</span></del>"
            case .added(let text):
                html += "<ins><span class=\"visually-hidden\">\(HTMLEscaping.escape(addedLabel)) </span>"
                html += "<span class=\"diff-mark\" aria-hidden=\"true\">{+</span>\(HTMLEscaping.escape(text))"
                html += "<span class=\"diff-mark\" aria-hidden=\"true\">+}</span></ins>"
            }
        }
        return html
    }

    /// One part of a comparison: items both sides share, or a run the old side had and the new side has instead.
    enum Part: Equatable {
        case same([String])
        case changed(removed: [String], added: [String])
    }

    /// Compares two lists of items: the common start and end, and between them the standard library's difference,
    /// or the whole middle as changed when a side has more than ``limit`` items or `work` would run out.
    static func compare(_ old: [String], _ new: [String], work: inout Int) -> [Part] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let oldMiddle = Array(old[prefix..<(old.count - suffix)])
        let newMiddle = Array(new[prefix..<(new.count - suffix)])
        var parts: [Part] = []
        if prefix > 0 { parts.append(.same(Array(old[..<prefix]))) }
        let cost = (oldMiddle.count + newMiddle.count) * (oldMiddle.count + newMiddle.count)
        if oldMiddle.count <= limit, newMiddle.count <= limit, cost <= work {
            work -= cost
            parts += middle(oldMiddle, newMiddle)
        } else if !oldMiddle.isEmpty || !newMiddle.isEmpty {
            parts.append(.changed(removed: oldMiddle, added: newMiddle))
        }
        if suffix > 0 { parts.append(.same(Array(old[(old.count - suffix)...]))) }
        return parts
    }

    /// The parts of two lists of at most ``limit`` items, from the standard library's difference of their numbers.
    private static func middle(_ old: [String], _ new: [String]) -> [Part] {
        var numbers: [String: Int] = [:]
        func number(_ item: String) -> Int {
            if let known = numbers[item] { return known }
            numbers[item] = numbers.count
            return numbers.count - 1
        }
        let difference = new.map(number).difference(from: old.map(number))
        var removedOffsets = Set<Int>()
        var insertedOffsets = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removedOffsets.insert(offset)
            case .insert(let offset, _, _): insertedOffsets.insert(offset)
            }
        }
        var parts: [Part] = []
        var (i, j) = (0, 0)
        var same: [String] = []
        var removed: [String] = []
        var added: [String] = []
        func flushChange() {
            if !removed.isEmpty || !added.isEmpty { parts.append(.changed(removed: removed, added: added)) }
            (removed, added) = ([], [])
        }
        while i < old.count || j < new.count {
            if i < old.count, removedOffsets.contains(i) {
                if !same.isEmpty { parts.append(.same(same)); same = [] }
                removed.append(old[i])
                i += 1
            } else if j < new.count, insertedOffsets.contains(j) {
                if !same.isEmpty { parts.append(.same(same)); same = [] }
                added.append(new[j])
                j += 1
            } else {
                flushChange()
                if i < old.count { same.append(old[i]) }
                i += 1
                j += 1
            }
        }
        flushChange()
        if !same.isEmpty { parts.append(.same(same)) }
        return parts
    }

    /// The lines of `text`, each with its line break.
    static func lines(of text: String) -> [String] {
        var lines: [String] = []
        var start = text.startIndex
        for index in text.indices where text[index] == "\n" || text[index] == "\r\n" {
            let end = text.index(after: index)
            lines.append(String(text[start..<end]))
            start = end
        }
        if start < text.endIndex { lines.append(String(text[start...])) }
        return lines
    }

    /// The words of `text` and the runs of white space between them, in order.
    static func words(of text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inSpace = false
        for character in text {
            let isSpace = character.isWhitespace
            if !current.isEmpty, isSpace != inSpace {
                words.append(current)
                current = ""
            }
            inSpace = isSpace
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Appends `segment`, merged into the last one when they are of one kind.
    private static func append(_ segment: Segment, to segments: inout [Segment]) {
        switch (segments.last, segment) {
        case (.same(let a)?, .same(let b)): segments[segments.count - 1] = .same(a + b)
        case (.removed(let a)?, .removed(let b)): segments[segments.count - 1] = .removed(a + b)
        case (.added(let a)?, .added(let b)): segments[segments.count - 1] = .added(a + b)
        default: if !segmentIsEmpty(segment) { segments.append(segment) }
        }
    }

    private static func segmentIsEmpty(_ segment: Segment) -> Bool {
        switch segment {
        case .same(let text), .removed(let text), .added(let text): text.isEmpty
        }
    }
}
