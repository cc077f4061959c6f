/// The image formats the archive keeps, decided by the bytes, never by a server's header.
public enum ImageFormat: String, Sendable, Codable, CaseIterable, Equatable {
    /// Portable Network Graphics.
    case png
    /// JPEG (JFIF or Exif), baseline or progressive.
    case jpeg
    /// GIF87a or GIF89a, still or animated.
    case gif
    /// WebP: lossy (`VP8 `), lossless (`VP8L`) or extended (`VP8X`).
    case webp
    /// AVIF: AV1 in an ISO-BMFF (HEIF) container, still (`avif`) or a sequence (`avis`).
    case avif

    /// The extension a kept file of this format gets, without the dot: "png", "jpg", "gif", "webp" or "avif".
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .gif: "gif"
        case .webp: "webp"
        case .avif: "avif"
        }
    }

    /// The media type a kept file of this format is served with: "image/png", "image/jpeg", "image/gif", "image/webp" or
    /// "image/avif".
    public var mediaType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .avif: "image/avif"
        }
    }

    /// The format's name with its indefinite article, for warnings: "a PNG", "an AVIF".
    var nameWithArticle: String {
        switch self {
        case .png: "a PNG"
        case .jpeg: "a JPEG"
        case .gif: "a GIF"
        case .webp: "a WebP"
        case .avif: "an AVIF"
        }
    }
}
