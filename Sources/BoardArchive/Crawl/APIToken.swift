import Foundation

/// The board API's bearer token. It prints as `<redacted>` everywhere so it cannot leak into logs or errors.
public struct APIToken: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let value: String

    /// Wraps a token, trimming surrounding whitespace and newlines (token files usually end with one).
    public init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        self.value = trimmed
    }

    var authorizationHeader: String { "Bearer \(value)" }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
