import Foundation

/// Puts the staging folder's files on disk while the build is still rendering, so that the one `sync` before the
/// publish step (``SitePublisher/publish(_:)``) finds little left to write.
///
/// Files are written without a sync each (``SiteOutput/writeFile(_:to:)``); left alone, the kernel writes them back
/// after about 30 s, so at the end of a build of a hundred thousand pages most of them were still only in memory
/// and the final sync waited on the disk for over a second with the cores idle. A background thread calls
/// `syncfs(2)` on the staging folder's file system every `interval` seconds: the disk works while the cores render.
/// It changes nothing the build guarantees: the publish step still syncs everything before its commit point.
final class WritebackFlusher: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopped = false
    private var finished = false
    private let descriptor: Int32

    /// Starts flushing the file system that holds `directory` every `interval` seconds; nil when the folder cannot be
    /// opened (the build then relies on the final sync alone).
    init?(directory: URL, interval: TimeInterval = 2) {
        descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let thread = Thread { [self] in run(interval: interval) }
        thread.name = "boardarchive-writeback"
        thread.start()
    }

    private func run(interval: TimeInterval) {
        condition.lock()
        while !stopped {
            _ = condition.wait(until: Date().addingTimeInterval(interval))
            if stopped { break }
            condition.unlock()
            _ = fileSystemSync(descriptor)
            condition.lock()
        }
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the thread and waits for a flush under way to end; call it before publishing. Calling it again does nothing.
    func stop() {
        condition.lock()
        guard !stopped else {
            condition.unlock()
            return
        }
        stopped = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
        close(descriptor)
    }
}

/// Linux's `syncfs(2)`, which Glibc's module map leaves out (it needs `_GNU_SOURCE`).
@_silgen_name("syncfs")
private func fileSystemSync(_ descriptor: Int32) -> Int32
