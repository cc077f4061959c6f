import BoardArchiveModel

/// Encodes a sorted list of post positions within a block as a short ASCII string, and back.
///
/// Two forms, whichever is shorter: gaps as base-32 digits in a 64-letter alphabet (a digit with value ≥ 32
/// carries on, the first number is the position, each next one the gap minus one); or, after a `!`, a bitmap
/// with six positions per letter. The alphabet (`0-9A-Za-z-_`) needs no escaping in JSON or JavaScript.
package enum PostingCodec {
    static let alphabet: [UInt8] = Array(SearchIndexFormat.alphabet.utf8)
    private static let marker = SearchIndexFormat.bitmapMarker.utf8.first ?? 0
    private static let separator = SearchIndexFormat.listSeparator.utf8.first ?? 0
    private static let (bits, digitBits) = (SearchIndexFormat.bitmapBits, SearchIndexFormat.digitBits)
    private static let (digitBase, digitMask) = (1 << SearchIndexFormat.digitBits, (1 << SearchIndexFormat.digitBits) - 1)
    private static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        for (index, letter) in alphabet.enumerated() { table[Int(letter)] = Int8(index) }
        return table
    }()

    /// Encodes strictly increasing, non-negative `positions`.
    package static func encode(_ positions: [Int]) -> String {
        encode(positions[...])
    }

    /// ``encode(_:)`` of a slice of a larger array (a block's lists lie in one, as 32-bit positions).
    static func encode<Position: BinaryInteger>(_ positions: ArraySlice<Position>) -> String {
        guard let last = positions.last.map(Int.init) else { return "" }
        var gaps: [UInt8] = []
        gaps.reserveCapacity(positions.count * 2)
        var previous = -1
        for item in positions {
            let position = Int(item)
            let value = position - previous - 1
            previous = position
            // Base-32 digits, most significant first; every digit but the last carries on (+32).
            var shift = 0
            while value >> (shift + digitBits) > 0 { shift += digitBits }
            while shift > 0 {
                gaps.append(alphabet[((value >> shift) & digitMask) + digitBase])
                shift -= digitBits
            }
            gaps.append(alphabet[value & digitMask])
        }
        let bitmapLength = 1 + last / bits + 1
        if bitmapLength < gaps.count {
            var letters = [Int](repeating: 0, count: last / bits + 1)
            for item in positions {
                let position = Int(item)
                letters[position / bits] |= 1 << (position % bits)
            }
            return SearchIndexFormat.bitmapMarker + String(decoding: letters.map { alphabet[$0] }, as: UTF8.self)
        }
        return String(decoding: gaps, as: UTF8.self)
    }

    /// Decodes a string made by `encode`; letters outside the alphabet are skipped.
    static func decode(_ text: String) -> [Int] {
        decode(text.utf8)
    }

    /// ``decode(_:)`` of the bytes of a string.
    static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [Int] {
        var positions: [Int] = []
        if bytes.first == marker {
            for (index, byte) in bytes.dropFirst().enumerated() {
                guard byte < 128 else { continue }
                let value = Int(values[Int(byte)])
                guard value >= 0 else { continue }
                for bit in 0..<bits where value & (1 << bit) != 0 { positions.append(index * bits + bit) }
            }
            return positions
        }
        var previous = -1
        var accumulator = 0
        for byte in bytes {
            guard byte < 128 else { continue }
            let value = Int(values[Int(byte)])
            guard value >= 0 else { continue }
            accumulator = accumulator << digitBits | (value & digitMask)
            if value < digitBase {
                previous += accumulator + 1
                positions.append(previous)
                accumulator = 0
            }
        }
        return positions
    }

    /// The lists of a token no entry holds: one empty list per ``SearchField``.
    static let noLists = [[Int]](repeating: [], count: SearchField.allCases.count)

    /// The lists of a posting entry, `title.contents.writer`, one per ``SearchField`` (the entry drops trailing empty
    /// lists; they come back empty).
    package static func decodeLists(_ lists: String) -> [[Int]] {
        guard !lists.isEmpty else { return noLists }
        var decoded = lists.utf8.split(separator: separator, omittingEmptySubsequences: false).map { decode($0) }
        while decoded.count < SearchField.allCases.count { decoded.append([]) }
        return decoded
    }
}
