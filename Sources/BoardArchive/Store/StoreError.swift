import Foundation

/// An error raised by the archive store.
public struct StoreError: Error, Equatable, Sendable, LocalizedError {
    public enum Reason: Equatable, Sendable {
        case cannotOpen(String)
        case query(String)
        case newerSchema(found: Int, supported: Int)
        /// The file is empty, or a SQLite file without the archive's tables: nothing to build from.
        case notAnArchive
        /// The store predates migrations this boardarchive needs, and the reader may not upgrade it.
        case olderSchema(found: Int, supported: Int)
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
        case .notAnArchive:
            return
                "The archive store \(location) is empty or is not a boardarchive store (no archive tables); run boardarchive crawl first or pass the right --store."
        case .olderSchema(let found, let supported):
            return
                "The archive store \(location) has schema version \(found), older than this boardarchive needs (\(supported)); build never writes to the store, so run boardarchive crawl once to upgrade it."
        }
    }
}
