/// A 128-bit digest of everything one output file is made from, so the next build can tell whether to render it.
///
/// Two independent 64-bit FNV-1a lanes over the fed values, each value length-prefixed so that `("ab", "c")`
/// and `("a", "bc")` differ. Not cryptographic: it only has to tell "changed" from "unchanged", and at a
/// million files the chance of a collision between two versions of the same file is about 2⁻¹⁰⁰.
public struct BuildDigest: Sendable, Hashable, CustomStringConvertible {
    private(set) var high: UInt64 = 0xcbf2_9ce4_8422_2325
    private(set) var low: UInt64 = 0x8422_2325_cbf2_9ce4

    /// An empty digest.
    public init() {}

    /// The digest written as 32 hex digits (in the manifest).
    public var description: String {
        var bytes: [UInt8] = []
        appendHex(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``description``'s 32 hex digits to `bytes`, without making a string.
    func appendHex(to bytes: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        for word in [high, low] {
            for shift in stride(from: 60, through: 0, by: -4) {
                bytes.append(digits.utf8Start[Int((word >> UInt64(shift)) & 0xf)])
            }
        }
    }

    /// Parses the 32 hex digits of ``description``.
    init?(hex text: Substring) {
        guard text.utf8.count == 32, let high = UInt64(text.prefix(16), radix: 16), let low = UInt64(text.suffix(16), radix: 16) else {
            return nil
        }
        self.high = high
        self.low = low
    }

    /// A digest from its 32 hex digits as bytes (the manifest's first column); nil for anything else.
    init?(hexBytes bytes: some Collection<UInt8>) {
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
    init?(hex bytes: UnsafeBufferPointer<UInt8>) {
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

    @inline(__always)
    private mutating func feedByte(_ byte: UInt8) {
        high = (high ^ UInt64(byte)) &* 0x100_0000_01b3
        low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 &+ 0x9e37
    }

    private mutating func feedWord(_ value: UInt64) {
        var value = value
        for _ in 0..<8 {
            feedByte(UInt8(truncatingIfNeeded: value))
            value >>= 8
        }
    }

    /// Adds a string (length-prefixed).
    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            feedWord(UInt64(bytes.count))
            for byte in bytes { feedByte(byte) }
        }
    }

    /// Adds an integer.
    mutating func add(_ value: Int) {
        feedWord(UInt64(bitPattern: Int64(value)))
    }

    /// Adds a flag.
    mutating func add(_ flag: Bool) {
        feedByte(flag ? 1 : 2)
    }

    /// Adds an optional integer (nil differs from every value).
    mutating func add(_ value: Int?) {
        if let value {
            add(true)
            add(value)
        } else {
            add(false)
        }
    }

    /// Adds another digest.
    mutating func add(_ digest: BuildDigest) {
        feedWord(digest.high)
        feedWord(digest.low)
    }

    /// Adds raw bytes (length-prefixed).
    mutating func add<Bytes: Collection>(bytes: Bytes) where Bytes.Element == UInt8 {
        feedWord(UInt64(bytes.count))
        for byte in bytes { feedByte(byte) }
    }

    /// A digest of `parts`, in order.
    static func of(_ parts: String...) -> BuildDigest {
        var digest = BuildDigest()
        for part in parts { digest.add(part) }
        return digest
    }
}
