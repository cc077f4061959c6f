import BoardArchiveModel
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The right to crawl into a SQLite store: an exclusive `flock` on `<store>.crawl-lock`, held for the whole crawl.
///
/// SQLite keeps one writer at a time, and a crawl resumes the last unfinished run it finds in the store, so two crawls of
/// one store at once would take each other's run over. The second crawl is refused at once with who holds the store
/// (the lock file holds the holder's process id, host and start time). The kernel drops the lock when its holder ends,
/// `kill -9` included, so a crashed crawl never leaves a stale lock behind. The file itself stays (removing it would
/// race a crawl that has just opened it); it is a few bytes and means nothing once unlocked.
public final class CrawlLease: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// A lease that locks nothing (in-memory stores).
    static let none = CrawlLease(descriptor: -1)

    /// The lock file of the store at `path`, beside the store's real file: the same store reached through a symlink,
    /// a relative path or `..` takes the same lock.
    static func lockPath(forStoreAt path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path + ".crawl-lock"
    }

    /// Takes the lock of the store at `path`, or throws `crawlInProgress` naming its holder.
    static func acquire(forStoreAt path: String, at date: Date) throws -> CrawlLease {
        let lockPath = lockPath(forStoreAt: path)
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw StoreError(location: path, reason: .cannotOpen("its crawl lock \(lockPath) cannot be opened: \(reason)"))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = readHolder(descriptor) ?? "another boardarchive process"
            close(descriptor)
            throw StoreError(location: path, reason: .crawlInProgress(holder: holder))
        }
        let holder = "boardarchive process \(getpid()) on \(ProcessInfo.processInfo.hostName), crawling since \(ArchiveDate.format(date))"
        _ = ftruncate(descriptor, 0)
        _ = Array(holder.utf8).withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return CrawlLease(descriptor: descriptor)
    }

    /// What the holder wrote in the lock file, if anything readable.
    private static func readHolder(_ descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// Gives the lock up (closing the file releases it).
    public func release() {
        if descriptor >= 0 { close(descriptor) }
    }
}
