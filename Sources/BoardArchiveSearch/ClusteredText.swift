import BoardArchiveModel

/// Text as UTF-8 bytes cut into grapheme clusters, with each cluster's normal form (``TextNormalizer``) next to it:
/// what ``TextHighlighter`` matches on and marks.
///
/// A cluster made of one code point that is ASCII or a precomposed Hangul syllable, followed by another such code
/// point (or the end), is a cluster on its own (Unicode's grapheme rules join such a pair only as CR LF) whose normal
/// form is its bytes with ASCII letters lowered. Those clusters — nearly all of a Korean or English post — are cut and
/// normalised from the bytes directly; any other cluster goes through `Character` and ``TextNormalizer``, as before.
/// `SearchHighlighterTests` checks both ways agree on random text.
package struct ClusteredText: Equatable {
    /// The original text's UTF-8.
    private(set) var utf8: [UInt8] = []
    /// Where each cluster starts in ``utf8``, then `utf8.count`.
    private(set) var bounds: [Int] = [0]
    /// The normal form of every cluster, one after another.
    private(set) var normalized: [UInt8] = []
    /// Where each cluster's normal form starts in ``normalized``, then `normalized.count`.
    private(set) var normalizedBounds: [Int] = [0]

    /// The number of clusters.
    var count: Int { bounds.count - 1 }

    /// An empty text.
    init() {}

    /// Whether clusters were left out at the end (the text is longer than the `prefix` it was cut with).
    private(set) var isTruncated = false

    /// `text`, cut and normalised; only its clusters that start within its first `prefix` bytes when `prefix`
    /// is given. `characterByCharacter` forces the slow path for every cluster (for tests).
    package init(_ text: String, prefix: Int? = nil, characterByCharacter: Bool = false) {
        let bytes = Array(text.utf8)
        bounds.reserveCapacity(bytes.count / 2 + 1)
        // While every cluster so far took the byte path, only the bounds are kept: such a cluster's normal form is its
        // bytes lowered, as long as they are, so the normal form and its bounds are made in one go at the end (or at the
        // first cluster that goes through `Character`).
        var byBytes = true
        var offset = 0
        bytes.withUnsafeBufferPointer { buffer in
            while offset < buffer.count {
                if let prefix, offset >= prefix {
                    isTruncated = true
                    break
                }
                if !characterByCharacter, let length = Self.fastScalarLength(buffer, at: offset) {
                    let next = offset + length
                    let following = next < buffer.count ? Self.fastScalarLength(buffer, at: next) : nil
                    if next == buffer.count || following != nil {
                        // The clusters' bytes are the text's own, copied once at the end.
                        let end = buffer[offset] == 0x0D && following == 1 && buffer[next] == 0x0A ? next + 1 : next
                        bounds.append(end)
                        if !byBytes {
                            normalized.append(contentsOf: Self.lowered(buffer[offset..<end]))
                            normalizedBounds.append(normalized.count)
                        }
                        offset = end
                        continue
                    }
                }
                if byBytes {
                    byBytes = false
                    normalized.reserveCapacity(buffer.count)
                    normalized.append(contentsOf: Self.lowered(buffer[0..<offset]))
                    normalizedBounds = bounds
                }
                let index = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
                let character = text[index]
                TextHighlighter.appendNormalized(character, to: &normalized)
                offset += character.utf8.count
                bounds.append(offset)
                normalizedBounds.append(normalized.count)
            }
        }
        utf8 = Array(bytes[0..<offset])
        if byBytes {
            normalized = Self.lowered(utf8[...])
            normalizedBounds = bounds
        }
    }

    /// `bytes` with ASCII letters lowered: the normal form of clusters the byte path cut.
    private static func lowered<Source: Collection<UInt8>>(_ bytes: Source) -> [UInt8] {
        bytes.map { (0x41...0x5A).contains($0) ? $0 + 32 : $0 }
    }

    /// Appends one cluster: its bytes and its normal form (nil: the bytes with ASCII letters lowered).
    mutating func append(cluster bytes: ArraySlice<UInt8>, normalized folded: [UInt8]?) {
        utf8.append(contentsOf: bytes)
        bounds.append(utf8.count)
        normalized.append(contentsOf: folded ?? Self.lowered(bytes))
        normalizedBounds.append(normalized.count)
    }

    /// Appends cluster `index` of `other`, normal form included.
    mutating func append(clusterAt index: Int, of other: ClusteredText) {
        append(clustersIn: index..<(index + 1), of: other)
    }

    /// Appends clusters `range` of `other`, normal forms included: their bytes in one copy each, then their bounds.
    mutating func append(clustersIn range: Range<Int>, of other: ClusteredText) {
        guard !range.isEmpty else { return }
        let (start, normalizedStart) = (other.bounds[range.lowerBound], other.normalizedBounds[range.lowerBound])
        let (shift, normalizedShift) = (utf8.count - start, normalized.count - normalizedStart)
        utf8.append(contentsOf: other.utf8[start..<other.bounds[range.upperBound]])
        normalized.append(contentsOf: other.normalized[normalizedStart..<other.normalizedBounds[range.upperBound]])
        for index in (range.lowerBound + 1)...range.upperBound {
            bounds.append(other.bounds[index] + shift)
            normalizedBounds.append(other.normalizedBounds[index] + normalizedShift)
        }
    }

    /// The original text of clusters `range`.
    func text(_ range: Range<Int>) -> String {
        String(decoding: utf8[bounds[range.lowerBound]..<bounds[range.upperBound]], as: UTF8.self)
    }

    /// Whether cluster `index` is whitespace as `Character.isWhitespace` says.
    func isWhitespace(_ index: Int) -> Bool {
        let start = bounds[index]
        let end = bounds[index + 1]
        if end - start == 1 || (end - start == 2 && utf8[start] == 0x0D && utf8[start + 1] == 0x0A) {
            return utf8[start] == 0x20 || (0x09...0x0D).contains(utf8[start])
        }
        // A cluster of one precomposed Hangul syllable (most of a Korean post) is never whitespace.
        if end - start == 3, utf8.withUnsafeBufferPointer({ Self.fastScalarLength($0, at: start) }) == 3 { return false }
        return Character(text(index..<(index + 1))).isWhitespace
    }

    /// The cluster whose normal form holds byte `offset` of ``normalized``.
    func cluster(holding offset: Int) -> Int {
        // The last cluster starting at or before `offset` (clusters with an empty normal form start where the next does).
        var low = 0
        var high = count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if normalizedBounds[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The cluster ranges of every occurrence of every needle in the normal form, sorted; overlapping ranges merge,
    /// adjacent ones stay apart (one `<mark>` per occurrence).
    func matchRanges(of needles: [[UInt8]]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for needle in needles where !needle.isEmpty {
            var from = 0
            while let found = occurrence(of: needle, from: from) {
                ranges.append(found.range)
                from = found.offset + needle.count
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

    /// The first range ``matchRanges(of:)`` returns, found without looking past it: the occurrences of all needles
    /// are walked in order of their start, merged while they overlap, and the walk stops at the first that does not.
    func firstMatchRange(of needles: [[UInt8]]) -> Range<Int>? {
        let live = needles.filter { !$0.isEmpty && $0.count <= normalized.count }
        // Each needle's next occurrence (a byte offset) and its cluster range.
        var next: [(offset: Int, range: Range<Int>)?] = live.map { occurrence(of: $0, from: 0) }
        var merged: Range<Int>?
        func earliest() -> Int? {
            next.indices.filter { next[$0] != nil }.min { (next[$0]?.range.lowerBound ?? 0) < (next[$1]?.range.lowerBound ?? 0) }
        }
        while let index = earliest(), let found = next[index] {
            if let current = merged {
                guard found.range.lowerBound < current.upperBound else { break }
                merged = current.lowerBound..<max(current.upperBound, found.range.upperBound)
            } else {
                merged = found.range
            }
            next[index] = occurrence(of: live[index], from: found.offset + live[index].count)
        }
        return merged
    }

    /// The first occurrence of non-empty `needle` in the normal form at or after byte `start`: its offset and cluster range.
    private func occurrence(of needle: [UInt8], from start: Int) -> (offset: Int, range: Range<Int>)? {
        guard let at = Bytes.firstIndex(of: needle, in: normalized, from: start) else { return nil }
        return (at, cluster(holding: at)..<(cluster(holding: at + needle.count - 1) + 1))
    }

    /// The UTF-8 length of the code point at `offset` when it is ASCII or a precomposed Hangul syllable, else nil.
    private static func fastScalarLength(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
        let lead = bytes[offset]
        if lead < 0x80 { return 1 }
        guard (0xEA...0xED).contains(lead), offset + 2 < bytes.count else { return nil }
        let value = (UInt32(lead & 0x0F) << 12) | (UInt32(bytes[offset + 1] & 0x3F) << 6) | UInt32(bytes[offset + 2] & 0x3F)
        return (0xAC00...0xD7A3).contains(value) ? 3 : nil
    }
}
