import BoardArchiveModel
import Foundation

/// The board API's bearer token. It prints as `<redacted>` everywhere so it cannot leak into logs or errors.
public struct APIToken: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let value: String

    /// Wraps a token, trimming surrounding whitespace and newlines (token files usually end with one); nil when
    /// ``problem(with:)`` finds one.
    public init?(_ value: String) {
        guard Self.problem(with: value) == nil else { return nil }
        self.value = value.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Why `value` cannot be a bearer token (empty, or whitespace or control characters inside it), or nil when it can.
    /// A header with such characters would be refused by the HTTP client in an error that quotes it.
    public static func problem(with value: String) -> String? {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "is empty" }
        if trimmed.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return "contains spaces, line breaks or control characters inside it (a bearer token is one line)"
        }
        return nil
    }

    var authorizationHeader: String { "Bearer \(value)" }

    /// `text` with every occurrence of the token replaced by `<redacted>`, for messages built from library errors.
    func redact(_ text: String) -> String {
        text.replacingOccurrences(of: value, with: "<redacted>")
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

extension CrawlError {
    /// This error with every occurrence of `token` in its strings replaced by `<redacted>`: a body, a transport error
    /// or a proxy's page may echo the request's `Authorization` header.
    func redacting(_ token: APIToken) -> CrawlError {
        let reason: Reason
        switch self.reason {
        case .transport(let detail, let attempts, let waited):
            reason = .transport(token.redact(detail), attempts: attempts, waited: waited)
        case .undecodableBody(let detail):
            reason = .undecodableBody(token.redact(detail))
        case .undecodableItem(let board, let offset, let post, let field, let detail):
            reason = .undecodableItem(board: board, offset: offset, post: post, field: token.redact(field), detail: token.redact(detail))
        case .missingToken(let detail):
            reason = .missingToken(token.redact(detail))
        case .unexpectedStatus, .unauthorized, .notFound, .postInTwoBoards, .interrupted:
            reason = self.reason
        }
        return CrawlError(request: token.redact(request), reason: reason)
    }
}
