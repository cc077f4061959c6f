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
    ///
    /// Reads (and normalises) the text only as far as the first match needs: a long body is not normalised past it.
    func snippet(of text: String, before: Int = 40, after: Int = 80) -> [Part]? {
        guard !words.isEmpty else { return nil }
        let needles = words.map { Array($0.utf8) }
        if !Self.mayContain(text, needles) { return nil }
        let longest = needles.map(\.count).max() ?? 0
        var clusters: [Character] = []
        var normalized: [UInt8] = []
        var firstEnd: Int?
        var iterator = text.makeIterator()
        while let cluster = iterator.next() {
            let start = normalized.count
            clusters.append(cluster)
            Self.appendNormalized(cluster, to: &normalized)
            if firstEnd == nil {
                // The earliest end of any occurrence; an occurrence that starts earlier ends within `longest` bytes of it.
                for end in (start + 1)..<(normalized.count + 1) {
                    if needles.contains(where: { !$0.isEmpty && end >= $0.count && normalized[(end - $0.count)..<end].elementsEqual($0) }) {
                        firstEnd = end
                        break
                    }
                }
            }
            if let firstEnd, normalized.count >= firstEnd + longest { break }
        }
        guard let first = matchRanges(in: clusters).first else { return nil }
        while clusters.count < first.upperBound + after, let cluster = iterator.next() { clusters.append(cluster) }
        let hasMore = clusters.count > first.upperBound + after || iterator.next() != nil
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
        if hasMore { result.append(Part(text: "…", marked: false)) }
        return result
    }

    /// False when `text` certainly holds none of `needles`: for text of ASCII and Hangul syllables only, whose
    /// normal form is its bytes with ASCII letters lowered (cluster by cluster and as a whole), one byte search
    /// replaces normalising the whole body cluster by cluster. True otherwise.
    static func mayContain(_ text: String, _ needles: [[UInt8]]) -> Bool {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                bytes.append((0x41...0x5A).contains(value) ? UInt8(value + 32) : UInt8(value))
            } else if (0xAC00...0xD7A3).contains(value) {
                bytes.append(contentsOf: String(scalar).utf8)
            } else {
                return true
            }
        }
        return bytes.withUnsafeBufferPointer { hay in needles.contains { Self.bytes(hay, contain: $0) } }
    }

    /// Whether `hay` holds the bytes of `pin` in a row.
    private static func bytes(_ hay: UnsafeBufferPointer<UInt8>, contain pin: [UInt8]) -> Bool {
        guard let first = pin.first else { return true }
        guard pin.count <= hay.count else { return false }
        var index = 0
        let last = hay.count - pin.count
        while index <= last {
            if hay[index] == first {
                var offset = 1
                while offset < pin.count && hay[index + offset] == pin[offset] { offset += 1 }
                if offset == pin.count { return true }
            }
            index += 1
        }
        return false
    }

    /// `parts` as HTML: text escaped as Mustache's `{{x}}` escapes it, matches in `<mark>`.
    static func html(of parts: [Part]) -> String {
        var html = ""
        for part in parts {
            if part.marked { html += "<mark>" }
            for character in part.text {
                switch character {
                case "&": html += "&amp;"
                case "<": html += "&lt;"
                case ">": html += "&gt;"
                case "\"": html += "&quot;"
                case "'": html += "&#39;"
                default: html.append(character)
                }
            }
            if part.marked { html += "</mark>" }
        }
        return html
    }

    /// The cluster ranges of every occurrence of every word, sorted; overlapping ranges merge, adjacent ones stay apart
    /// (one `<mark>` per occurrence).
    func matchRanges(in clusters: [Character]) -> [Range<Int>] {
        guard !words.isEmpty else { return [] }
        var normalized: [UInt8] = []
        var owner: [Int] = []
        normalized.reserveCapacity(clusters.count * 3)
        owner.reserveCapacity(clusters.count * 3)
        for (index, cluster) in clusters.enumerated() {
            let before = normalized.count
            Self.appendNormalized(cluster, to: &normalized)
            owner.append(contentsOf: repeatElement(index, count: normalized.count - before))
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
