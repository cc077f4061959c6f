import Foundation

/// An error raised while loading a fixture dataset file.
public struct FixtureDatasetError: Error, Equatable, Sendable, LocalizedError {
    /// What was wrong with the file.
    public enum Reason: Equatable, Sendable {
        /// The file could not be read (missing, unreadable); the detail is the system's message.
        case unreadable(String)
        /// The file is not a dataset in the API's JSON shapes; the detail names the field and the problem.
        case malformed(String)
        /// The file decodes but breaks an invariant (duplicate ids, a post on an unknown board).
        case inconsistent(String)
        /// The bundled demo dataset is missing from the module's resources.
        case missingResource
    }

    /// The dataset file, as given.
    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var errorDescription: String? {
        switch reason {
        case .unreadable(let detail):
            return "Cannot read the fixture dataset \(path): \(Self.trimmed(detail)). Check the path given to --data."
        case .malformed(let detail):
            return
                "The fixture dataset \(path) is not valid: \(detail). Expected {\"referenceDate\", \"boards\", \"posts\"} in the API's JSON shapes."
        case .inconsistent(let detail):
            return "The fixture dataset \(path) is inconsistent: \(detail). Fix the file so ids are unique and every post names a listed board."
        case .missingResource:
            return "The bundled demo dataset \(path) is missing from the FixtureAPI resources; rebuild the package."
        }
    }

    /// A system message without its final full stop, so it can sit inside a sentence.
    private static func trimmed(_ detail: String) -> String {
        detail.hasSuffix(".") ? String(detail.dropLast()) : detail
    }
}

extension DecodingError {
    /// A one-line description naming the JSON path, e.g. `posts[3].createdDateTime: expected yyyy-MM-dd'T'HH:mm:ss'Z'`.
    var fixtureDescription: String {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return text.isEmpty ? "top level" : text
        }
        switch self {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): required key is missing"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected a value of type \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected a \(type), found null"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return String(describing: self)
        }
    }
}
