import Foundation

/// Spaces requests so that no more than `requestsPerSecond` start in any second (a simple pacing limiter).
actor RateLimiter {
    private let interval: Duration
    private var next: ContinuousClock.Instant
    private let clock = ContinuousClock()

    init(requestsPerSecond: Double) {
        precondition(requestsPerSecond > 0, "the request rate must be positive")
        // In nanoseconds: whole milliseconds would round any rate above 1000 per second down to no spacing at all.
        interval = .nanoseconds(Int64((1_000_000_000 / requestsPerSecond).rounded()))
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
