/// A minimal PNG encoder with no dependencies: 8-bit RGB, no row filtering, and a zlib stream of stored (uncompressed)
/// deflate blocks, so the bytes depend only on the pixels.
///
/// Files are valid PNGs (signature, `IHDR`, `IDAT`, `IEND`, each chunk with its CRC-32; the zlib stream ends with its
/// Adler-32) that any decoder reads; they are not small, which does not matter for the few hundred pixels of a fixture.
enum TinyPNG {
    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The most data one stored deflate block holds.
    static let maximumStoredBlock = 65_535

    /// A PNG of `width` × `height` pixels from `rgb`, three bytes per pixel, row by row from the top left.
    ///
    /// Missing pixel bytes are black and extra ones are ignored; a zero or negative size becomes 1.
    static func encode(width: Int, height: Int, rgb: [UInt8]) -> [UInt8] {
        let width = max(1, width)
        let height = max(1, height)
        let rowBytes = width * 3
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (rowBytes + 1))
        for row in 0..<height {
            raw.append(0)  // filter type None
            let start = min(rgb.count, row * rowBytes)
            let end = min(rgb.count, start + rowBytes)
            raw.append(contentsOf: rgb[start..<end])
            raw.append(contentsOf: repeatElement(0, count: rowBytes - (end - start)))
        }
        return header(width: width, height: height) + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }

    /// The signature and the `IHDR` chunk of an 8-bit RGB picture: the first 33 bytes of every file ``encode(width:height:rgb:)``
    /// makes.
    static func header(width: Int, height: Int) -> [UInt8] {
        var ihdr = bigEndian(UInt32(truncatingIfNeeded: width)) + bigEndian(UInt32(truncatingIfNeeded: height))
        ihdr += [8, 2, 0, 0, 0]  // bit depth 8, colour type RGB, deflate, adaptive filtering, no interlace
        return signature + chunk("IHDR", ihdr)
    }

    /// One chunk: length, type, data and the CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(truncatingIfNeeded: data.count)) + typed + bigEndian(crc32(typed))
    }

    /// A zlib stream (RFC 1950) holding `data` in stored deflate blocks (RFC 1951, block type 00).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        // CMF 0x78 (deflate, 32 KiB window), FLG 0x01: 0x7801 is a multiple of 31, no preset dictionary, fastest level.
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(data.count + data.count / maximumStoredBlock * 5 + 11)
        var start = 0
        repeat {
            let end = min(data.count, start + maximumStoredBlock)
            let length = UInt16(end - start)
            out.append(end == data.count ? 1 : 0)  // BFINAL on the last block, BTYPE 00
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out.append(contentsOf: data[start..<end])
            start = end
        } while start < data.count
        return out + bigEndian(adler32(data))
    }

    /// The Adler-32 checksum of `data` (RFC 1950).
    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    /// The CRC-32 of `data` as PNG chunks use it (ISO 3309, reflected polynomial 0xEDB88320).
    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
