/// The kind of a post; the API's unknown values read as `normal` (the decoder keeps the raw text).
public enum PostType: String, Codable, Sendable, Equatable, Hashable, CaseIterable {
    case normal
    case notice
    case reply
}
