import Foundation

/// An error raised by the archive store.
public struct StoreError: Error, Equatable, Sendable, LocalizedError {
    public enum Reason: Equatable, Sendable {
        case cannotOpen(String)
        case query(String)
        case newerSchema(found: Int, supported: Int)
    }

    /// The store file.
    public var location: String
    public var reason: Reason

    public init(location: String, reason: Reason) {
        self.location = location
        self.reason = reason
    }

    public var errorDescription: String? {
        switch reason {
        case .cannotOpen(let detail):
            return "Cannot open the archive store \(location) (\(detail)); check that the path is a writable SQLite file."
        case .query(let detail):
            return "The archive store \(location) failed a query (\(detail))."
        case .newerSchema(let found, let supported):
            return
                "The archive store \(location) has schema version \(found), newer than this boardarchive supports (\(supported)); upgrade boardarchive to use it."
        }
    }
}
