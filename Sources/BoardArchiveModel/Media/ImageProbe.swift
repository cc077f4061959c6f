/// Tells what a fetched file is from its bytes alone: one of the kept formats with its intrinsic size, SVG, or neither.
///
/// A server's `Content-Type` is never asked. Every read is bounds-checked and every loop moves forward, so any input (empty,
/// one byte, truncated, random, huge) gets a verdict in time linear in its size, without reading out of range.
public enum ImageProbe {
    /// What the bytes of a fetched file are.
    public enum Verdict: Sendable, Equatable {
        /// A kept format with its intrinsic size in pixels, both sides in `1...100_000`.
        case image(ImageFormat, width: Int, height: Int)
        /// SVG (XML text that holds `<svg`): never kept, because it can hold scripts.
        case svg
        /// None of the kept formats and not SVG: HTML, text, JSON or unknown bytes.
        case notAnImage
        /// The format's signature, but no size could be read: truncated or corrupt, or a side of 0 or above 100,000.
        case unreadable(ImageFormat)
    }

    /// The largest width or height taken as real; a larger one (or 0) means the header is corrupt.
    static let largestSide = 100_000
    /// How far into an AVIF file the `ispe` (image spatial extents) property is looked for.
    static let avifSearchLimit = 256 * 1024
    /// How far into an XML text `<svg` is looked for.
    static let svgSearchLimit = 4 * 1024

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]
    private static let gif87a = Array("GIF87a".utf8)
    private static let gif89a = Array("GIF89a".utf8)
    private static let ihdr = Array("IHDR".utf8)
    private static let riff = Array("RIFF".utf8)
    private static let webp = Array("WEBP".utf8)
    private static let vp8 = Array("VP8 ".utf8)
    private static let vp8l = Array("VP8L".utf8)
    private static let vp8x = Array("VP8X".utf8)
    private static let vp8StartCode: [UInt8] = [0x9D, 0x01, 0x2A]
    private static let ftyp = Array("ftyp".utf8)
    private static let avifBrands = [Array("avif".utf8), Array("avis".utf8)]
    private static let ispe = Array("ispe".utf8)
    private static let utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// What `bytes` are: a kept image and its size, SVG, something else, or a kept format whose size cannot be read.
    public static func probe(_ bytes: [UInt8]) -> Verdict {
        guard let format = format(of: bytes) else { return isSVG(bytes) ? .svg : .notAnImage }
        let size: (width: Int, height: Int)?
        switch format {
        case .png: size = pngSize(bytes)
        case .jpeg: size = jpegSize(bytes)
        case .gif: size = gifSize(bytes)
        case .webp: size = webpSize(bytes)
        case .avif: size = avifSize(bytes)
        }
        guard let size, (1...largestSide).contains(size.width), (1...largestSide).contains(size.height) else {
            return .unreadable(format)
        }
        return .image(format, width: size.width, height: size.height)
    }

    /// One sentence (without its subject) for a warning about a file that is not kept, e.g. "is a PNG whose size cannot be
    /// read"; nil for a kept image.
    public static func reason(_ verdict: Verdict) -> String? {
        switch verdict {
        case .image: nil
        case .svg: "is SVG, which is never kept (it can hold scripts)"
        case .notAnImage: "is not a PNG, JPEG, GIF, WebP or AVIF image"
        case .unreadable(let format): "is \(format.nameWithArticle) whose size cannot be read"
        }
    }

    // MARK: - Signatures

    /// The kept format whose signature `bytes` start with, if any.
    static func format(of bytes: [UInt8]) -> ImageFormat? {
        if matches(bytes, at: 0, pngSignature) { return .png }
        if matches(bytes, at: 0, jpegSignature) { return .jpeg }
        if matches(bytes, at: 0, gif87a) || matches(bytes, at: 0, gif89a) { return .gif }
        if matches(bytes, at: 0, riff) && matches(bytes, at: 8, webp) { return .webp }
        if isAVIF(bytes) { return .avif }
        return nil
    }

    /// Whether `bytes` start with an ISO-BMFF `ftyp` box whose major brand or one of whose compatible brands is `avif` or
    /// `avis`.
    static func isAVIF(_ bytes: [UInt8]) -> Bool {
        guard matches(bytes, at: 4, ftyp), let declared = bigEndian(bytes, at: 0, count: 4) else { return false }
        var header = 8
        let end: Int
        switch declared {
        case 0: end = bytes.count  // the box runs to the end of the file
        case 1:  // a 64-bit size follows the type
            guard let high = bigEndian(bytes, at: 8, count: 4), let low = bigEndian(bytes, at: 12, count: 4) else { return false }
            header = 16
            end = high > 0 ? bytes.count : min(low, bytes.count)
        default: end = min(declared, bytes.count)
        }
        // The major brand, a 4-byte minor version, then compatible brands up to the end of the box.
        guard header + 8 <= end else { return false }
        if avifBrands.contains(where: { matches(bytes, at: header, $0) }) { return true }
        var offset = header + 8
        while offset + 4 <= end {
            if avifBrands.contains(where: { matches(bytes, at: offset, $0) }) { return true }
            offset += 4
        }
        return false
    }

    /// Whether `bytes` are SVG text: after an optional UTF-8 byte order mark and ASCII whitespace, `<svg`; or an XML
    /// declaration, an SVG doctype or a comment, with `<svg` in the first 4 KiB (all case-insensitive).
    static func isSVG(_ bytes: [UInt8]) -> Bool {
        var offset = matches(bytes, at: 0, utf8BOM) ? utf8BOM.count : 0
        while offset < bytes.count, isASCIIWhitespace(bytes[offset]) { offset += 1 }
        if matchesIgnoringCase(bytes, at: offset, "<svg") { return true }
        var prolog = matchesIgnoringCase(bytes, at: offset, "<?xml") || matchesIgnoringCase(bytes, at: offset, "<!--")
        if !prolog, matchesIgnoringCase(bytes, at: offset, "<!doctype") {
            var name = offset + "<!doctype".utf8.count
            while name < bytes.count, isASCIIWhitespace(bytes[name]) { name += 1 }
            prolog = matchesIgnoringCase(bytes, at: name, "svg")
        }
        guard prolog else { return false }
        let limit = min(bytes.count, svgSearchLimit)
        var candidate = 0
        while candidate + 4 <= limit {
            if bytes[candidate] == UInt8(ascii: "<"), matchesIgnoringCase(bytes, at: candidate, "<svg") { return true }
            candidate += 1
        }
        return false
    }

    // MARK: - Sizes

    /// PNG: the IHDR chunk comes first; width and height are 32-bit big-endian at offsets 16 and 20.
    static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard matches(bytes, at: 12, ihdr), let width = bigEndian(bytes, at: 16, count: 4),
            let height = bigEndian(bytes, at: 20, count: 4)
        else { return nil }
        return (width, height)
    }

    /// GIF: the logical screen's width and height, 16-bit little-endian at offsets 6 and 8.
    static func gifSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard let width = littleEndian(bytes, at: 6, count: 2), let height = littleEndian(bytes, at: 8, count: 2) else { return nil }
        return (width, height)
    }

    /// JPEG: the size in the first frame header (SOF0–SOF15 but DHT, JPG and DAC), found by walking the marker segments
    /// from the start; nil at a start of scan or end of image before any frame header, or when the data runs out.
    static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        var offset = 2
        while offset < bytes.count {
            // A stray byte between segments is skipped, as decoders do.
            guard bytes[offset] == 0xFF else {
                offset += 1
                continue
            }
            var markerAt = offset + 1
            while markerAt < bytes.count, bytes[markerAt] == 0xFF { markerAt += 1 }  // fill bytes
            guard markerAt < bytes.count else { return nil }
            let marker = bytes[markerAt]
            offset = markerAt + 1
            switch marker {
            case 0x00, 0x01, 0xD0...0xD8: continue  // a stuffed zero, TEM, RSTn, SOI: no length follows
            case 0xD9, 0xDA: return nil  // end of image, or start of scan, before any frame header
            default: break
            }
            guard let length = bigEndian(bytes, at: offset, count: 2), length >= 2 else { return nil }
            if isStartOfFrame(marker) {
                // Length (2 bytes), sample precision (1), height (2), width (2).
                guard length >= 8, let height = bigEndian(bytes, at: offset + 3, count: 2),
                    let width = bigEndian(bytes, at: offset + 5, count: 2)
                else { return nil }
                return (width, height)
            }
            offset += length
        }
        return nil
    }

    /// Whether `marker` starts a frame header: C0–CF except C4 (DHT), C8 (JPG) and CC (DAC).
    static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// WebP: the size in the first chunk after the `RIFF`/`WEBP` header, `VP8 `, `VP8L` or `VP8X`.
    static func webpSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let data = 20  // after "RIFF", the file size, "WEBP", the chunk's type and its size
        if matches(bytes, at: 12, vp8) {
            // A 3-byte frame tag, the start code, then 14-bit width and height (2 bits of scaling above each).
            guard matches(bytes, at: data + 3, vp8StartCode), let width = littleEndian(bytes, at: data + 6, count: 2),
                let height = littleEndian(bytes, at: data + 8, count: 2)
            else { return nil }
            return (width & 0x3FFF, height & 0x3FFF)
        }
        if matches(bytes, at: 12, vp8l) {
            // The signature 0x2F, then width - 1 and height - 1 in 14 bits each, packed little-endian.
            guard data < bytes.count, bytes[data] == 0x2F, let bits = littleEndian(bytes, at: data + 1, count: 4) else { return nil }
            return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
        }
        if matches(bytes, at: 12, vp8x) {
            // Flags and 3 reserved bytes, then the canvas's width - 1 and height - 1 in 24 bits each.
            guard let width = littleEndian(bytes, at: data + 4, count: 3), let height = littleEndian(bytes, at: data + 7, count: 3) else {
                return nil
            }
            return (width + 1, height + 1)
        }
        return nil
    }

    /// AVIF: the first `ispe` property in the first 256 KiB (4 bytes of version and flags, then 32-bit big-endian width and
    /// height), found by a byte search; an occurrence whose box size before it is too small for the property is passed over.
    static func avifSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let limit = min(bytes.count, avifSearchLimit)
        var offset = 4
        while offset + 4 <= limit {
            if bytes[offset] == UInt8(ascii: "i"), matches(bytes, at: offset, ispe),
                let boxSize = bigEndian(bytes, at: offset - 4, count: 4), boxSize >= 20
            {
                guard let width = bigEndian(bytes, at: offset + 8, count: 4), let height = bigEndian(bytes, at: offset + 12, count: 4)
                else { return nil }
                return (width, height)
            }
            offset += 1
        }
        return nil
    }

    // MARK: - Reading

    /// Whether `bytes` hold `pattern` at `offset` (false when it would run past the end).
    static func matches(_ bytes: [UInt8], at offset: Int, _ pattern: [UInt8]) -> Bool {
        guard offset >= 0, pattern.count <= bytes.count - offset else { return false }
        for index in pattern.indices where bytes[offset + index] != pattern[index] { return false }
        return true
    }

    /// Whether `bytes` hold the ASCII text `pattern` at `offset`, ignoring ASCII case (`pattern` is lowercase).
    static func matchesIgnoringCase(_ bytes: [UInt8], at offset: Int, _ pattern: String) -> Bool {
        guard offset >= 0, pattern.utf8.count <= bytes.count - offset else { return false }
        var index = offset
        for expected in pattern.utf8 {
            let byte = bytes[index]
            let lowered = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            guard lowered == expected else { return false }
            index += 1
        }
        return true
    }

    /// The unsigned big-endian integer of `count` (at most 4) bytes at `offset`, or nil past the end.
    static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int? {
        guard offset >= 0, count <= bytes.count - offset else { return nil }
        var value = 0
        for index in offset..<(offset + count) { value = value << 8 | Int(bytes[index]) }
        return value
    }

    /// The unsigned little-endian integer of `count` (at most 4) bytes at `offset`, or nil past the end.
    static func littleEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int? {
        guard offset >= 0, count <= bytes.count - offset else { return nil }
        var value = 0
        for index in (offset..<(offset + count)).reversed() { value = value << 8 | Int(bytes[index]) }
        return value
    }

    /// Space, tab, line feed, form feed or carriage return.
    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }
}
