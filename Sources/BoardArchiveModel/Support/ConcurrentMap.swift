import Foundation

/// Runs `transform` for every index in `0..<count` on every core and returns the results in index order.
///
/// Every index runs even when some fail; the error of the lowest failing index is thrown, so what a build reports
/// does not depend on scheduling.
///
/// The calling thread takes indexes in turn with one helper per spare core (``CoreBudget``): a map inside another
/// map (a board's pages inside the map over boards) gets helpers only when cores are free, so no core runs two
/// threads, and the largest board's pages spread over every core once the other boards are done. Not
/// `DispatchQueue.concurrentPerform`, which runs an apply nested in another on fewer threads from the start (on 2
/// cores, on the calling thread alone): the largest board's last second of a 100k build ran on one core.
package func concurrentMap<Value>(_ count: Int, _ transform: @Sendable (Int) throws -> Value) throws -> [Value] {
    let slots = ResultSlots<Value>(count: count)
    let helpers = count > 1 ? CoreBudget.shared.take(upTo: count - 1) : 0
    withoutActuallyEscaping(transform) { transform in
        let next = IndexDealer(count: count)
        // Helpers reach `transform` through the box, emptied before this returns: a helper's thread may outlive its
        // work a moment, and must not hold the closure then.
        let box = WorkBox { while let index = next.take() { slots.set(index, Result { try transform(index) }) } }
        let group = DispatchGroup()
        for _ in 0..<helpers {
            runOnNewThread(group: group) {
                box.run()
                CoreBudget.shared.give()
            }
        }
        box.run()
        // Out of indexes, the calling thread only waits: its core is lent (to a helper's own maps, say the search step's
        // beside a board step done first) until the helpers are done.
        if helpers > 0 { CoreBudget.shared.give() }
        group.wait()
        if helpers > 0 { CoreBudget.shared.reclaim() }
        box.empty()
    }
    return try (0..<count).map { try slots.get($0) }
}

/// Runs `body` on a thread of its own, inside `group`.
///
/// Not a global dispatch queue: libdispatch gives its queues as many threads as there are cores and counts a thread
/// that waits (the store's reading queue waiting on encoded blocks, a map's caller waiting on its helpers) as busy,
/// so the work queued behind it waited for a core that was idle.
package func runOnNewThread(group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
    group.enter()
    let thread = Thread {
        body()
        group.leave()
    }
    thread.start()
}

/// The cores not running a ``concurrentMap`` thread: the calling thread of the outermost map is counted as running.
private final class CoreBudget: @unchecked Sendable {
    static let shared = CoreBudget(spare: ProcessInfo.processInfo.activeProcessorCount - 1)

    private let lock = NSLock()
    private var spare: Int

    private init(spare: Int) { self.spare = max(0, spare) }

    /// Takes up to `count` spare cores; returns how many it took.
    func take(upTo count: Int) -> Int {
        lock.withLock {
            let taken = max(0, min(count, spare))
            spare -= taken
            return taken
        }
    }

    /// Gives back one core.
    func give() {
        lock.withLock { spare += 1 }
    }

    /// Takes back the core a waiting thread lent (``give()``), spare or not: until another map's helper gives its core
    /// back, no map gets a helper.
    func reclaim() {
        lock.withLock { spare -= 1 }
    }
}

/// A map's work, reachable by its helpers until the map empties it.
private final class WorkBox: @unchecked Sendable {
    private let lock = NSLock()
    private var work: (@Sendable () -> Void)?

    init(_ work: @escaping @Sendable () -> Void) { self.work = work }

    func run() {
        let work = lock.withLock { self.work }
        work?()
    }

    func empty() {
        lock.withLock { work = nil }
    }
}

/// Hands out `0..<count` one index at a time to several threads.
private final class IndexDealer: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let count: Int

    init(count: Int) { self.count = count }

    func take() -> Int? {
        lock.withLock {
            guard next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }
}

/// Results filled in by several threads, read back by index.
private final class ResultSlots<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<Value, any Error>?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<Value, any Error>) {
        lock.withLock { results[index] = result }
    }

    func get(_ index: Int) throws -> Value {
        guard let result = lock.withLock({ results[index] }) else { preconditionFailure("item \(index) did not run") }
        return try result.get()
    }
}
