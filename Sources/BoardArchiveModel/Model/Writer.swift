/// The writer of a post, as the API names them.
public struct Writer: Codable, Sendable, Equatable, Hashable {
    public var displayName: String
    public var emailAddress: String?
    /// Added by the 2024 API variant.
    public var profileImage: String?

    public init(displayName: String, emailAddress: String? = nil, profileImage: String? = nil) {
        self.displayName = displayName
        self.emailAddress = emailAddress
        self.profileImage = profileImage
    }
}
