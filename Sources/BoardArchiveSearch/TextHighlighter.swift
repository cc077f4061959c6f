import BoardArchiveModel
import BoardArchiveRender

/// Finds the query words in original text and cuts it into marked and unmarked parts, as `search.js` does.
///
/// Matching happens on normalised text, but marks must land on the original characters even when NFKC changes
/// lengths (full-width Latin, decomposed Hangul, ligatures). The text is cut into grapheme clusters, each is
/// normalised on its own, and every byte of the normalised text remembers the cluster it came from; a match is
/// widened to whole clusters of the original.
package struct TextHighlighter: Sendable {
    /// A run of original text and whether it is a match.
    package struct Part: Equatable, Sendable {
        var text: String
        var marked: Bool
    }

    /// The normalised query words.
    let words: [String]
    private let needles: [[UInt8]]

    package init(query: String) {
        words = TextNormalizer.normalizedQueryWords(query)
        needles = words.map { Array($0.utf8) }
    }

    /// `text` cut into parts, every occurrence of a word marked (overlapping matches merged, adjacent ones not).
    func parts(of text: String) -> [Part] {
        parts(in: ClusteredText(text))
    }

    /// ``parts(of:)`` for text already cut into clusters.
    package func parts(in clustered: ClusteredText) -> [Part] {
        parts(of: clustered, ranges: clustered.matchRanges(of: needles))
    }

    /// A short excerpt around the first occurrence of any word, whitespace runs collapsed, with the matches
    /// marked; nil when no word occurs. `before` and `after` count characters around the first match.
    ///
    /// Most matches are early: only the first `prefix` bytes are cut into clusters, and the whole text only when
    /// the excerpt needs more (nil: always the whole text).
    func snippet(of text: String, before: Int = 40, after: Int = 80, prefix: Int? = 4096) -> [Part]? {
        snippet(in: ClusteredText(text, prefix: prefix), of: text, before: before, after: after)
    }

    /// ``snippet(of:before:after:prefix:)`` for `text` whose first bytes are already cut into clusters (`prefix`,
    /// shared by several highlighters): the whole text is cut only when the excerpt needs more.
    package func snippet(in prefix: ClusteredText, of text: String, before: Int = 40, after: Int = 80) -> [Part]? {
        guard !words.isEmpty else { return nil }
        var clustered = prefix
        var first = prefix.firstMatchRange(of: needles)
        if prefix.isTruncated, !isSettled(first, in: prefix, after: after) {
            clustered = ClusteredText(text)
            first = clustered.firstMatchRange(of: needles)
        }
        guard let first else { return nil }
        return excerpt(of: clustered, around: first, before: before, after: after)
    }

    /// ``snippet(of:before:after:prefix:)`` for a whole text already cut into clusters (shared by several highlighters).
    func snippet(in clustered: ClusteredText, before: Int = 40, after: Int = 80) -> [Part]? {
        guard !words.isEmpty, let first = clustered.firstMatchRange(of: needles) else { return nil }
        return excerpt(of: clustered, around: first, before: before, after: after)
    }

    /// The excerpt of `clustered` around its first match `first`.
    private func excerpt(of clustered: ClusteredText, around first: Range<Int>, before: Int, after: Int) -> [Part] {
        let start = max(0, first.lowerBound - before)
        let end = min(clustered.count, first.upperBound + after)
        var excerpt = ClusteredText()
        // Runs of clusters between whitespace are copied whole; each whitespace run becomes one space.
        var run = start
        for index in start..<end where clustered.isWhitespace(index) {
            excerpt.append(clustersIn: run..<index, of: clustered)
            if index == start || !clustered.isWhitespace(index - 1) { excerpt.append(cluster: [0x20], normalized: nil) }
            run = index + 1
        }
        excerpt.append(clustersIn: run..<end, of: clustered)
        var result = parts(of: excerpt, ranges: excerpt.matchRanges(of: needles))
        if start > 0 { result.insert(Part(text: "…", marked: false), at: 0) }
        if clustered.isTruncated || clustered.count > first.upperBound + after { result.append(Part(text: "…", marked: false)) }
        return result
    }

    /// Whether `first`, found in a prefix of a text, is the text's first match with all `after` clusters: it ends
    /// that many clusters before the prefix does, and before any occurrence that could cross the prefix's end.
    private func isSettled(_ first: Range<Int>?, in prefix: ClusteredText, after: Int) -> Bool {
        guard let first else { return false }
        let longest = needles.map(\.count).max() ?? 0
        let crossing = prefix.cluster(holding: max(0, prefix.normalized.count - longest))
        return first.upperBound + after <= prefix.count && first.upperBound <= crossing
    }

    /// The code units (UTF-16, as `search.js` counts) that `search.js`'s snippet takes after the first match.
    static let snippetAfterUnits = 80

    /// Whether `search.js`'s snippet of `text` is that of every longer text that starts with `text` at a place the
    /// search index builder may cut (between two code points that no normalisation or grapheme rule joins): the
    /// excerpt after the first match (merged with those overlapping it) ends before the last cluster of `text` starts,
    /// and the normal form goes on at least `longest` code points past that match's last cluster, so no match that
    /// crosses the end of `text` could start before the first one ends. `search.js`'s `snippetSettled` says the same,
    /// and the search index's reader asks it to know which contents pieces a result row reads.
    package static func snippetSettled(_ text: String, needles: [[UInt8]], longest: Int) -> Bool {
        let clustered = ClusteredText(text)
        guard clustered.count > 0, let first = clustered.firstMatchRange(of: needles) else { return false }
        let end = clustered.text(0..<first.upperBound).utf16.count
        let lastStart = clustered.text(0..<(clustered.count - 1)).utf16.count
        guard end + snippetAfterUnits <= lastStart else { return false }
        let rest = clustered.normalized[clustered.normalizedBounds[first.upperBound]...]
        return String(decoding: rest, as: UTF8.self).unicodeScalars.count >= longest
    }

    /// `parts` as HTML: text escaped as Mustache's `{{x}}` escapes it (every `&`, `<`, `>`, `"` and `'`, also one
    /// a combining mark follows), matches in `<mark>`.
    package static func html(of parts: [Part]) -> String {
        var html = ""
        for part in parts {
            html += part.marked ? "<mark>" + HTMLEscaping.escape(part.text) + "</mark>" : HTMLEscaping.escape(part.text)
        }
        return html
    }

    /// Appends the normalised UTF-8 of one cluster. Single code points that normalisation leaves alone or only
    /// lowers (ASCII, precomposed Hangul syllables, other code points without compatibility or case mappings in the
    /// common Korean ranges) skip Foundation, which costs microseconds per call.
    static func appendNormalized(_ cluster: Character, to output: inout [UInt8]) {
        let scalars = cluster.unicodeScalars
        if scalars.count == 1, let scalar = scalars.first {
            let value = scalar.value
            if value < 0x80 {
                output.append((0x41...0x5A).contains(value) ? UInt8(value + 32) : UInt8(value))
                return
            }
            if (0xAC00...0xD7A3).contains(value) {
                output.append(contentsOf: String(scalar).utf8)
                return
            }
        }
        output.append(contentsOf: TextNormalizer.normalize(String(cluster)).utf8)
    }

    private func parts(of text: ClusteredText, ranges: [Range<Int>]) -> [Part] {
        var result: [Part] = []
        var at = 0
        for range in ranges {
            if range.lowerBound > at { result.append(Part(text: text.text(at..<range.lowerBound), marked: false)) }
            result.append(Part(text: text.text(range), marked: true))
            at = range.upperBound
        }
        if at < text.count { result.append(Part(text: text.text(at..<text.count), marked: false)) }
        return result
    }
}
