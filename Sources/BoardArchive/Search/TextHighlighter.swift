/// Finds the query words in original text and cuts it into marked and unmarked parts, as `search.js` does.
///
/// Matching happens on normalised text, but marks must land on the original characters even when NFKC changes
/// lengths (full-width Latin, decomposed Hangul, ligatures). The text is cut into grapheme clusters, each is
/// normalised on its own, and every byte of the normalised text remembers the cluster it came from; a match is
/// widened to whole clusters of the original.
struct TextHighlighter: Sendable {
    /// A run of original text and whether it is a match.
    struct Part: Equatable, Sendable {
        var text: String
        var marked: Bool
    }

    /// The normalised query words.
    let words: [String]

    init(query: String) {
        words = TextNormalizer.normalizedQueryWords(query)
    }

    /// `text` cut into parts, every occurrence of a word marked (overlapping matches merged, adjacent ones not).
    func parts(of text: String) -> [Part] {
        let clusters = Array(text)
        return parts(of: clusters, ranges: matchRanges(in: clusters))
    }

    /// A short excerpt around the first occurrence of any word, whitespace runs collapsed, with the matches
    /// marked; nil when no word occurs. `before` and `after` count characters around the first match.
    func snippet(of text: String, before: Int = 40, after: Int = 80) -> [Part]? {
        let clusters = Array(text)
        guard let first = matchRanges(in: clusters).first else { return nil }
        let start = max(0, first.lowerBound - before)
        let end = min(clusters.count, first.upperBound + after)
        var excerpt: [Character] = []
        for character in clusters[start..<end] {
            if character.isWhitespace {
                if excerpt.last != " " { excerpt.append(" ") }
            } else {
                excerpt.append(character)
            }
        }
        var result = parts(of: excerpt, ranges: matchRanges(in: excerpt))
        if start > 0 { result.insert(Part(text: "…", marked: false), at: 0) }
        if end < clusters.count { result.append(Part(text: "…", marked: false)) }
        return result
    }

    /// The cluster ranges of every occurrence of every word, sorted; overlapping ranges merge, adjacent ones stay apart
    /// (one `<mark>` per occurrence).
    func matchRanges(in clusters: [Character]) -> [Range<Int>] {
        guard !words.isEmpty else { return [] }
        var normalized: [UInt8] = []
        var owner: [Int] = []
        for (index, cluster) in clusters.enumerated() {
            let piece = TextNormalizer.normalize(String(cluster)).utf8
            normalized.append(contentsOf: piece)
            owner.append(contentsOf: repeatElement(index, count: piece.count))
        }
        var ranges: [Range<Int>] = []
        for word in words {
            let needle = Array(word.utf8)
            guard !needle.isEmpty, needle.count <= normalized.count else { continue }
            var at = 0
            while at + needle.count <= normalized.count {
                if normalized[at] == needle[0] && normalized[at..<(at + needle.count)].elementsEqual(needle) {
                    ranges.append(owner[at]..<(owner[at + needle.count - 1] + 1))
                    at += needle.count
                } else {
                    at += 1
                }
            }
        }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for range in ranges {
            if let last = merged.last, range.lowerBound < last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    private func parts(of clusters: [Character], ranges: [Range<Int>]) -> [Part] {
        var result: [Part] = []
        var at = 0
        for range in ranges {
            if range.lowerBound > at { result.append(Part(text: String(clusters[at..<range.lowerBound]), marked: false)) }
            result.append(Part(text: String(clusters[range]), marked: true))
            at = range.upperBound
        }
        if at < clusters.count { result.append(Part(text: String(clusters[at...]), marked: false)) }
        return result
    }
}
