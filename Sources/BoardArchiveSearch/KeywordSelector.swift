import BoardArchiveModel

/// Chooses the archive's most frequent terms for keyword pages, and names their pages.
///
/// A term is a whitespace-separated word of a post's title or contents, normalised (NFKC, lowercase), with
/// leading and trailing punctuation and symbols removed. It needs at least two code points and one letter, is
/// made of letters and digits only (so `javascript:alert(1` or a URL is not a keyword), has at most
/// ``maximumTermLength`` code points, and is not a stop word. Korean words lose one trailing particle (은/는/이/가/을/를/에/에서/
/// 의/도/로/으로/와/과/까지/부터/에게/께서/한테/처럼/보다/마다/만) when at least two syllables remain, so
/// "서울은" and "서울에서" both count as "서울". Frequency is the number of posts that contain the term.
/// Ties are broken by the term's code points so the choice is deterministic. A term found in more posts than the
/// ceiling (``BuildConfiguration/topKeywordCeiling(indexedPosts:)``) is passed over for the next most frequent one.
package struct KeywordSelector {
    static let particles = [
        "에서", "으로", "까지", "부터", "에게", "께서", "한테", "처럼", "보다", "마다",
        "은", "는", "이", "가", "을", "를", "에", "의", "도", "로", "와", "과", "만",
    ]
    private static let particleBytes = particles.map { Array($0.utf8) }
    /// The most code points a term has: a keyword page searches every post it lists for its keyword, and a keyword as
    /// long as a post (a 100,000-character word copied into many posts) made that search quadratic.
    static let maximumTermLength = 64
    static let stopWords: Set<String> = [
        "그리고", "그러나", "하지만", "그래서", "그런데", "또한", "있는", "있다", "있습니다", "없습니다", "합니다", "입니다", "했습니다",
        "됩니다", "하는", "하고", "해서", "대한", "위해", "위한", "이번", "저희", "우리", "그냥", "정말", "너무", "같은", "이런",
        "저런", "그런", "그것", "이것", "저것", "여기", "거기", "모든", "각각", "이상", "이하", "경우", "때문", "관련", "통해",
        "the", "and", "for", "with", "this", "that", "from", "are", "was", "were", "have", "has", "had", "you", "not", "but",
        "all", "can", "will", "your", "our", "its", "into", "about", "than", "then", "them", "they", "their", "there", "what",
        "which", "when", "who", "how", "also", "just", "been", "more", "some", "any", "only", "out", "over", "such", "use",
    ]

    /// The `count` most frequent terms of the titles and contents of `documents`.
    static func topTerms(of documents: [SearchDocument], count: Int) -> [(term: String, posts: Int)] {
        guard count > 0 else { return [] }
        return top(count, of: frequency(of: documents))
    }

    /// A term as its UTF-8 bytes, hashed and compared as bytes. Terms are normalised (NFKC, or ASCII and precomposed
    /// Hangul), so equal strings have equal bytes; `String`'s own hashing and comparison check canonical equivalence
    /// for non-ASCII text, which cost more than the counting itself.
    struct Term: Hashable {
        var bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }
        init(_ text: String) { bytes = Array(text.utf8) }

        var text: String { String(decoding: bytes, as: UTF8.self) }

        static func == (lhs: Term, rhs: Term) -> Bool { lhs.bytes == rhs.bytes }

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    private static let stopTerms = Set(stopWords.map(Term.init))
    private static let longestStopTerm = stopTerms.map(\.bytes.count).max() ?? 0
    /// The stop terms' FNV-1a hashes: a word is copied into a ``Term`` to be looked up only when its hash may be one of them.
    private static let stopTermHashes = StopTermFilter(stopTerms.map { Bytes.fnv1a($0.bytes) })

    /// How many of `documents` contain each term.
    package static func frequency(of documents: [SearchDocument]) -> [String: Int] {
        var table = TermTable()
        for (index, document) in documents.enumerated() {
            forEachTerm(of: document.title) { table.count($0, inDocument: index) }
            forEachTerm(of: document.contents) { table.count($0, inDocument: index) }
        }
        return table.counts
    }

    /// Adds the terms of the words of `text` to `terms`: what `term(of:)` gives for each of
    /// `TextNormalizer.queryWords(text)`, with words of ASCII and Hangul syllables (most words) read from the bytes.
    static func addTerms(of text: String, to terms: inout Set<String>, byteFastPath: Bool = true) {
        guard byteFastPath else {
            for word in TextNormalizer.queryWords(text) {
                if let term = term(of: word) { terms.insert(term) }
            }
            return
        }
        var found = Set<Term>()
        addTerms(of: text, to: &found)
        for term in found { terms.insert(term.text) }
    }

    /// ``addTerms(of:to:byteFastPath:)`` with its byte fast path, into a set of ``Term``s.
    static func addTerms(of text: String, to terms: inout Set<Term>) {
        forEachTerm(of: text) { terms.insert(Term(Array($0))) }
    }

    /// Hands the bytes of each term of `text` (what ``addTerms(of:to:byteFastPath:)`` adds, repeats included) to `body`,
    /// without making an array per term: the buffer is only valid during the call.
    static func forEachTerm(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var text = text
        var scratch: [UInt8] = []
        scratch.reserveCapacity(64)
        text.withUTF8 { bytes in
            var start = 0
            var offset = 0
            var simple = true
            while offset < bytes.count {
                let byte = bytes[offset]
                // The length of the whitespace at `offset`, which ends a word.
                var space = 0
                if byte == 0x20 || (0x09...0x0D).contains(byte) {
                    space = 1
                } else if byte < 0x80 {
                    offset += 1
                    continue
                } else {
                    let (value, length) = Bytes.scalar(in: bytes, at: offset)
                    guard TextNormalizer.isWhitespace(value) else {
                        if !(0xAC00...0xD7A3).contains(value) { simple = false }
                        offset += length
                        continue
                    }
                    space = length
                }
                term(of: bytes, start..<offset, simple: simple, scratch: &scratch, body)
                offset += space
                start = offset
                simple = true
            }
            term(of: bytes, start..<bytes.count, simple: simple, scratch: &scratch, body)
        }
    }

    /// Gives `body` the term of the word at `range` of `bytes`, if it is one: through ``simpleTerm(of:into:)`` (into
    /// `scratch`) when the word is `simple` (ASCII and precomposed syllables only), else ``term(of:)``. A function of
    /// its own, not one nested in the loop: a nested function that captured `scratch` had every access to it checked
    /// at run time.
    private static func term(
        of bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, simple: Bool, scratch: inout [UInt8],
        _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        guard !range.isEmpty else { return }
        let word = UnsafeBufferPointer(rebasing: bytes[range])
        if simple {
            if simpleTerm(of: word, into: &scratch) { scratch.withUnsafeBufferPointer(body) }
        } else if let term = term(of: String(decoding: word, as: UTF8.self)) {
            Array(term.utf8).withUnsafeBufferPointer(body)
        }
    }

    /// `term(of:)` for a word of ASCII and precomposed Hangul syllables, from its bytes: trims ASCII punctuation and
    /// symbols, lowers ASCII letters, drops one particle from an all-Hangul word.
    /// The term's bytes go into `bytes`; false when the word is not a term.
    private static func simpleTerm(of word: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) -> Bool {
        func isTrimmed(_ byte: UInt8) -> Bool {
            (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
        }
        var low = 0
        var high = word.count
        while low < high, isTrimmed(word[low]) { low += 1 }
        while high > low, isTrimmed(word[high - 1]) { high -= 1 }
        bytes.removeAll(keepingCapacity: true)
        var scalars = 0
        var hasLetter = false
        var allHangul = true
        var index = low
        while index < high {
            let byte = word[index]
            if byte < 0x80 {
                let isLetter = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                guard isLetter || (0x30...0x39).contains(byte) else { return false }
                hasLetter = hasLetter || isLetter
                allHangul = false
                bytes.append((0x41...0x5A).contains(byte) ? byte + 32 : byte)
                index += 1
            } else {
                hasLetter = true
                bytes.append(contentsOf: word[index..<(index + 3)])
                index += 3
            }
            scalars += 1
        }
        if allHangul && scalars > 0 {
            // Syllables are 3 bytes each, and so are the particles' (no syllable is a suffix of another's bytes).
            for particle in particleBytes where bytes.count - particle.count >= 6 && bytes.suffix(particle.count).elementsEqual(particle) {
                bytes.removeLast(particle.count)
                scalars -= particle.count / 3
                break
            }
        }
        return scalars >= 2 && scalars <= maximumTermLength && hasLetter
            && !(bytes.count <= longestStopTerm && stopTermHashes.mayContain(Bytes.fnv1a(bytes)) && stopTerms.contains(Term(bytes)))
    }

    /// The `count` most frequent terms of `frequency` whose reach is at most `ceiling` posts (nil: no ceiling), ties by
    /// code points.
    ///
    /// A term's reach is its own count plus the counts of every longer term that contains it (``TermCounts/reach(of:upTo:)``):
    /// a keyword page lists every post where the term occurs inside a word too, so "서버" reaches the posts of 서버실 and
    /// 서버점검 as well. The sum is never less than the posts that hold the term in some word.
    package static func top(_ count: Int, of frequency: [String: Int], ceiling: Int? = nil) -> [(term: String, posts: Int)] {
        guard count > 0 else { return [] }
        let ranked = frequency.filter { $0.value <= ceiling ?? .max }.sorted { lhs, rhs in
            lhs.value != rhs.value
                ? lhs.value > rhs.value : Array(lhs.key.unicodeScalars.map(\.value)).lexicographicallyPrecedes(rhs.key.unicodeScalars.map(\.value))
        }
        guard let ceiling else { return ranked.prefix(count).map { ($0.key, $0.value) } }
        let terms = TermCounts(frequency)
        var chosen: [(term: String, posts: Int)] = []
        for (term, posts) in ranked where chosen.count < count {
            if terms.reach(of: Array(term.utf8), upTo: ceiling) <= ceiling { chosen.append((term, posts)) }
        }
        return chosen
    }

    /// The term a raw word counts as, or nil when it is not a term.
    static func term(of word: String) -> String? {
        let normalized = Array(TextNormalizer.normalize(word).unicodeScalars)
        // Trimmed by indices: removing the first of a long run one at a time moved the rest each time (quadratic).
        var low = 0
        var high = normalized.count
        while low < high, isTrimmed(normalized[low]) { low += 1 }
        while high > low, isTrimmed(normalized[high - 1]) { high -= 1 }
        let scalars = Array(normalized[low..<high])
        var term = String(String.UnicodeScalarView(scalars))
        if !scalars.isEmpty, scalars.allSatisfy({ (0xAC00...0xD7A3).contains($0.value) }) {
            for particle in particles where term.hasSuffix(particle) && scalars.count - particle.unicodeScalars.count >= 2 {
                term = String(term.unicodeScalars.dropLast(particle.unicodeScalars.count))
                break
            }
        }
        let final = Array(term.unicodeScalars)
        guard final.count >= 2, final.count <= maximumTermLength, final.contains(where: { $0.properties.isAlphabetic }),
            final.allSatisfy({ $0.properties.isAlphabetic || $0.properties.numericType != nil || $0.properties.generalCategory == .nonspacingMark }),
            !stopWords.contains(term)
        else { return nil }
        return term
    }

    private static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation,
            .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default: return false
        }
    }

    /// The file name stem of a keyword's pages: `k-` + the hex of its normalised UTF-8 (ASCII only, so the link
    /// works from `file://` and any host); long keywords keep 32 bytes of hex plus a 64-bit FNV-1a hash.
    package static func slug(for keyword: String) -> String {
        let normalized = TextNormalizer.normalizedQueryWords(keyword).joined(separator: " ")
        let digits = Array("0123456789abcdef")
        func hex(_ bytes: some Sequence<UInt8>) -> String { String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }) }
        let bytes = Array(normalized.utf8)
        if bytes.count <= 40 { return "k-" + hex(bytes) }
        let hash = Bytes.fnv1a(bytes)
        return "k-" + hex(bytes.prefix(32)) + "-" + hex((0..<8).map { UInt8(truncatingIfNeeded: hash >> (56 - 8 * $0)) })
    }
}

/// The hashes of the stop terms as bits of a table indexed by the hash's low bits: a word whose bit is clear is no
/// stop term, and only a set bit sends it to the set of terms. A `Set` of the hashes hashed each hash again.
struct StopTermFilter {
    private var bits = [UInt64](repeating: 0, count: 64)

    init(_ hashes: [UInt64]) {
        for hash in hashes { bits[Self.word(of: hash)] |= Self.bit(of: hash) }
    }

    /// False when no stop term has `hash`'s low bits.
    func mayContain(_ hash: UInt64) -> Bool {
        bits[Self.word(of: hash)] & Self.bit(of: hash) != 0
    }

    private static func word(of hash: UInt64) -> Int { Int(truncatingIfNeeded: (hash >> 6) & 63) }
    private static func bit(of hash: UInt64) -> UInt64 { 1 << (hash & 63) }
}
