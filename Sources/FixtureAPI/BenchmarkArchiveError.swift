import Foundation

/// An error raised while generating or mutating a benchmark archive.
public struct BenchmarkArchiveError: Error, Equatable, Sendable, LocalizedError {
    /// What went wrong.
    public enum Reason: Equatable, Sendable {
        /// A mutation needs posts, and the store holds none.
        case emptyStore
        /// A mutation asked to edit or delete more posts than the store holds.
        case notEnoughPosts(held: Int, asked: Int)
        /// The fixture dataset file could not be written; the detail is the system's message.
        case cannotWriteFixture(String)
    }

    /// The store or fixture file, as given.
    public var location: String
    public var reason: Reason

    public init(location: String, reason: Reason) {
        self.location = location
        self.reason = reason
    }

    public var errorDescription: String? {
        switch reason {
        case .emptyStore:
            return "The store \(location) holds no posts to mutate; generate an archive first with boardarchive bench-data --posts N."
        case .notEnoughPosts(let held, let asked):
            return "The store \(location) holds \(held) posts, fewer than the \(asked) the mutation asks for; lower --count."
        case .cannotWriteFixture(let detail):
            return "Cannot write the fixture dataset \(location): \(detail). Check that its folder is writable."
        }
    }
}
