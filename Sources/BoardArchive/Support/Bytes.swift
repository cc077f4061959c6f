#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Byte-level pieces the search code shares: a substring search, the FNV-1a hash, UTF-8 order and a parser of the
/// index's string arrays.
enum Bytes {
    /// Whether `lhs` sorts before `rhs` by their UTF-8 bytes: the order of their scalars, without the canonical
    /// equivalence `String`'s `<` computes (which made sorting a block's Hangul tokens a tenth of patching it).
    static func utf8Precedes(_ lhs: String, _ rhs: String) -> Bool {
        var (lhs, rhs) = (lhs, rhs)
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                let common = min(left.count, right.count)
                if common > 0, let l = left.baseAddress, let r = right.baseAddress {
                    let order = memcmp(l, r, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
    }

    /// Where `needle` first occurs in `haystack` at or after `start` (an empty needle occurs at `start`). Candidates are
    /// found with the C library's `memchr` (keyword rows search every post they list).
    static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard let first = needle.first else { return start <= haystack.count ? start : nil }
        let last = haystack.count - needle.count
        guard start >= 0, start <= last else { return nil }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                guard let base = hay.baseAddress else { return nil }
                var index = start
                while index <= last {
                    guard let found = memchr(base + index, Int32(first), last + 1 - index) else { return nil }
                    index = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
                    var offset = 1
                    while offset < pin.count, hay[index + offset] == pin[offset] { offset += 1 }
                    if offset == pin.count { return index }
                    index += 1
                }
                return nil
            }
        }
    }

    /// The 64-bit FNV-1a hash of `bytes`.
    static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The strings of a JSON array of strings (`["a","b\\n"]`), or nil when `json` is not one: the posting shards a
    /// patched block reads back hold nothing else, and a generic parser made an object per string.
    static func stringArray(json: UnsafeBufferPointer<UInt8>) -> [String]? {
        var index = 0
        func skipSpace() {
            while index < json.count, json[index] == 0x20 || json[index] == 0x0A || json[index] == 0x0D || json[index] == 0x09 { index += 1 }
        }
        func hex4() -> UInt32? {
            guard index + 4 <= json.count else { return nil }
            var value: UInt32 = 0
            for offset in 0..<4 {
                guard let digit = Character(Unicode.Scalar(json[index + offset])).hexDigitValue else { return nil }
                value = value << 4 | UInt32(digit)
            }
            index += 4
            return value
        }
        func string() -> String? {
            guard index < json.count, json[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            var bytes: [UInt8] = []
            var run = index
            while index < json.count {
                let byte = json[index]
                if byte == UInt8(ascii: "\"") {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: json[run..<index]))
                    index += 1
                    return String(validating: bytes, as: UTF8.self)
                }
                guard byte == UInt8(ascii: "\\") else {
                    guard byte >= 0x20 else { return nil }
                    index += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: json[run..<index]))
                index += 1
                guard index < json.count else { return nil }
                let escaped = json[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escaped)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"):
                    guard var value = hex4() else { return nil }
                    if value >= 0xD800 && value < 0xDC00 {
                        guard index + 2 <= json.count, json[index] == UInt8(ascii: "\\"), json[index + 1] == UInt8(ascii: "u") else { return nil }
                        index += 2
                        guard let low = hex4(), low >= 0xDC00 && low < 0xE000 else { return nil }
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(value) else { return nil }
                    bytes.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
                run = index
            }
            return nil
        }
        skipSpace()
        guard index < json.count, json[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        var strings: [String] = []
        skipSpace()
        if index < json.count, json[index] == UInt8(ascii: "]") {
            index += 1
        } else {
            while true {
                skipSpace()
                guard let value = string() else { return nil }
                strings.append(value)
                skipSpace()
                guard index < json.count else { return nil }
                if json[index] == UInt8(ascii: ",") {
                    index += 1
                } else if json[index] == UInt8(ascii: "]") {
                    index += 1
                    break
                } else {
                    return nil
                }
            }
        }
        skipSpace()
        return index == json.count ? strings : nil
    }
}
