import Foundation
import Testing

@testable import BoardArchiveModel

/// Real files of every kept format, made with ImageMagick 6.9.11 (libwebp 1.2.4, libheif 1.15.1), libavif's avifenc and
/// exiftool, each of its own odd size.
enum ImageFixtures {
    /// The bytes of `base64` (line breaks ignored); empty, which no test takes for an image, if it does not decode.
    static func bytes(_ base64: String) -> [UInt8] {
        Data(base64Encoded: base64, options: .ignoreUnknownCharacters).map { [UInt8]($0) } ?? []
    }

    /// PNG, 37×21 (`convert -size 37x21 gradient:red-blue -depth 8 -strip`).
    static let png = bytes(
        """
        iVBORw0KGgoAAAANSUhEUgAAACUAAAAVCAMAAAD2OtecAAAAP1BMVEX/AADyAAzlABnYACbMADO/AD+yAEylAFmZAGaMAHJ/AH9yAIxmAJlZAKVMALI/
        AL8zAMwmANgZAOUMAPIAAP9JvH0HAAAAPUlEQVQoz43BCQJAIAAAwRVKF0r/f6sv7Awom0Ew2A0Og9MgGiSDyyAbFINq0Ay6wW3wGLwGw2AafAbL+AHO
        Kh5bJ1TahAAAAABJRU5ErkJggg==
        """)

    /// GIF89a, 29×13 (`-colors 4`).
    static let gif = bytes(
        """
        R0lGODlhHQANAPEAADebAKHQAOr0AAAAACH5BAAAAAAALAAAAAAdAA0AAAI6hI+py+0Po4xhVXUtChz07XlcFnaVaZifeorjC8fyTMuCHdw6p985/wP2
        hoLij1hE5pLMpvMJjUqdBQA7
        """)

    /// Baseline JPEG, 45×19: APP0 (JFIF), APP1 (Exif by exiftool, holding a 9×7 JPEG thumbnail with its own SOF0), COM and
    /// DQT before the SOF0.
    static let jpegExif = bytes(
        """
        /9j/4AAQSkZJRgABAQAAAQABAAD/4QIARXhpZgAATU0AKgAAAAgABgEPAAIAAAAFAAAAVgEaAAUAAAABAAAAXAEbAAUAAAABAAAAZAEoAAMAAAABAAEA
        AAE7AAIAAAANAAAAbAITAAMAAAABAAEAAAAAAHpUZXN0AAAAAAABAAAAAQAAAAEAAAABQm9hcmRBcmNoaXZlAAAABgEDAAMAAAABAAYAAAEaAAUAAAAB
        AAAAyAEbAAUAAAABAAAA0AEoAAMAAAABAAIAAAIBAAQAAAABAAAA2AICAAQAAAABAAABHwAAAAAAAABIAAAAAQAAAEgAAAAB/9j/4AAQSkZJRgABAQAA
        AQABAAD/2wBDABsSFBcUERsXFhceHBsgKEIrKCUlKFE6PTBCYFVlZF9VXVtqeJmBanGQc1tdhbWGkJ6jq62rZ4C8ybqmx5moq6T/2wBDARweHigjKE4r
        K06kbl1upKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKT/wAARCAAHAAkDASIAAhEBAxEB/8QAFQABAQAAAAAA
        AAAAAAAAAAAAAAT/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABAb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIR
        AxEAPwCAANSP/9kA//4AD3Byb2JlIGZpeHR1cmX/2wBDABQODxIPDRQSEBIXFRQYHjIhHhwcHj0sLiQySUBMS0dARkVQWnNiUFVtVkVGZIhlbXd7gYKB
        TmCNl4x9lnN+gXz/wAALCAATAC0BAREA/8QAFgABAQEAAAAAAAAAAAAAAAAAAAYF/8QAGxAAAQQDAAAAAAAAAAAAAAAAAAECExVSYWL/2gAIAQEAAD8A
        37HYsdix2LHYsdix2SVj0LHoWPQsehY9Cx6JyR2SiR2SiR2SiR2SiR2SiR2Sn//Z
        """)

    /// Progressive JPEG, 51×23 (`-interlace Plane`): SOF2.
    static let jpegProgressive = bytes(
        """
        /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABsSFBcUERsXFhceHBsgKEIrKCUlKFE6PTBCYFVlZF9VXVtqeJmBanGQc1tdhbWGkJ6jq62rZ4C8ybqmx5mo
        q6T/2wBDARweHigjKE4rK06kbl1upKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKT/wgARCAAXADMDASIAAhEB
        AxEB/8QAGAABAAMBAAAAAAAAAAAAAAAAAAIDBAH/xAAYAQEBAQEBAAAAAAAAAAAAAAADAgEEAP/aAAwDAQACEAMQAAABWZZdC7me0phVooLYIPQ6dM86
        KtoDYAr/AP/EABkQAAMBAQEAAAAAAAAAAAAAAAABERACEv/aAAgBAQABBQJCEMZcp6F2XOi5M9FKQ//EABgRAAMBAQAAAAAAAAAAAAAAAAABERIQ/9oA
        CAEDAQE/AckhKYE2Lv8A/8QAGREAAwEBAQAAAAAAAAAAAAAAAAERAhAi/9oACAECAQE/AWOotPRklN5XP//EABQQAQAAAAAAAAAAAAAAAAAAAED/2gAI
        AQEABj8CL//EABwQAQEAAQUBAAAAAAAAAAAAAAEAERAhMVFxQf/aAAgBAQABPyGerjHME4ldWbKHJ3BZ3+wlZsaOI9Q8W6Z//9oADAMBAAIAAwAAABBS
        EsP+D8H/xAAZEQACAwEAAAAAAAAAAAAAAAAAARARQSH/2gAIAQMBAT8QelBXE01roij/xAAYEQEBAQEBAAAAAAAAAAAAAAABABEhQf/aAAgBAgEBPxAL
        HpdMyyPTsAdgeWt//8QAHhABAAICAwADAAAAAAAAAAAAAQARITFBUXFhgZH/2gAIAQEAAT8QwdYlOKPUSC5tfktYt5pfct59QJsahU0z4CCUwnQexy6z
        BIolRyEbkpHkY5CQ1tx5JYrP/9k=
        """)

    /// Lossy WebP, 33×17: a `VP8 ` chunk.
    static let webpLossy = bytes(
        """
        UklGRkwAAABXRUJQVlA4IEAAAACwAwCdASohABEAPxGAtlUsKCSjJWsxgCIJYgDQvwFqAAJl0+emGAD+54v/m0i/Rz/+f36yBKlsQDuOkif1gAAA
        """)

    /// Lossless WebP, 27×11: a `VP8L` chunk.
    static let webpLossless = bytes(
        """
        UklGRnIAAABXRUJQVlA4TGUAAAAvGoACAB+gpm0DhnpA5uvAJSQgU76JDoj5D3i5BA5i21YqLIBbBY3gFLAbAQvkAVwK0Aka2JcOEf2fgPun+ee6z2s/
        jW06tvnQp59yO3Xt2MlNHDd5LAEAFMB9+RGHEB5ioyTyGwA=
        """)

    /// Lossy WebP with alpha, 41×25: a `VP8X` chunk first.
    static let webpExtended = bytes(
        """
        UklGRqAAAABXRUJQVlA4WAoAAAAQAAAAKAAAGAAAQUxQSCMAAAABmYzof0Bt2zaMnfZ2/tfmLWIChAQESbfiC+bhWCARRoBHCABWUDggVgAAAJADAJ0B
        KikAGQA/EXy1U7+npSKlbMvwIgloAMKdf6Ay/Wfhw/YA/uvq2nf7Bdcis/Xro0f9nb/3Cn6tmSinL0D7PVUJAtRmOfqW+Zp0x3WRTYkngAAA
        """)

    /// AVIF, 31×15, by ImageMagick through libheif.
    static let avifImageMagick = bytes(
        """
        AAAAHGZ0eXBhdmlmAAAAAGF2aWZtaWYxbWlhZgAAAOptZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAAAA5waXRtAAAAAAAB
        AAAAImlsb2MAAAAAREAAAQABAAAAAAEOAAEAAAAAAAAAIwAAACNpaW5mAAAAAAABAAAAFWluZmUCAAAAAAEAAGF2MDEAAAAAamlwcnAAAABLaXBjbwAA
        ABNjb2xybmNseAACAAIABoAAAAAMYXYxQ4EADAAAAAAUaXNwZQAAAAAAAAAfAAAADwAAABBwaXhpAAAAAAMICAgAAAAXaXBtYQAAAAAAAAABAAEEgYID
        hAAAACttZGF0EgAKBhgQ/cwIQDIXGwAaaaaEAE/nXXjfzzkjN3/5y2eVEEA=
        """)

    /// AVIF, 35×9, by avifenc.
    static let avifLibavif = bytes(
        """
        AAAAHGZ0eXBhdmlmAAAAAGF2aWZtaWYxbWlhZgAAAPJtZXRhAAAAAAAAAChoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAbGliYXZpZgAAAAAOcGl0
        bQAAAAAAAQAAAB5pbG9jAAAAAEQAAAEAAQAAAAEAAAEWAAAATQAAAChpaW5mAAAAAAABAAAAGmluZmUCAAAAAAEAAGF2MDFDb2xvcgAAAABqaXBycAAA
        AEtpcGNvAAAAFGlzcGUAAAAAAAAAIwAAAAkAAAAQcGl4aQAAAAADDAwMAAAADGF2MUOBQGAAAAAAE2NvbHJuY2x4AAEADQAGgAAAABdpcG1hAAAAAAAA
        AAEAAQQBAoMEAAAAVW1kYXQSAAoJWBTihjQENBogMj4bQCOOOMQA+sqBeVdtVZ78Fh9pCLWaHbOpsntJFblRpGjvrBPF/f3yonQF6HMB+qfsjv0uDl+v
        uleEK3sSQA==
        """)

    /// A kept file, the format and size it must be probed as.
    struct Case: Sendable {
        let name: String
        let bytes: [UInt8]
        let format: ImageFormat
        let width: Int
        let height: Int
    }

    /// Every fixture with its expected verdict.
    static let all: [Case] = [
        Case(name: "PNG", bytes: png, format: .png, width: 37, height: 21),
        Case(name: "GIF89a", bytes: gif, format: .gif, width: 29, height: 13),
        Case(name: "JPEG with Exif", bytes: jpegExif, format: .jpeg, width: 45, height: 19),
        Case(name: "progressive JPEG", bytes: jpegProgressive, format: .jpeg, width: 51, height: 23),
        Case(name: "lossy WebP", bytes: webpLossy, format: .webp, width: 33, height: 17),
        Case(name: "lossless WebP", bytes: webpLossless, format: .webp, width: 27, height: 11),
        Case(name: "extended WebP", bytes: webpExtended, format: .webp, width: 41, height: 25),
        Case(name: "AVIF (ImageMagick)", bytes: avifImageMagick, format: .avif, width: 31, height: 15),
        Case(name: "AVIF (avifenc)", bytes: avifLibavif, format: .avif, width: 35, height: 9),
    ]

    /// The JPEG marker segments of `bytes` up to the start of scan, as their marker bytes (no fill bytes expected).
    static func jpegMarkers(_ bytes: [UInt8]) -> [UInt8] {
        var markers: [UInt8] = []
        var offset = 2
        while offset + 3 < bytes.count, bytes[offset] == 0xFF {
            markers.append(bytes[offset + 1])
            if bytes[offset + 1] == 0xDA { break }
            offset += 2 + Int(bytes[offset + 2]) << 8 + Int(bytes[offset + 3])
        }
        return markers
    }

    /// `bytes` with `inserted` put in before the first segment whose marker is `marker`.
    static func inserting(_ inserted: [UInt8], beforeMarker marker: UInt8, in bytes: [UInt8]) -> [UInt8] {
        var offset = 2
        while offset + 3 < bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] != marker {
            offset += 2 + Int(bytes[offset + 2]) << 8 + Int(bytes[offset + 3])
        }
        return Array(bytes[..<offset]) + inserted + Array(bytes[offset...])
    }

    /// `bytes` with the bytes from `offset` replaced by `replacement`.
    static func replacing(_ bytes: [UInt8], at offset: Int, with replacement: [UInt8]) -> [UInt8] {
        var result = bytes
        result.replaceSubrange(offset..<(offset + replacement.count), with: replacement)
        return result
    }
}

/// The search tests' seeded SplitMix64: the same inputs on every run and platform.
private typealias ProbeRandom = SearchTestCorpus.Random

extension SearchTestCorpus.Random {
    fileprivate mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
}

/// Pictures in posts: a fetched file's format and size are read from its bytes, never from the server's header.
@Suite("Image format and size from the bytes")
struct ImageProbeTests {
    @Test("every kept format gives its format and intrinsic size")
    func keptFormats() {
        for fixture in ImageFixtures.all {
            #expect(!fixture.bytes.isEmpty, "\(fixture.name) decodes")
            let verdict = ImageProbe.probe(fixture.bytes)
            #expect(verdict == .image(fixture.format, width: fixture.width, height: fixture.height), "\(fixture.name)")
            #expect(ImageProbe.reason(verdict) == nil, "\(fixture.name)")
        }
    }

    @Test("each format's file extension and media type")
    func extensionsAndMediaTypes() {
        #expect(ImageFormat.allCases.map(\.fileExtension) == ["png", "jpg", "gif", "webp", "avif"])
        #expect(ImageFormat.allCases.map(\.mediaType) == ["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"])
    }

    @Test("JPEG: APP0, Exif, comment and tables before the frame header are walked over")
    func jpegSegmentsBeforeTheFrame() {
        let jpeg = ImageFixtures.jpegExif
        #expect(ImageFixtures.jpegMarkers(jpeg) == [0xE0, 0xE1, 0xFE, 0xDB, 0xC0, 0xC4, 0xC4, 0xDA])
        #expect(jpeg[24..<28] == Array("Exif".utf8)[...])
        // The thumbnail's frame header (9×7) comes first in the file, inside the Exif segment, and is skipped with it.
        let firstFrame = jpeg.indices.dropLast().first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }
        #expect(firstFrame.map { Int(jpeg[$0 + 5]) << 8 + Int(jpeg[$0 + 6]) } == 7)
        #expect(ImageProbe.probe(jpeg) == .image(.jpeg, width: 45, height: 19))
        // A large segment full of 0xFF bytes (skipped by its length), a DHT, fill bytes and standalone markers before SOF0.
        let padding: [UInt8] = [0xFF, 0xE2, 0xFF, 0xF0] + [UInt8](repeating: 0xFF, count: 0xFFF0 - 2)
        let table: [UInt8] = [0xFF, 0xC4, 0x00, 0x08, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00]
        let standalone: [UInt8] = [0xFF, 0xD0, 0xFF, 0x01, 0xFF, 0xFF, 0xFF]
        let edited = ImageFixtures.inserting(padding + table + standalone, beforeMarker: 0xC0, in: ImageFixtures.jpegExif)
        #expect(edited.count == ImageFixtures.jpegExif.count + padding.count + table.count + standalone.count)
        #expect(ImageProbe.probe(edited) == .image(.jpeg, width: 45, height: 19))
    }

    @Test("JPEG: a progressive file's SOF2 gives its size")
    func progressiveJPEG() {
        #expect(ImageFixtures.jpegMarkers(ImageFixtures.jpegProgressive).contains(0xC2))
        #expect(!ImageFixtures.jpegMarkers(ImageFixtures.jpegProgressive).contains(0xC0))
        #expect(ImageProbe.probe(ImageFixtures.jpegProgressive) == .image(.jpeg, width: 51, height: 23))
    }

    @Test("JPEG: a start of scan or end of image before any frame header is unreadable")
    func jpegWithoutFrame() {
        #expect(ImageProbe.probe([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x08, 0xC0, 0x00, 0x11, 0x00, 0x13, 0x00]) == .unreadable(.jpeg))
        #expect(ImageProbe.probe([0xFF, 0xD8, 0xFF, 0xD9, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x13, 0x00, 0x2D]) == .unreadable(.jpeg))
        #expect(ImageProbe.probe([0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 1 << 20)) == .unreadable(.jpeg))
        // A segment length below 2 (it counts its own two bytes) is corrupt.
        let shortSegment: [UInt8] = [0xFF, 0xD8, 0xFF, 0xFE, 0x00, 0x01, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x13, 0x00, 0x2D]
        #expect(ImageProbe.probe(shortSegment) == .unreadable(.jpeg))
    }

    @Test("GIF87a is read like GIF89a")
    func gif87a() {
        let old = ImageFixtures.replacing(ImageFixtures.gif, at: 0, with: Array("GIF87a".utf8))
        #expect(ImageProbe.probe(old) == .image(.gif, width: 29, height: 13))
        let tall = ImageFixtures.replacing(ImageFixtures.gif, at: 6, with: [0x2C, 0x01, 0x02, 0x01])  // 300 × 258
        #expect(ImageProbe.probe(tall) == .image(.gif, width: 300, height: 258))
    }

    @Test("WebP: the lossy, lossless and extended fixtures each start with their own chunk")
    func webpChunks() {
        #expect(ImageFixtures.webpLossy[12..<16] == Array("VP8 ".utf8)[...])
        #expect(ImageFixtures.webpLossless[12..<16] == Array("VP8L".utf8)[...])
        #expect(ImageFixtures.webpExtended[12..<16] == Array("VP8X".utf8)[...])
        // The two scaling bits above each 14-bit side of a lossy frame are not part of the size.
        let scaled = ImageFixtures.replacing(ImageFixtures.webpLossy, at: 27, with: [0x40 | ImageFixtures.webpLossy[27]])
        #expect(scaled[26..<30] != ImageFixtures.webpLossy[26..<30])
        #expect(ImageProbe.probe(scaled) == .image(.webp, width: 33, height: 17))
        // An unknown first chunk is the format without a readable size.
        let unknown = ImageFixtures.replacing(ImageFixtures.webpLossy, at: 12, with: Array("VP9 ".utf8))
        #expect(ImageProbe.probe(unknown) == .unreadable(.webp))
    }

    @Test("AVIF: the brand decides, as major brand or compatible brand; HEIC is not kept")
    func avifBrands() {
        let sequence = ImageFixtures.replacing(ImageFixtures.avifLibavif, at: 8, with: Array("avis".utf8))
        #expect(ImageProbe.probe(sequence) == .image(.avif, width: 35, height: 9))
        // Major brand mif1 with avif among the compatible brands (avif, mif1, miaf at 16, 20, 24).
        let compatible = ImageFixtures.replacing(ImageFixtures.avifLibavif, at: 8, with: Array("mif1".utf8))
        #expect(ImageProbe.probe(compatible) == .image(.avif, width: 35, height: 9))
        var heic = ImageFixtures.replacing(ImageFixtures.avifLibavif, at: 8, with: Array("heic".utf8))
        heic = ImageFixtures.replacing(heic, at: 16, with: Array("heic".utf8))
        #expect(ImageProbe.probe(heic) == .notAnImage)
        // An AVIF without an ispe property has no readable size.
        var noExtents = ImageFixtures.avifLibavif
        for offset in noExtents.indices.dropLast(3) where noExtents[offset..<(offset + 4)] == Array("ispe".utf8)[...] {
            noExtents.replaceSubrange(offset..<(offset + 4), with: Array("isxe".utf8))
        }
        #expect(ImageProbe.probe(noExtents) == .unreadable(.avif))
    }

    @Test("a side of 0 or above 100,000 is unreadable; 100,000 is kept")
    func sizeLimits() {
        let zero = ImageFixtures.replacing(ImageFixtures.png, at: 16, with: [0, 0, 0, 0])
        #expect(ImageProbe.probe(zero) == .unreadable(.png))
        let huge = ImageFixtures.replacing(ImageFixtures.png, at: 20, with: [0x00, 0x01, 0x86, 0xA1])  // 100,001
        #expect(ImageProbe.probe(huge) == .unreadable(.png))
        let largest = ImageFixtures.replacing(ImageFixtures.png, at: 20, with: [0x00, 0x01, 0x86, 0xA0])  // 100,000
        #expect(ImageProbe.probe(largest) == .image(.png, width: 37, height: 100_000))
        let wide = ImageFixtures.replacing(ImageFixtures.gif, at: 6, with: [0, 0])
        #expect(ImageProbe.probe(wide) == .unreadable(.gif))
        let vast = ImageFixtures.replacing(ImageFixtures.webpExtended, at: 24, with: [0xFF, 0xFF, 0xFF])
        #expect(ImageProbe.probe(vast) == .unreadable(.webp))
    }

    @Test("SVG, with or without an XML prolog, a doctype, a comment or a byte order mark, is SVG")
    func svg() {
        let texts = [
            #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>"#,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
            "\u{FEFF}  \r\n\t<?xml version=\"1.0\"?><svg/>",
            "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n<svg></svg>",
            "<!-- Generator: Adobe Illustrator -->\n<SVG VERSION=\"1.1\"></SVG>",
            "\n\n<Svg viewBox=\"0 0 1 1\"></Svg>",
        ]
        for text in texts {
            #expect(ImageProbe.probe(Array(text.utf8)) == .svg, "\(text)")
        }
        #expect(ImageProbe.reason(.svg) == "is SVG, which is never kept (it can hold scripts)")
    }

    @Test("HTML, XML without <svg, JSON, text and unknown bytes are not images")
    func notImages() {
        let texts = [
            "<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>",
            "<html><body><img src=\"x.png\"></body></html>",
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>feed</title></channel></rss>",
            "<?xml version=\"1.0\"?>" + String(repeating: " ", count: 5000) + "<svg/>",
            "{\"error\": \"not found\"}",
            "GIF8",
            "RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ",
            "",
        ]
        for text in texts {
            #expect(ImageProbe.probe(Array(text.utf8)) == .notAnImage, "\(text)")
        }
        #expect(ImageProbe.probe([0x89]) == .notAnImage)
        #expect(ImageProbe.probe([0xFF, 0xD8]) == .notAnImage)
        #expect(ImageProbe.reason(.notAnImage) == "is not a PNG, JPEG, GIF, WebP or AVIF image")
    }

    @Test("a file cut anywhere keeps its format or is not an image, and never gets a wrong size")
    func truncated() {
        // Cut right after the signature: the format, with no size.
        let signatures: [(ImageFixtures.Case, Int)] = [
            (ImageFixtures.all[0], 8), (ImageFixtures.all[1], 6), (ImageFixtures.all[2], 3), (ImageFixtures.all[4], 12),
            (ImageFixtures.all[5], 12), (ImageFixtures.all[6], 12), (ImageFixtures.all[7], 28), (ImageFixtures.all[8], 28),
        ]
        for (fixture, length) in signatures {
            #expect(ImageProbe.probe(Array(fixture.bytes[..<length])) == .unreadable(fixture.format), "\(fixture.name)")
        }
        for fixture in ImageFixtures.all {
            for length in 0...fixture.bytes.count {
                let verdict = ImageProbe.probe(Array(fixture.bytes[..<length]))
                let allowed: [ImageProbe.Verdict] = [
                    .image(fixture.format, width: fixture.width, height: fixture.height), .unreadable(fixture.format), .notAnImage,
                ]
                #expect(allowed.contains(verdict), "\(fixture.name) cut to \(length) bytes")
            }
        }
        #expect(ImageProbe.reason(.unreadable(.png)) == "is a PNG whose size cannot be read")
        #expect(ImageProbe.reason(.unreadable(.avif)) == "is an AVIF whose size cannot be read")
    }

    @Test("random and mutated bytes always get a verdict, and any size in it is in range")
    func fuzz() {
        var random = ProbeRandom(state: 20_240_601)
        var images = 0
        for round in 0..<4000 {
            var input: [UInt8]
            if round % 2 == 0 {
                input = (0..<random.int(0..<700)).map { _ in random.byte() }
                // Some random inputs get a real signature, so the size readers see garbage too.
                if round % 4 == 0 {
                    let start = ImageFixtures.all[random.int(0..<ImageFixtures.all.count)].bytes.prefix(random.int(0..<40))
                    input.replaceSubrange(0..<min(start.count, input.count), with: start)
                }
            } else {
                input = ImageFixtures.all[random.int(0..<ImageFixtures.all.count)].bytes
                for _ in 0..<random.int(1..<6) where !input.isEmpty {
                    let offset = random.int(0..<input.count)
                    switch random.int(0..<4) {
                    case 0: input[offset] = random.byte()
                    case 1: input.removeSubrange(offset..<min(input.count, offset + random.int(1..<64)))
                    case 2: input.insert(contentsOf: (0..<random.int(1..<16)).map { _ in random.byte() }, at: offset)
                    default: input[offset] = [0x00, 0xFF, 0x7F, 0x80][random.int(0..<4)]
                    }
                }
            }
            if case .image(_, let width, let height) = ImageProbe.probe(input) {
                images += 1
                #expect((1...100_000).contains(width) && (1...100_000).contains(height))
            }
        }
        #expect(images > 0)
    }
}

/// Pictures in posts: the `<img>` tags of a post body's raw HTML.
@Suite("img tags in a post body's HTML")
struct HTMLImageTagTests {
    @Test("double-quoted, single-quoted and unquoted values; alt absent, empty or present")
    func quoting() {
        let html = #"<p>a <img src="a.png" alt="first"> b <img src='b.jpg' alt=''> c <img src=c.gif>d</p>"#
        let expected = [
            HTMLImageTag(source: "a.png", alt: "first"), HTMLImageTag(source: "b.jpg", alt: ""), HTMLImageTag(source: "c.gif", alt: nil),
        ]
        #expect(HTMLImageTag.all(in: html) == expected)
    }

    @Test("entities are decoded in values")
    func entities() {
        let html = #"<img src="/f?a=1&amp;b=2&#38;c=&#x33;" alt="&lt;&quot;Tom&#39;s&quot;&gt; &amp;amp; &copy; &#128512; &#0;">"#
        #expect(HTMLImageTag.all(in: html) == [HTMLImageTag(source: "/f?a=1&b=2&c=3", alt: "<\"Tom's\"> &amp; &copy; 😀 \u{FFFD}")])
        let odd = "<img src=\"a&AMP;b&#X41&#99999999999999999999;&#xD800;&#;&\" alt=&apos;>"
        #expect(HTMLImageTag.all(in: odd) == [HTMLImageTag(source: "a&bA\u{FFFD}\u{FFFD}&#;&", alt: "'")])
    }

    @Test("tag and attribute names are case-insensitive")
    func uppercase() {
        #expect(HTMLImageTag.all(in: "<IMG SRC=HTTP://X/A.PNG ALT=Big>") == [HTMLImageTag(source: "HTTP://X/A.PNG", alt: "Big")])
        #expect(HTMLImageTag.all(in: "<iMg\n\tSrC = \"x.png\"\n/>") == [HTMLImageTag(source: "x.png")])
    }

    @Test("tags inside comments, script and style are ignored; tags after them are found")
    func comments() {
        let html = """
            <!-- <img src="hidden.png"> --><img src="one.png"><!--> <img src="two.png">
            <script>var s = "<img src='no.png'>";</script><style>/* <img src=no2.png> */</style><img src="three.png">
            <!-- closed the old way --!><img src="four.png"><script></script x="<img src=no3.png>"><img src="five.png">
            </3 a='>'<img src="six.png"><!DOCTYPE html><?php echo 1 ?><img src="seven.png">
            <!-- unterminated <img src="never.png">
            """
        let expected = ["one.png", "two.png", "three.png", "four.png", "five.png", "six.png", "seven.png"]
        #expect(HTMLImageTag.all(in: html).map(\.source) == expected)
    }

    @Test("several tags in order; tags without a non-empty src are left out")
    func severalAndNoSource() {
        let html = #"<img alt="no source"><img src=""><img src="  "><img src="1.png"><br><img data-src="x" src="2.png"><img src=" 3.png ">"#
        #expect(HTMLImageTag.all(in: html).map(\.source) == ["1.png", "2.png", "3.png"])
        #expect(HTMLImageTag.all(in: #"<img src="a.png" src="b.png">"#).map(\.source) == ["a.png"])
    }

    @Test("<imgx>, <image>, </img> and img inside another tag's value are not img tags")
    func notImgTags() {
        let html = #"<imgx src="a.png"><image src="b.png"></img src="c.png"><a title="<img src=d.png>">x</a><img src="e.png">"#
        #expect(HTMLImageTag.all(in: html).map(\.source) == ["e.png"])
    }

    @Test("unterminated tags and quotes end the scan without a tag")
    func unterminated() {
        #expect(HTMLImageTag.all(in: "<img src=\"a.png\" alt=\"unclosed>").isEmpty)
        #expect(HTMLImageTag.all(in: "<img src=a.png").isEmpty)
        #expect(HTMLImageTag.all(in: "<img src='x.png'>text<img src=").map(\.source) == ["x.png"])
        #expect(HTMLImageTag.all(in: "<").isEmpty && HTMLImageTag.all(in: "").isEmpty && HTMLImageTag.all(in: "<img").isEmpty)
    }

    @Test("huge and random inputs return, and every tag found has a source")
    func fuzz() {
        #expect(HTMLImageTag.all(in: String(repeating: "<img src=a.png ", count: 50_000)).isEmpty)
        #expect(HTMLImageTag.all(in: String(repeating: "<!--", count: 100_000)).isEmpty)
        #expect(HTMLImageTag.all(in: String(repeating: "<img src=a>", count: 20_000)).count == 20_000)
        let letters = String(repeating: "&" + String(repeating: "a", count: 999), count: 200)
        #expect(HTMLImageTag.all(in: "<img src=\"\(letters)\">") == [HTMLImageTag(source: letters)])
        var random = ProbeRandom(state: 77)
        let pieces = [
            "<img", "<IMG ", " src=", "SRC=", " alt=", "\"", "'", ">", "<", "/", "&", "&amp;", "&#", "x41;", ";", "<!--", "-->",
            "<script>", "</script>", " ", "a.png", "=", "한글", "\n",
        ]
        var found = 0
        for _ in 0..<3000 {
            let html = (0..<random.int(0..<40)).map { _ in pieces[random.int(0..<pieces.count)] }.joined()
            let tags = HTMLImageTag.all(in: html)
            found += tags.count
            #expect(tags.allSatisfy { !$0.source.isEmpty && $0.source == $0.source.trimmingCharacters(in: .whitespacesAndNewlines) })
        }
        #expect(found > 0)
    }
}
