import Foundation

/// The one text normalisation the search index, the keyword pages and `search.js` share.
///
/// `normalize` is Unicode NFKC, then case folding, then NFKC again. Case folding maps every code point to upper
/// case and the result to lower case, with capital sigma taken to `σ` in between, twice, so `ß`, `ẞ` and `SS` all
/// fold to `ss` and `ς`, `σ` and `Σ` all to `σ`. The browser side computes the same thing with
/// `s.normalize('NFKC')`, then `.toUpperCase().replace(/Σ/g, 'σ').toLowerCase()` twice, then `.normalize('NFKC')`: mapping capital
/// sigma before lowering turns off JavaScript's context-sensitive final-sigma rule, so both sides map every code
/// point on its own; the last NFKC recomposes what case mapping decomposed (`J` + U+030C → `ǰ`).
///
/// Known edge cases (all covered by `SearchNormalizerTests`):
/// - Foundation's NFKC on Linux does not compose a precomposed LV syllable with a following trailing jamo
///   (`가` + `ᆰ`); `composeHangul` finishes that composition so NFD, NFC and mixed Hangul all agree with the browser.
/// - Folding is Unicode's full, locale-free mapping: `İ` becomes `i̇` (two code points) on both sides.
/// - Characters newer than the Unicode version of the Swift runtime or the reader's browser may normalise
///   differently (for example the Unicode 17 outlined Latin letters U+1CCD6…); such text still matches itself.
public enum TextNormalizer {
    /// Normalises `text` for indexing and matching: NFKC, case folding, NFKC.
    public static func normalize(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.lowercased()
        }
        // ASCII and precomposed Hangul syllables only (most Korean posts): NFKC and folding leave the syllables as
        // they are and only lower ASCII letters, and neither composes with the other, so Foundation is not needed.
        if let lowered = loweredIfASCIIAndHangul(text) { return lowered }
        // Scalars are gathered in arrays and turned into a string once (``string(of:)``): appending them one by one to a
        // `String.UnicodeScalarView` took time growing with the square of the text's length (9 s for 1 MB of Cyrillic).
        var output: [Unicode.Scalar] = []
        let changed = fold(composeHangul(Array(compatibilityComposed(text).unicodeScalars)), into: &output)
        guard changed else { return string(of: output) }
        return string(of: composeHangul(Array(compatibilityComposed(string(of: output)).unicodeScalars)))
    }

    /// ``normalize(_:)`` as UTF-8: the same bytes, made without a `String` when `text` holds only ASCII and precomposed
    /// Hangul syllables (most posts), for callers that match or cut bytes (the search builder's grams, keyword matches).
    public static func normalizedUTF8(_ text: String) -> [UInt8] {
        loweredBytesIfASCIIAndHangul(text) ?? Array(normalize(text).utf8)
    }

    /// `text` with ASCII letters lowered when it holds only ASCII and precomposed Hangul syllables (U+AC00–U+D7A3),
    /// worked on its UTF-8 bytes; nil for any other text.
    private static func loweredIfASCIIAndHangul(_ text: String) -> String? {
        loweredBytesIfASCIIAndHangul(text).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The UTF-8 of ``loweredIfASCIIAndHangul(_:)``.
    private static func loweredBytesIfASCIIAndHangul(_ text: String) -> [UInt8]? {
        var bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if (0x41...0x5A).contains(byte) { bytes[index] = byte + 32 }
                index += 1
                continue
            }
            // A syllable is three bytes, EA B0 80 (U+AC00) to ED 9E A3 (U+D7A3); the string is valid UTF-8.
            guard (0xEA...0xED).contains(byte), index + 2 < bytes.count else { return nil }
            let value = (UInt32(byte & 0x0F) << 12) | (UInt32(bytes[index + 1] & 0x3F) << 6) | UInt32(bytes[index + 2] & 0x3F)
            guard (0xAC00...0xD7A3).contains(value) else { return nil }
            index += 3
        }
        return bytes
    }

    /// NFKC as Foundation computes it (Hangul finished by ``composeHangul(_:)``), long runs of combining marks put in
    /// order first (``orderingLongMarkRuns(_:)``: Foundation's own reordering is quadratic in a run's length).
    private static func compatibilityComposed(_ text: String) -> String {
        orderingLongMarkRuns(text).precomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
    }

    /// One round of case folding: upper case, capital sigma to `σ`, lower case (JavaScript's
    /// `toUpperCase().replace(/Σ/g, 'σ').toLowerCase()`).
    private static func caseMapped(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var output: [Unicode.Scalar] = []
        for scalar in scalars {
            for upper in scalar.properties.uppercaseMapping.unicodeScalars {
                if upper.value == 0x3A3 {
                    output.append("\u{3C3}")
                } else {
                    output.append(contentsOf: upper.properties.lowercaseMapping.unicodeScalars)
                }
            }
        }
        return output
    }

    /// Appends the case-folded `scalars` to `output`; returns whether any code point changed.
    private static func fold(_ scalars: [Unicode.Scalar], into output: inout [Unicode.Scalar]) -> Bool {
        var changed = false
        for scalar in scalars {
            if scalar.value < 0x80 {
                if (0x41...0x5A).contains(scalar.value) {
                    output.append(Unicode.Scalar(UInt8(scalar.value) + 32))
                    changed = true
                } else {
                    output.append(scalar)
                }
            } else if !scalar.properties.changesWhenCaseMapped {
                output.append(scalar)
            } else {
                // Twice: `ẞ` lowers to `ß`, which only a second round takes to `ss`; two rounds reach a fixed point.
                let folded = caseMapped(caseMapped([scalar]))
                if folded.count != 1 || folded.first != scalar { changed = true }
                output.append(contentsOf: folded)
            }
        }
        return changed
    }

    /// Whether `scalar` is whitespace as JavaScript's `\s` defines it (the query splitter on both sides).
    @inlinable public static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool { isWhitespace(scalar.value) }

    /// ``isWhitespace(_:)-(Unicode.Scalar)`` of a code point's value.
    @inlinable public static func isWhitespace(_ value: UInt32) -> Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: return true
        default: return false
        }
    }

    /// Splits a raw query into its words at JavaScript `\s` whitespace, dropping empty words (`q.trim().split(/\s+/)`).
    public static func queryWords(_ query: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in query.unicodeScalars {
            if isWhitespace(scalar) {
                if !current.isEmpty { words.append(String(current)) }
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    /// The normalised query words, de-duplicated in first-seen order; words that normalise to nothing are dropped.
    public static func normalizedQueryWords(_ query: String) -> [String] {
        var seen = Set<String>()
        var words: [String] = []
        for word in queryWords(query) {
            let normalized = normalize(word)
            if !normalized.isEmpty, seen.insert(normalized).inserted { words.append(normalized) }
        }
        return words
    }

    /// Whether `haystack` contains `needle` as a run of Unicode scalars (the oracle's `contains`).
    ///
    /// Swift's `String.contains` compares grapheme clusters (`"é".contains("e")` is false); the browser's
    /// `includes` compares code units. Matching UTF-8 bytes of valid strings equals code-point matching, which
    /// is what the index and `search.js` implement.
    public static func scalarsContain(_ haystack: String, _ needle: String) -> Bool {
        firstUTF8Offset(of: needle, in: haystack) != nil
    }

    /// The UTF-8 offset of the first occurrence of `needle` in `haystack`, comparing bytes.
    static func firstUTF8Offset(of needle: String, in haystack: String, from start: Int = 0) -> Int? {
        let hay = Array(haystack.utf8)
        let pin = Array(needle.utf8)
        guard !pin.isEmpty else { return start <= hay.count ? start : nil }
        guard hay.count >= pin.count else { return nil }
        let first = pin[0]
        var index = start
        let last = hay.count - pin.count
        while index <= last {
            if hay[index] == first {
                var offset = 1
                while offset < pin.count && hay[index + offset] == pin[offset] { offset += 1 }
                if offset == pin.count { return index }
            }
            index += 1
        }
        return nil
    }

    /// Composes conjoining Hangul jamo (L V → LV, LV T → LVT) that a canonical composer left apart.
    static func composeHangul(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        guard scalars.contains(where: { (0x1100...0x11FF).contains($0.value) }) else { return scalars }
        var output: [Unicode.Scalar] = []
        output.reserveCapacity(scalars.count)
        for scalar in scalars {
            let value = scalar.value
            if let last = output.last?.value {
                if (0x1100...0x1112).contains(last), (0x1161...0x1175).contains(value),
                    let syllable = Unicode.Scalar(0xAC00 + ((last - 0x1100) * 21 + (value - 0x1161)) * 28)
                {
                    output[output.count - 1] = syllable
                    continue
                }
                if (0xAC00...0xD7A3).contains(last), (last - 0xAC00) % 28 == 0, (0x11A8...0x11C2).contains(value),
                    let syllable = Unicode.Scalar(last + (value - 0x11A7))
                {
                    output[output.count - 1] = syllable
                    continue
                }
            }
            output.append(scalar)
        }
        return output
    }
}
