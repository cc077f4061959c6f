import Foundation
import Logging
import NIOCore
import PostgresNIO
import Synchronization

extension PostgresConnection {
    /// Waits on the caller's thread for `future`, a query on this connection, and fails when the connection closes
    /// first: postgres-nio was seen to leave a query's future pending for ever when the server went away in the middle
    /// of a build (a restart with `-m immediate`), so `wait()` alone could hang the build.
    ///
    /// - Throws: ``StoreError`` `unreachable` when the connection closed without an answer; the future's own error otherwise.
    func answer<T: Sendable>(to future: EventLoopFuture<T>, location: String) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        future.whenComplete { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        while done.wait(timeout: .now() + .milliseconds(250)) == .timedOut {
            if isClosed, outcome.withLock({ $0 == nil }) {
                throw StoreError(location: location, reason: .unreachable("the connection to the server was lost"))
            }
        }
        guard let result = outcome.withLock({ $0 }) else {
            throw StoreError(location: location, reason: .unreachable("the connection to the server was lost"))
        }
        return try result.get()
    }

    /// Runs `sql` with `binds` and reads every row with `read`, for a store at `location`: the one place a statement
    /// runs, so every failure becomes the same ``StoreError`` (a lost connection `unreachable`, a value of an
    /// unexpected type or a refused statement `query`).
    func rows<T>(
        _ sql: String, _ binds: PostgresBindings, location: String, logger: Logger, _ read: (PostgresRow) throws -> T
    ) throws -> [T] {
        do {
            let result = try answer(to: query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger), location: location)
            return try result.rows.map(read)
        } catch let error as PSQLError {
            throw PostgresArchive.storeError(error, location: location)
        } catch let error as PostgresDecodingError {
            throw StoreError(location: location, reason: .query("column \(error.columnName) holds a value of an unexpected type"))
        }
    }
}
