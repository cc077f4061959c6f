import Foundation
import Logging
import PostgresNIO

/// The connection of a ``PostgresArchive`` and the advisory locks held on it, behind one recursive lock: a transaction
/// holds it from `BEGIN` to `COMMIT`, so the crawl's board tasks never interleave their statements on the connection.
final class PostgresSession: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    var connection: PostgresConnection
    /// The advisory locks this session holds (a lost connection loses them; a reconnect takes them again).
    var held: Set<ArchiveLock> = []
    /// Transactions open on the connection (a statement inside one never reconnects on its own).
    var depth = 0
    /// How many times the connection was replaced: a task that lost connection `n` reconnects only while it is still
    /// the current one, so two tasks that lost it together make one new connection, not two.
    var generation = 0

    init(connection: PostgresConnection) {
        self.connection = connection
    }

    func withLock<T>(_ body: (PostgresSession) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(self)
    }
}

/// The PostgreSQL store as an ``ArchiveDatabase``: the crawl's and `redact`'s statements run in transactions on the
/// archive's connection; crawl runs and boards are locked with session advisory locks, which the server drops when the
/// holder's connection ends (`kill -9` included), so a crashed crawl never leaves a lock behind.
extension PostgresArchive: ArchiveDatabase {
    public func transact<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try reconnecting { try transaction { try body(PostgresTransaction(archive: self)) } }
    }

    public func readOnly<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try transact(body)
    }

    public func tryLock(_ lock: ArchiveLock) throws -> String? {
        try reconnecting {
            try session.withLock { session in
                // Advisory locks nest on one connection; a second take by this process is another holder too.
                if session.held.contains(lock) { return "another task of this boardarchive process" }
                guard try take(lock) else { return try holder(of: lock) }
                session.held.insert(lock)
                return nil
            }
        }
    }

    public func unlock(_ lock: ArchiveLock) throws {
        try session.withLock { session in
            guard session.held.remove(lock) != nil else { return }
            try execute("SELECT pg_advisory_unlock($1)", Self.bind([.integer(Int(lockKey(lock)))]))
        }
    }

    public func leaseForCrawl(at date: Date) throws -> CrawlLease { .none }

    /// What a purge can do on PostgreSQL: `VACUUM` the post table, so that the rows the purge replaced are freed and
    /// their space reused (``redact`` documents what stays: WAL until recycled, backups, replicas, freed pages until
    /// overwritten).
    public var purgeLeftovers: String? {
        "on PostgreSQL the old text may stay in the table's freed space until it is overwritten (VACUUM FULL post rewrites "
            + "the table), in the WAL until the server recycles it, in base backups and WAL archives, and on replicas"
    }

    public func wipeFreedSpace() throws {
        try execute("VACUUM post")
    }

    /// The advisory lock key of `lock` in this archive: advisory locks belong to the whole database, so an archive in a
    /// schema of its own (`?schema=`) keys its locks apart from the others' (16 bits of the schema name's hash);
    /// the archive in `public` uses the fixed prefix `BA`.
    func lockKey(_ lock: ArchiveLock) -> Int64 {
        lock.key(namespace: lockNamespace)
    }

    /// The 16 bits that set this archive's locks apart (see ``lockKey(_:)``).
    var lockNamespace: UInt16 {
        let fixed: UInt16 = 0x4241
        guard let schema = url.schema else { return fixed }
        // FNV-1a mixes a name's last bytes into its low bits only: all four 16-bit parts, folded.
        let value = ContentHash.value(of: schema.utf8)
        let hash = UInt16(truncatingIfNeeded: value ^ value >> 16 ^ value >> 32 ^ value >> 48)
        return hash == fixed ? fixed ^ 1 : hash
    }

    /// Takes `lock` on this connection when nobody holds it.
    private func take(_ lock: ArchiveLock) throws -> Bool {
        try rows("SELECT pg_try_advisory_lock($1)", Self.bind([.integer(Int(lockKey(lock)))])) { try $0.decode(Bool.self) }.first ?? false
    }

    /// Who holds `lock`, as the server knows the connection: its application name (boardarchive names its process and
    /// host), address and start.
    private func holder(of lock: ArchiveLock) throws -> String {
        let found = try rows(
            """
            SELECT COALESCE(a.application_name, ''), COALESCE(host(a.client_addr), 'a local socket'), to_char(a.backend_start, 'YYYY-MM-DD HH24:MI:SS TZ')
            FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 AND ((l.classid::bigint << 32) | l.objid::bigint) = $1
            """, Self.bind([.integer(Int(lockKey(lock)))])
        ) { try $0.decode((String, String, String).self) }
        guard let (name, address, since) = found.first else { return "another connection, which has just let it go" }
        return "\(name.isEmpty ? "another client" : name), connected from \(address) since \(since)"
    }

    /// Runs `body`; when it loses the server (``StoreError/Reason/unreachable(_:)``) outside any transaction and this
    /// archive has a reconnect window, reconnects with backoff (0.25 s doubling to 4 s), takes its advisory locks
    /// again and runs `body` again, until the window is spent.
    func reconnecting<T>(_ body: () throws -> T) throws -> T {
        let nested = session.withLock { $0.depth > 0 }
        guard reconnectWindow > .zero, !nested else { return try body() }
        let deadline = ContinuousClock.now + reconnectWindow
        var delay = Duration.milliseconds(250)
        while true {
            let lost = session.withLock { $0.generation }
            do {
                return try body()
            } catch let error as StoreError {
                guard case .unreachable = error.reason, ContinuousClock.now < deadline else { throw error }
                // Another task already replaced the connection this one lost: run again on the new one.
                if session.withLock({ $0.generation != lost }) { continue }
                logger.warning("Lost the connection to the PostgreSQL store; reconnecting", metadata: ["store": "\(location)"])
                while true {
                    try sleep(delay, before: deadline, orThrow: error)
                    delay = min(delay * 2, .seconds(4))
                    do {
                        if try reconnect(replacing: lost) {
                            logger.notice("Reconnected to the PostgreSQL store", metadata: ["store": "\(location)"])
                        }
                        break
                    } catch let failure as StoreError where failure.reason.isTransient {
                        continue
                    }
                }
            }
        }
    }

    /// Sleeps `delay`, or throws `error` when the deadline would pass first.
    private func sleep(_ delay: Duration, before deadline: ContinuousClock.Instant, orThrow error: StoreError) throws {
        guard ContinuousClock.now + delay < deadline else { throw error }
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        Thread.sleep(forTimeInterval: seconds)
    }

    /// Replaces connection number `lost` and takes the locks it held again, and returns true; returns false when
    /// another task replaced it first (closing a connection that one took the locks on would hand them to whoever
    /// asks first, and the server ends a closed connection's session a moment later). A lock another process took
    /// meanwhile fails the crawl (its work would interleave with that process's).
    private func reconnect(replacing lost: Int) throws -> Bool {
        if session.withLock({ $0.generation != lost }) { return false }
        let fresh = try connector.connect()
        return try session.withLock { session in
            guard session.generation == lost else {
                try? fresh.close().wait()
                return false
            }
            try? session.connection.close().wait()
            session.connection = fresh
            session.generation += 1
            for lock in session.held.sorted(by: { lockKey($0) < lockKey($1) }) where try !take(lock) {
                session.held.remove(lock)
                throw StoreError(
                    location: location,
                    reason: .crawlInProgress(holder: "another crawl, which took \(lock) while the connection was lost: \(try holder(of: lock))"))
            }
            return true
        }
    }
}

extension StoreError.Reason {
    /// A failure that may pass while a server restarts: unreachable, or refusing connections while it starts.
    var isTransient: Bool {
        switch self {
        case .unreachable, .cannotOpen: true
        default: false
        }
    }
}

/// A transaction on a ``PostgresArchive``'s connection: `?` parameters numbered `$1`, `$2`, … and cells read as
/// ``StoredValue`` the way `store copy` reads them.
struct PostgresTransaction: StoreTransaction {
    let archive: PostgresArchive

    func rows(_ sql: String, _ arguments: [StoredValue]) throws -> [[StoredValue]] {
        try archive.rows(Self.numbered(sql), PostgresArchive.bind(arguments)) { row in try row.makeRandomAccess().map(PostgresArchive.value) }
    }

    /// `sql` with its `?` parameters numbered for PostgreSQL (the statements hold no `?` in a literal).
    static func numbered(_ sql: String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 64)
        var number = 0
        for character in sql {
            if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}
