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
        /// The run expects an existing archive (`store.create` is false) and the store is missing or holds no archive.
        case missing(detail: String)
        /// The location has a URL scheme boardarchive does not know.
        case unknownScheme(String)
        /// The command works on SQLite files only (`store backup`) and the location names a PostgreSQL database.
        case unsupportedBackend(String)
        /// Another crawl holds the store (SQLite keeps one writer): who holds it, as its lock file says.
        case crawlInProgress(holder: String)
        /// SQLite waited for another process's lock on the file and gave up.
        case busy
        /// A `postgres://` URL that cannot be used: what is wrong with it.
        case invalidURL(String)
        /// The PostgreSQL server cannot be reached: why, in a few words.
        case unreachable(String)
        /// The PostgreSQL server refused the login: its words.
        case authenticationFailed(String)
        /// The PostgreSQL server has no database of that name.
        case databaseMissing(String)
        /// TLS was asked for and could not be had: why.
        case tlsFailed(String)
        /// `store backup --to` names the store itself.
        case backupOverStore
        /// `store copy` found rows in the target (these tables) and was not told to resume.
        case copyTargetNotEmpty(tables: [String])
        /// `store copy` compared the stores and found a difference: where.
        case copyMismatch(String)
        /// `demo` was pointed at a store that holds an archive of a real source (its API address).
        case notADemoArchive(source: String)
    }

    /// The store file, or the store's URL without its password.
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
        case .missing(let detail):
            return
                "The archive store \(location) \(detail), so nothing was crawled, changed or published; restore the store from its backup or "
                + "fix --store (only a crawl with store.create true, or --create-store, starts a new archive)."
        case .unknownScheme(let scheme):
            return
                "The store \(location) has the scheme \(scheme)://, which boardarchive does not know; give the path of a SQLite file "
                + "(or a file:// URL)."
        case .unsupportedBackend(let scheme):
            return
                "The store \(location) is a PostgreSQL database (\(scheme)://), and store backup copies SQLite files only; back it up with "
                + "pg_dump, or copy it into a SQLite file with boardarchive store copy."
        case .crawlInProgress(let holder):
            return
                "The archive store \(location) is being crawled by \(holder); wait for that crawl to finish (or stop it), then run "
                + "this one again."
        case .backupOverStore:
            return "The backup of \(location) would replace the store itself, so nothing was written; give --to another file."
        case .copyTargetNotEmpty(let tables):
            return
                "The store \(location) already holds rows (\(tables.joined(separator: ", "))), so nothing was copied into it; copy into an empty "
                + "store, or pass --resume to go on with a copy that was interrupted."
        case .copyMismatch(let detail):
            return
                "The copy in \(location) does not match its source: \(detail); the source changed during an interrupted copy or the "
                + "copy failed, so copy again into an empty store."
        case .notADemoArchive(let source):
            return
                "The archive store \(location) holds an archive crawled from \(source), so demo left it untouched (the demo's fixture "
                + "boards would mark its boards gone); give demo another --store, or none for a temporary one."
        case .invalidURL(let problem):
            return "The store URL \(location) cannot be used: \(problem)."
        case .unreachable(let detail):
            return
                "The PostgreSQL server of the store \(location) cannot be reached (\(detail)); check the host and port in the URL and that the "
                + "server is running and accepts TCP connections."
        case .authenticationFailed(let detail):
            return
                "The PostgreSQL server of the store \(location) refused the login (\(detail)); check the user in the URL and the password "
                + "in PGPASSWORD, ~/.pgpass, store.password-env or store.password-file."
        case .databaseMissing(let database):
            return
                "The PostgreSQL server of the store \(location) has no database \(database); create it (createdb \(database)) or fix the URL."
        case .tlsFailed(let detail):
            return
                "The store \(location) asks for TLS, but \(detail); fix sslmode or sslrootcert in the URL, or the server's TLS settings."
        case .busy:
            return
                "The archive store \(location) stayed locked by another process for 10 s; wait for the other boardarchive "
                + "(a crawl or a redact) to finish, then run again."
        }
    }
}
