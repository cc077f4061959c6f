import Foundation

/// When and how long the client waits before trying a request again.
///
/// Retried: HTTP 5xx, timeouts, dropped or refused connections and truncated bodies, with exponential backoff
/// and full jitter; HTTP 429 waits for `Retry-After` (capped) and has its own, larger budget. Never retried:
/// 401, 404 and other 4xx, and well-formed JSON that does not match the contract.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts per request for 5xx and network failures, the first included (default 8).
    public var maxAttempts: Int
    /// The first backoff delay (default 0.25 s); attempt n waits up to `baseDelay × 2^(n-1)`.
    public var baseDelay: Duration
    /// The longest backoff delay (default 20 s).
    public var maxDelay: Duration
    /// Answers `429` tolerated per request (default 20).
    public var maxThrottledAttempts: Int
    /// The longest `Retry-After` honoured (default 120 s); a longer one is shortened to this.
    public var maxRetryAfter: Duration
    /// The time allowed for one request (default 30 s).
    public var requestTimeout: Duration

    public init(
        maxAttempts: Int = 8, baseDelay: Duration = .milliseconds(250), maxDelay: Duration = .seconds(20), maxThrottledAttempts: Int = 20,
        maxRetryAfter: Duration = .seconds(120), requestTimeout: Duration = .seconds(30)
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxThrottledAttempts = maxThrottledAttempts
        self.maxRetryAfter = maxRetryAfter
        self.requestTimeout = requestTimeout
    }

    /// The backoff before attempt `attempt + 1` after `attempt` failures: `baseDelay × 2^(attempt-1)` capped at
    /// `maxDelay`, with "equal jitter" (half fixed, half drawn from `random` in 0..<1) so retries of many clients spread out.
    func backoff(afterAttempt attempt: Int, random: Double) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let ceiling = min(baseDelay * (1 << exponent), maxDelay)
        return ceiling / 2 + (ceiling / 2) * min(max(random, 0), 1)
    }

    /// The wait a `Retry-After` header asks for (seconds or an HTTP date), capped; nil when absent or unreadable.
    func retryAfter(_ header: String?, now: Date) -> Duration? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return nil }
        if header.allSatisfy(\.isASCII), header.allSatisfy(\.isNumber) {
            // Digits only; compared as text length first so a huge value cannot overflow.
            guard header.count <= 9, let seconds = Int64(header) else { return maxRetryAfter }
            return min(.seconds(seconds), maxRetryAfter)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: header) else { return nil }
        let wait = min(max(0, date.timeIntervalSince(now)), Double(maxRetryAfter.components.seconds))
        return min(.milliseconds(Int64(wait * 1_000)), maxRetryAfter)
    }
}

/// The attempts of one request so far under a ``RetryPolicy``, and the wait before the next: the one account of both
/// budgets (failures and `429`s) that the API's requests and the pictures' share.
struct RetryAttempts {
    let policy: RetryPolicy
    /// Failures so far (5xx, transport errors, truncated bodies).
    private(set) var failures = 0
    /// `429` answers so far.
    private(set) var throttles = 0

    init(_ policy: RetryPolicy) {
        self.policy = policy
    }

    /// Counts a failure; the backoff before the next attempt, or nil once the attempts are spent.
    mutating func afterFailure(random: @autoclosure () -> Double) -> Duration? {
        failures += 1
        guard failures < policy.maxAttempts else { return nil }
        return policy.backoff(afterAttempt: failures, random: random())
    }

    /// Counts a `429`; the wait its `Retry-After` asks for (else the backoff), or nil once its budget is spent.
    mutating func afterThrottle(retryAfter header: String?, random: @autoclosure () -> Double) -> Duration? {
        throttles += 1
        guard throttles < policy.maxThrottledAttempts else { return nil }
        return policy.retryAfter(header, now: Date()) ?? policy.backoff(afterAttempt: throttles, random: random())
    }
}
