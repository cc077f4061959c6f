import Foundation

/// Spaces requests so that no more than `requestsPerSecond` start in any second (a simple pacing limiter).
actor RateLimiter {
    private let interval: Duration
    private var next: ContinuousClock.Instant
    private let clock = ContinuousClock()

    init(requestsPerSecond: Double) {
        precondition(requestsPerSecond > 0, "the request rate must be positive")
        interval = .milliseconds(Int64(1_000 / requestsPerSecond))
        next = clock.now
    }

    /// Waits until the next request may start, and answers the instant it was scheduled for.
    @discardableResult
    func acquire() async throws -> ContinuousClock.Instant {
        let now = clock.now
        let start = max(now, next)
        next = start + interval
        if start > now { try await Task.sleep(until: start, clock: clock) }
        return start
    }
}
