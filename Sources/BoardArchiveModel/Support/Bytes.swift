#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Byte-level pieces the search code shares: a substring search, the FNV-1a hash and UTF-8 order.
public enum Bytes {
    /// Calls `body` with `bytes` eight at a time, as little-endian words, the last one zero-padded: how the build's
    /// digests (``BuildDigest``) and the manifest's table of paths read bytes.
    @inlinable @inline(__always)
    public static func forEachWord(of bytes: UnsafeRawBufferPointer, _ body: (UInt64) -> Void) {
        var offset = 0
        while offset + 8 <= bytes.count {
            body(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        guard offset < bytes.count else { return }
        var tail: UInt64 = 0
        for index in offset..<bytes.count { tail |= UInt64(bytes[index]) << UInt64(8 * (index - offset)) }
        body(tail)
    }

    /// `items` sorted by `key(item)` in ``utf8Precedes(_:_:)``'s order, stably. The keys' bytes are laid out in one
    /// buffer first, so that comparing two keys touches no reference count: on integer prefixes first (a block's
    /// tokens are one or two characters, so nearly every comparison ends there), the whole texts only where prefixes
    /// tie (the build manifest's 200,000 paths share long prefixes such as `search/n4`; equal prefixes say nothing, as
    /// texts may differ after eight bytes or only in trailing U+0000).
    @inlinable public static func sortedByUTF8<T>(_ items: [T], key: (T) -> String) -> [T] {
        var bytes: [UInt8] = []
        var starts: [Int] = [0]
        var prefixes: [UInt64] = []
        starts.reserveCapacity(items.count + 1)
        prefixes.reserveCapacity(items.count)
        for item in items {
            var text = key(item)
            text.withUTF8 { utf8 in
                bytes.append(contentsOf: utf8)
                var prefix: UInt64 = 0
                for (index, byte) in utf8.prefix(8).enumerated() { prefix |= UInt64(byte) << UInt64(56 - 8 * index) }
                prefixes.append(prefix)
            }
            starts.append(bytes.count)
        }
        let order = bytes.withUnsafeBufferPointer { flat in
            starts.withUnsafeBufferPointer { starts in
                prefixes.withUnsafeBufferPointer { prefixes in
                    items.indices.sorted { lhs, rhs in
                        if prefixes[lhs] != prefixes[rhs] { return prefixes[lhs] < prefixes[rhs] }
                        return precedes(
                            UnsafeBufferPointer(rebasing: flat[starts[lhs]..<starts[lhs + 1]]),
                            UnsafeBufferPointer(rebasing: flat[starts[rhs]..<starts[rhs + 1]]))
                    }
                }
            }
        }
        return order.map { items[$0] }
    }

    /// Whether `lhs` sorts before `rhs` by their UTF-8 bytes: the order of their scalars, without the canonical
    /// equivalence `String`'s `<` computes (which made sorting a block's Hangul tokens a tenth of patching it).
    @inlinable public static func utf8Precedes(_ lhs: String, _ rhs: String) -> Bool {
        var (lhs, rhs) = (lhs, rhs)
        return lhs.withUTF8 { left in rhs.withUTF8 { right in precedes(left, right) } }
    }

    /// Whether the bytes `left` sort before the bytes `right` (``utf8Precedes(_:_:)`` of raw text).
    @inlinable public static func precedes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = min(left.count, right.count)
        if common > 0, let l = left.baseAddress, let r = right.baseAddress {
            let order = memcmp(l, r, common)
            if order != 0 { return order < 0 }
        }
        return left.count < right.count
    }

    /// Where `needle` first occurs in `haystack` at or after `start` (an empty needle occurs at `start`). Candidates are
    /// found with the C library's `memchr` (keyword rows search every post they list).
    @inlinable public static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
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

    /// The code point that starts at `offset` of the UTF-8 `bytes` (a `String`'s, so valid) and its length in bytes.
    /// The search builder's byte loops (grams, terms, contents pieces) read text a code point at a time with it.
    @inlinable @inline(__always)
    public static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (value: UInt32, length: Int) {
        let lead = bytes[offset]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for index in 1..<max(1, min(length, bytes.count - offset)) { value = value << 6 | (UInt32(bytes[offset + index]) & 0x3F) }
        return (value, length)
    }

    /// The 64-bit FNV-1a hash of `bytes`.
    @inlinable public static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
