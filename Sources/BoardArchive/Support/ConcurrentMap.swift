import Foundation

/// Runs `transform` for every index in `0..<count` on every core and returns the results in index order.
///
/// Every index runs even when some fail; the error of the lowest failing index is thrown, so what a build reports
/// does not depend on scheduling.
func concurrentMap<Value>(_ count: Int, _ transform: @Sendable (Int) throws -> Value) throws -> [Value] {
    let slots = ResultSlots<Value>(count: count)
    DispatchQueue.concurrentPerform(iterations: count) { index in slots.set(index, Result { try transform(index) }) }
    return try (0..<count).map { try slots.get($0) }
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
