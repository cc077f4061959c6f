/// A kept image as a page shows it: the address the post's text writes, and the copy the site publishes (by the SHA-256
/// of its bytes, so one file serves every post that shows it).
public struct PublishedImage: Sendable, Equatable, Hashable, Codable {
    /// The address as the post's text writes it (what the renderer matches).
    public var address: String
    /// The SHA-256 of its bytes, in hex.
    public var hash: String
    public var format: ImageFormat
    /// Its intrinsic size in pixels.
    public var width: Int
    public var height: Int

    public init(address: String, hash: String, format: ImageFormat, width: Int, height: Int) {
        self.address = address
        self.hash = hash
        self.format = format
        self.width = width
        self.height = height
    }
}
