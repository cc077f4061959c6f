/// A 128-bit digest of everything one output file is made from, so the next build can tell whether to render it.
///
/// Two independent 64-bit lanes over the fed values, 64-bit words at a time (strings and bytes eight to a word), each
/// value length-prefixed so that `("ab", "c")` and `("a", "bc")` differ. Not cryptographic: it only has to tell "changed" from "unchanged", and at a
/// million files the chance of a collision between two versions of the same file is about 2⁻¹⁰⁰.
public struct BuildDigest: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline private(set) var high: UInt64 = 0xcbf2_9ce4_8422_2325
    @usableFromInline private(set) var low: UInt64 = 0x8422_2325_cbf2_9ce4

    /// An empty digest.
    public init() {}

    /// The digest written as 32 hex digits (in the manifest).
    public var description: String {
        var bytes: [UInt8] = []
        appendHex(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``description``'s 32 hex digits to `bytes`, without making a string.
    /// The manifest writes one per file (2 M at 1M posts), on the publish step's one core: no list of the two words is
    /// made per call.
    package func appendHex(to bytes: inout [UInt8]) {
        Self.appendHex(of: high, to: &bytes)
        Self.appendHex(of: low, to: &bytes)
    }

    /// Appends the 16 lowercase hex digits of `word`, most significant first.
    @inline(__always)
    private static func appendHex(of word: UInt64, to bytes: inout [UInt8]) {
        var shift: UInt64 = 64
        while shift > 0 {
            shift -= 4
            let nibble = UInt8(truncatingIfNeeded: (word >> shift) & 0xf)
            bytes.append(nibble < 10 ? nibble &+ UInt8(ascii: "0") : nibble &+ (UInt8(ascii: "a") - 10))
        }
    }

    /// Parses the 32 hex digits of ``description``.
    package init?(hex text: Substring) {
        guard text.utf8.count == 32, let high = UInt64(text.prefix(16), radix: 16), let low = UInt64(text.suffix(16), radix: 16) else {
            return nil
        }
        self.high = high
        self.low = low
    }

    /// A digest from its 32 hex digits as bytes (the manifest's first column); nil for anything else.
    package init?(hexBytes bytes: some Collection<UInt8>) {
        guard let parsed = Array(bytes).withUnsafeBufferPointer({ Self(hex: $0) }) else { return nil }
        self = parsed
    }

    /// The value of each byte as a hex digit, or 0xFF.
    private static let hexValues: [UInt8] = (0..<256).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
        default: 0xFF
        }
    }

    /// The digest of 32 hex digits, through a table (the manifest holds one per file: 134,811 at 100k posts).
    package init?(hex bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 32 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        var invalid: UInt8 = 0
        Self.hexValues.withUnsafeBufferPointer { table in
            for index in 0..<16 {
                let (high, low) = (table[Int(bytes[index])], table[Int(bytes[index + 16])])
                invalid |= high | low
                words.0 = words.0 << 4 | UInt64(high & 0xF)
                words.1 = words.1 << 4 | UInt64(low & 0xF)
            }
        }
        guard invalid & 0xF0 == 0 else { return nil }
        (self.high, self.low) = words
    }

    /// Mixes one 64-bit word into both lanes: xor, multiply by an odd constant, xor-shift. Each step is a bijection of
    /// the lane, so two inputs that differ in one word never meet. Words, not bytes: fed a byte at a time (FNV-1a),
    /// the digests of a rebuild's 100,000 post pages were a sixth of its board step.
    @inlinable @inline(__always)
    mutating func feedWord(_ value: UInt64) {
        high = (high ^ value) &* 0x0000_0100_0000_01b3
        high ^= high >> 32
        low = (low ^ value) &* 0x9e37_79b9_7f4a_7c15
        low ^= low >> 29
    }

    /// Feeds `bytes` (after their count) eight at a time, the last word zero-padded.
    @inlinable
    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        feedWord(UInt64(bytes.count))
        Bytes.forEachWord(of: bytes) { feedWord($0) }
    }

    /// Adds a string (length-prefixed).
    @inlinable public mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { feed(UnsafeRawBufferPointer($0)) }
    }

    /// Adds an integer.
    @inlinable public mutating func add(_ value: Int) {
        feedWord(UInt64(bitPattern: Int64(value)))
    }

    /// Adds a flag.
    @inlinable public mutating func add(_ flag: Bool) {
        feedWord(flag ? 1 : 2)
    }

    /// Adds an optional integer (nil differs from every value).
    @inlinable public mutating func add(_ value: Int?) {
        if let value {
            add(true)
            add(value)
        } else {
            add(false)
        }
    }

    /// Adds another digest.
    @inlinable public mutating func add(_ digest: BuildDigest) {
        feedWord(digest.high)
        feedWord(digest.low)
    }

    /// Adds raw bytes (length-prefixed).
    @inlinable public mutating func add<Bytes: Collection>(bytes: Bytes) where Bytes.Element == UInt8 {
        let fed: Void? = bytes.withContiguousStorageIfAvailable { feed(UnsafeRawBufferPointer($0)) }
        if fed == nil { Array(bytes).withUnsafeBytes { feed($0) } }
    }

    /// The digest of a file made from nothing but its own bytes (assets, the marker, files written without a declared
    /// input).
    @inlinable public init<Bytes: Collection>(bytes: Bytes) where Bytes.Element == UInt8 {
        self.init()
        add(bytes: bytes)
    }
}
