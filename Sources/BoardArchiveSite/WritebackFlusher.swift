import Foundation

/// Puts the staging folder's files on disk while the build is still rendering, so that the one `sync` before the
/// publish step (``SitePublisher/publish(_:)``) finds little left to write.
///
/// Files are written without a sync each (``SiteOutput/writeFile(to:_:)``); left alone, the kernel writes them back
/// after about 30 s, so at the end of a build of a hundred thousand pages most of them were still only in memory
/// and the final sync waited on the disk for over a second with the cores idle. A background thread calls
/// `sync(2)` every `interval` seconds (as the publish step does; `syncfs(2)`, which Glibc's module map leaves out,
/// would limit it to the staging folder's file system): the disk works while the cores render.
/// It changes nothing the build guarantees: the publish step still syncs everything before its commit point.
final class WritebackFlusher: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopped = false
    private var finished = false

    /// Starts flushing every `interval` seconds.
    init(interval: TimeInterval = 2) {
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
            sync()
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
    }
}
