import BoardArchive
import Dispatch
import Foundation

/// Turns `SIGINT` and `SIGTERM` into a polite stop of the crawl while it runs.
///
/// The first signal requests ``CrawlStop``: no new request starts, the pages in flight are stored, the run is recorded
/// as interrupted, and the command exits 130 (`SIGINT`) or 143 (`SIGTERM`). A second `SIGINT` exits 130 at once: every
/// page is written in one SQLite transaction, so stopping between two statements loses at most the page being written,
/// which the next run fetches again. Outside ``install()`` … ``remove()`` the signals keep their default action.
final class SignalTrap: @unchecked Sendable {
    let stop = CrawlStop()
    private let lock = NSLock()
    private var sources: [any DispatchSourceSignal] = []
    private var received: Int32?

    /// The first signal received, if any.
    var signal: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Starts trapping `SIGINT` and `SIGTERM`.
    func install() {
        for number in [SIGINT, SIGTERM] {
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self, source] in
                // Signals that arrive together are coalesced into one event; count each.
                for _ in 0..<max(1, source.data) { self?.handle(number) }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Gives `SIGINT` and `SIGTERM` their default action back.
    func remove() {
        for source in sources { source.cancel() }
        sources = []
        Foundation.signal(SIGINT, SIG_DFL)
        Foundation.signal(SIGTERM, SIG_DFL)
    }

    private func handle(_ number: Int32) {
        lock.lock()
        let first = received == nil
        if first { received = number }
        lock.unlock()
        if first {
            let name = number == SIGINT ? "SIGINT" : "SIGTERM"
            FileHandle.standardError.write(
                Data("\(name): finishing the requests in flight and storing their pages (press Ctrl-C again to stop at once).\n".utf8))
            stop.request()
        } else if number == SIGINT {
            FileHandle.standardError.write(Data("Second SIGINT: stopping now; run the same command again to resume.\n".utf8))
            _exit(ExitCodes.interrupted)
        }
    }

    /// The exit code and the one sentence telling how to resume, for a crawl that stopped on a signal.
    func interruption(_ error: CrawlError) -> (code: Int32, message: String) {
        let isTerm = signal == SIGTERM
        let message =
            "error: Interrupted by \(isTerm ? "SIGTERM" : "SIGINT"): the pages fetched so far are stored and the run is recorded as "
            + "interrupted; run the same command again to resume.\n"
        return (isTerm ? ExitCodes.terminated : ExitCodes.interrupted, message)
    }
}
