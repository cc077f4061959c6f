import Foundation

/// An error raised while writing or reading the search index.
public struct SearchIndexError: Error, Equatable, Sendable, LocalizedError {
    public enum Reason: Equatable, Sendable {
        /// A file came out larger than the configured cap.
        case fileTooLarge(bytes: Int, limit: Int)
        /// A file the reader needs is missing.
        case missingFile
        /// A file is not an index script or its JSON does not have the expected shape.
        case malformedFile(detail: String)
        /// A post listed in the store's snapshot has no readable row in it.
        case postUnreadable(Int)
    }

    /// The index file, relative to the site root.
    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var errorDescription: String? {
        switch reason {
        case .fileTooLarge(let bytes, let limit):
            return "Search index file \(path) is \(bytes) bytes, over the \(limit)-byte cap; shorten the post titles or raise maximumFileBytes."
        case .missingFile:
            return "Search index file \(path) is missing; rebuild the site."
        case .malformedFile(let detail):
            return "Search index file \(path) is malformed (\(detail)); rebuild the site with this version."
        case .postUnreadable(let postId):
            return "Search index file \(path) cannot be made: post \(postId) is listed in the store but its row cannot be read."
        }
    }
}
