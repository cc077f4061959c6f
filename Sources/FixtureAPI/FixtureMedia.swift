import Foundation

/// The pictures a ``FixtureServer`` serves under `/media/`, next to the board API, for the archiver's picture fetching.
///
/// Routes (all `GET`; the bearer token is not needed unless ``FixtureFaults/mediaRequiresAuthorization`` is set):
/// - `/media/demo/<name>`: a bundled demo picture (``demoImageNames``), with the `Content-Type` of its extension.
/// - `/media/gen/<n>.png`, n ≥ 0 without leading zeros: ``generatedImage(_:)``, a 16 × 12 PNG distinct for every n.
/// - `/media/fault/…`: the faults in ``FaultPath`` (a 404, a wrong type, SVG with a script, oversized bodies, a slow
///   answer, redirects to another origin, to the same origin and in a loop).
///
/// Any other `/media/` path answers `404`. Every `/media/` request is recorded (``FixtureServer/mediaRequests``) and
/// waits ``FixtureFaults/mediaLatency`` first; none of them counts in or triggers the API's faults and counters.
public enum FixtureMedia {
    /// The path prefix of every picture route.
    public static let pathPrefix = "/media/"

    /// The fixed paths of the picture faults.
    public enum FaultPath {
        /// `404` with a short text body.
        public static let missing = "/media/fault/missing.png"
        /// `200`, `Content-Type: image/png`, but the body is an HTML page.
        public static let wrongType = "/media/fault/wrong-type.png"
        /// `200`, `image/svg+xml`: an SVG holding a `<script>` element (``scriptSVG``).
        public static let scriptSVG = "/media/fault/script.svg"
        /// The same SVG as ``scriptSVG`` labelled `image/png`.
        public static let disguisedSVG = "/media/fault/disguised-svg.png"
        /// `200`, `image/png`, a PNG signature and `IHDR` then filler, ``FixtureServerConfiguration/oversizedImageBytes``
        /// in all, streamed in chunks with a `Content-Length`.
        public static let oversized = "/media/fault/oversized.png"
        /// The same body as ``oversized`` without a `Content-Length` (chunked transfer encoding).
        public static let oversizedUnannounced = "/media/fault/oversized-unannounced.png"
        /// `302` to ``loopPartner``, which redirects back here.
        public static let loop = "/media/fault/loop.png"
        /// `302` back to ``loop``.
        public static let loopPartner = "/media/fault/loop2.png"

        /// Waits `milliseconds`, then answers generated picture `n`.
        public static func slow(milliseconds: Int, image n: Int) -> String {
            "/media/fault/slow/\(milliseconds)/\(n).png"
        }

        /// `302` to ``FixtureServerConfiguration/otherOrigin`` + `/media/<rest>` (`404` when there is no other origin).
        public static func redirectToOtherOrigin(_ rest: String) -> String {
            "/media/fault/redirect-other/" + rest
        }

        /// `302` with the relative `Location: /media/<rest>` (this same server).
        public static func redirectToSameOrigin(_ rest: String) -> String {
            "/media/fault/redirect-same/" + rest
        }
    }

    /// The body of the wrong-type fault: an HTML page.
    public static let wrongTypeHTML = """
        <!DOCTYPE html>
        <html lang="ko"><head><meta charset="utf-8"><title>로그인이 필요합니다</title></head>
        <body><h1>Please sign in</h1><p>This is a web page, not a picture.</p></body></html>

        """

    /// The SVG of the script faults: a red square and a `<script>` element.
    public static let scriptSVG = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
        <script type="text/javascript">alert(document.domain)</script>
        <rect width="64" height="64" fill="#d33"/>
        </svg>

        """

    /// The names of the bundled demo pictures (`sea.jpg`, `flower.png`, …), sorted.
    public static var demoImageNames: [String] {
        demoImages.keys.sorted()
    }

    /// The bytes of a bundled demo picture, or `nil` when there is none of that name.
    public static func demoImage(named name: String) -> [UInt8]? {
        demoImages[name]
    }

    /// Generated picture `n` (`/media/gen/<n>.png`): a 16 × 12 RGB PNG; the same `n` always gives the same bytes.
    ///
    /// The top eight rows blend two colours drawn from `n`; the bottom four rows spell `n`'s 64 bits in black and white,
    /// so two numbers never give the same picture.
    public static func generatedImage(_ n: Int) -> [UInt8] {
        let width = 16
        let height = 12
        var random = SeededRandom(seed: UInt64(truncatingIfNeeded: n) ^ 0x5eed_1a6e)
        let from = (random.next(), random.next())
        let start = [UInt8(from.0 & 0xFF), UInt8((from.0 >> 8) & 0xFF), UInt8((from.0 >> 16) & 0xFF)]
        let end = [UInt8(from.1 & 0xFF), UInt8((from.1 >> 8) & 0xFF), UInt8((from.1 >> 16) & 0xFF)]
        let bits = UInt64(truncatingIfNeeded: n)
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                if y >= 8 {
                    let bit = (bits >> UInt64((y - 8) * width + x)) & 1
                    rgb += Array(repeating: bit == 1 ? 255 : 0, count: 3)
                } else {
                    let weight = (x + y) * 255 / (width + 8 - 2)
                    for channel in 0..<3 {
                        rgb.append(UInt8((Int(start[channel]) * (255 - weight) + Int(end[channel]) * weight) / 255))
                    }
                }
            }
        }
        return TinyPNG.encode(width: width, height: height, rgb: rgb)
    }

    /// The `Content-Type` of a file name's extension: `image/png`, `image/jpeg`, `image/gif`, `image/webp`,
    /// `image/svg+xml`, else `application/octet-stream`.
    public static func contentType(forFileName name: String) -> String {
        switch name.split(separator: ".").last?.lowercased() {
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "svg": return "image/svg+xml"
        default: return "application/octet-stream"
        }
    }

    /// The bundled demo pictures by file name, read once from the module's `media` resource folder.
    private static let demoImages: [String: [UInt8]] = {
        guard let folder = Bundle.module.url(forResource: "media", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [:] }
        var images: [String: [UInt8]] = [:]
        for name in names where !name.hasPrefix(".") {
            if let data = try? Data(contentsOf: folder.appendingPathComponent(name)) {
                images[name] = Array(data)
            }
        }
        return images
    }()
}

/// One request a ``FixtureServer`` received under `/media/`.
public struct FixtureMediaRequest: Sendable, Equatable {
    /// The request's path, without the query (`/media/gen/7.png`).
    public var path: String
    /// Whether the request carried an `Authorization` header (whatever its value).
    public var hadAuthorization: Bool

    public init(path: String, hadAuthorization: Bool) {
        self.path = path
        self.hadAuthorization = hadAuthorization
    }
}
