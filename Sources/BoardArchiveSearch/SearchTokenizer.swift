import BoardArchiveModel

/// Turns normalised text into the index's grams: every single code point and every pair of adjacent code points.
///
/// Grams never contain whitespace (query words never do), so text is indexed as unigrams plus bigrams of its
/// whitespace-free runs. A query word of one code point is answered exactly by its unigram list, a word of two by
/// its bigram list; a longer word intersects its bigram lists and the candidates are verified against the text.
/// A gram is packed into a `UInt64` key while building (`1 << 42 | a` for a unigram, `a << 21 | b` for a bigram).
package enum SearchTokenizer {
    /// Adds the gram keys of normalised `text` to `keys`.
    package static func addGramKeys(ofNormalized text: String, to keys: inout Set<UInt64>) {
        forEachGramKey(ofNormalized: text) { keys.insert($0) }
    }

    /// Hands every gram key of `text` to `body`, repeats included, in text order: what ``addGramKeys(ofNormalized:to:)``
    /// collects, for a caller that dedupes on its own.
    /// Reads the UTF-8 bytes a code point at a time (`unicodeScalars` cost a tenth of encoding a block more).
    static func forEachGramKey(ofNormalized text: String, _ body: (UInt64) -> Void) {
        var text = text
        text.withUTF8 { forEachGramKey(ofNormalizedUTF8: $0, body) }
    }

    /// ``forEachGramKey(ofNormalized:_:)`` of normalised text given as its (valid) UTF-8.
    static func forEachGramKey(ofNormalizedUTF8 bytes: UnsafeBufferPointer<UInt8>, _ body: (UInt64) -> Void) {
        var previous: UInt32? = nil
        var offset = 0
        while offset < bytes.count {
            let (value, length) = Bytes.scalar(in: bytes, at: offset)
            offset += length
            if TextNormalizer.isWhitespace(value) {
                previous = nil
                continue
            }
            body(unigramFlag | UInt64(value))
            if let previous { body(UInt64(previous) << 21 | UInt64(value)) }
            previous = value
        }
    }

    /// The gram keys a normalised query word needs, sorted: the unigram of a one-code-point piece, else every bigram
    /// of each whitespace-free piece (NFKC can put a space inside a word, as `¨` → space + U+0308).
    static func gramKeys(ofWord normalizedWord: String) -> [UInt64] {
        var keys = Set<UInt64>()
        var piece: [UInt32] = []
        func flush() {
            if piece.count == 1 {
                keys.insert(unigramFlag | UInt64(piece[0]))
            } else if piece.count > 1 {
                // Every bigram of the piece. A cover by every other bigram loads fewer posting shards, but it lets
                // through posts that hold the pieces apart ("서울" and "학교" for "서울학교"), and a rare word then
                // verifies a block's worth of text; the missing middle bigram ("울학") rules such blocks out at once.
                for start in 0..<(piece.count - 1) {
                    keys.insert(UInt64(piece[start]) << 21 | UInt64(piece[start + 1]))
                }
            }
            piece.removeAll()
        }
        for scalar in normalizedWord.unicodeScalars {
            if TextNormalizer.isWhitespace(scalar) { flush() } else { piece.append(scalar.value) }
        }
        flush()
        return keys.sorted()
    }

    /// Whether a word's posting lists answer it exactly: one or two code points and no whitespace.
    static func isExact(normalizedWord: String) -> Bool {
        let scalars = normalizedWord.unicodeScalars
        return scalars.count <= 2 && !scalars.contains(where: TextNormalizer.isWhitespace)
    }

    /// The text of a gram key, as it appears in a posting shard.
    package static func token(for key: UInt64) -> String {
        var scalars = String.UnicodeScalarView()
        if key & unigramFlag != 0 {
            if let scalar = Unicode.Scalar(UInt32(key & mask21)) { scalars.append(scalar) }
        } else {
            if let first = Unicode.Scalar(UInt32(key >> 21)) { scalars.append(first) }
            if let second = Unicode.Scalar(UInt32(key & mask21)) { scalars.append(second) }
        }
        return String(scalars)
    }

    /// The gram key of a token as ``token(for:)`` writes it (one or two code points); nil for any other text.
    package static func key(ofToken token: String) -> UInt64? {
        var scalars = token.unicodeScalars.makeIterator()
        guard let first = scalars.next() else { return nil }
        guard let second = scalars.next() else { return unigramFlag | UInt64(first.value) }
        guard scalars.next() == nil else { return nil }
        return UInt64(first.value) << 21 | UInt64(second.value)
    }

    /// The token that lists a board's posts in a block (in the title slot); it is longer than any gram.
    package static func boardToken(_ boardId: Int) -> String { boardTokenPrefix + String(boardId) }
    package static let boardTokenPrefix = SearchIndexFormat.boardTokenPrefix

    /// The posting bucket of `token` among `count` (a power of two), as `search.js` computes it (``SearchIndexFormat``).
    static func bucket(of token: String, count: Int) -> Int { SearchIndexFormat.bucket(of: token, count: count) }

    private static let unigramFlag: UInt64 = 0x400_0000_0000  // 1 << 42, as a literal: a constant, not a lazy global
    private static let mask21: UInt64 = (1 << 21) - 1
}
