import BoardArchiveModel
import BoardArchiveStore
import Foundation
import Logging

/// One page of an API list, each item with the JSON it arrived as.
struct Page<Item: Sendable>: Sendable {
    var items: [RawItem<Item>]
    var count: Int
    var offset: Int
    var limit: Int
    var total: Int
    /// A hash of the page's items, stored with the checkpoint to tell later runs whether the page changed.
    var contentHash: String
}

/// Talks to the board API: builds requests, authenticates, paces, retries and decodes.
struct BoardAPIClient: Sendable {
    let baseURL: URL
    let token: APIToken
    let transport: any HTTPTransport
    let retryPolicy: RetryPolicy
    let rateLimiter: RateLimiter?
    let statistics: CrawlStatistics
    let logger: Logger
    /// Waits between attempts; injectable so tests of the retry rules do not sleep.
    let sleep: @Sendable (Duration) async throws -> Void
    let random: @Sendable () -> Double
    /// Once requested, no request starts (the one in flight finishes).
    let stop: CrawlStop

    init(
        baseURL: URL, token: APIToken, transport: any HTTPTransport, retryPolicy: RetryPolicy, maxRequestsPerSecond: Double?,
        logger: Logger, sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, stop: CrawlStop = CrawlStop(),
        progress: ProgressMeter = ProgressMeter()
    ) {
        self.stop = stop
        self.baseURL = baseURL
        self.token = token
        self.transport = transport
        self.retryPolicy = retryPolicy
        self.rateLimiter = maxRequestsPerSecond.map { RateLimiter(requestsPerSecond: $0) }
        self.statistics = CrawlStatistics(meter: progress)
        self.logger = logger
        self.sleep = sleep
        self.random = random
    }

    /// `GET /boards`.
    func fetchBoards() async throws -> Page<Board> {
        try await fetchList(path: "/boards", query: [], board: nil)
    }

    /// `GET /boards/{boardId}/posts?offset=…&limit=…`.
    func fetchPage(of boardId: Int, offset: Int, limit: Int) async throws -> Page<Post> {
        try await fetchList(path: "/boards/\(boardId)/posts", query: [("offset", offset), ("limit", limit)], board: boardId)
    }

    private func fetchList<Item: Decodable & Sendable>(path: String, query: [(String, Int)], board: Int?) async throws -> Page<Item> {
        let queryText = query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        let described = "GET \(path)" + (queryText.isEmpty ? "" : "?\(queryText)")
        guard var components = URLComponents(url: baseURL.appendingPathComponent(String(path.dropFirst())), resolvingAgainstBaseURL: false)
        else { throw CrawlError(request: described, reason: .undecodableBody("invalid URL")) }
        if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.0, value: String($0.1)) } }
        guard let url = components.url else { throw CrawlError(request: described, reason: .undecodableBody("invalid URL")) }
        let offset = query.first { $0.0 == "offset" }?.1 ?? 0
        do {
            return try await withRetries(described) { body in
                try EnvelopeDecoder.decode(Item.self, from: body, request: described, board: board, offset: offset, redacting: token)
            } url: {
                url
            }
        } catch let error as CrawlError {
            // The last line of defence: whatever a body or a library quoted, the token never leaves the client.
            throw error.redacting(token)
        }
    }

    /// Sends the request until it yields a decodable 2xx body, following the retry policy.
    private func withRetries<T>(
        _ described: String, decode: (Data) throws -> T, url: () -> URL
    ) async throws -> T {
        let headers = [
            "Authorization": token.authorizationHeader, "Accept": "application/json",
            "User-Agent": "boardarchive/\(BoardArchiveVersion.string)",
        ]
        let started = ContinuousClock.now
        var attempts = RetryAttempts(retryPolicy)
        func waited() -> Int { Int((ContinuousClock.now - started).components.seconds) }
        /// Counts a retryable failure and answers the wait before the next attempt, or throws once the budget is spent.
        func retryable(_ failure: String, status: Int?) throws -> Duration {
            guard let delay = attempts.afterFailure(random: random()) else {
                if let status {
                    throw CrawlError(request: described, reason: .unexpectedStatus(status, attempts: attempts.failures, waited: waited()))
                }
                throw CrawlError(request: described, reason: .transport(failure, attempts: attempts.failures, waited: waited()))
            }
            return delay
        }
        while true {
            guard !stop.isRequested else { throw CrawlError(request: described, reason: .interrupted) }
            try await rateLimiter?.acquire()
            await statistics.countRequest()
            var failure = ""
            var delay = Duration.zero
            do {
                let response = try await transport.get(url(), headers: headers, timeout: retryPolicy.requestTimeout)
                switch response.status {
                case 200..<300:
                    do { return try decode(response.body) } catch EnvelopeDecoder.Failure.truncated(let detail) {
                        failure = "truncated body: \(detail)"
                        delay = try retryable(failure, status: nil)
                    } catch let error as CrawlError {
                        throw error
                    } catch {
                        // A body that arrived whole but cannot be decoded will not decode on a retry either.
                        throw CrawlError(request: described, reason: .undecodableBody(TransportFailure.describe(error, redact: token.redact)))
                    }
                case 401:
                    throw CrawlError(request: described, reason: .unauthorized)
                case 404:
                    throw CrawlError(request: described, reason: .notFound)
                case 429:
                    guard let wait = attempts.afterThrottle(retryAfter: response.headers["retry-after"], random: random()) else {
                        throw CrawlError(request: described, reason: .unexpectedStatus(429, attempts: attempts.throttles, waited: waited()))
                    }
                    failure = "HTTP 429"
                    delay = wait
                case 500..<600:
                    failure = "HTTP \(response.status)"
                    delay = try retryable(failure, status: response.status)
                default:
                    throw CrawlError(request: described, reason: .unexpectedStatus(response.status, attempts: 1, waited: 0))
                }
            } catch let error as CrawlError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                if let oversized = TransportFailure.oversizedBody(error) {
                    throw CrawlError(request: described, reason: .undecodableBody(oversized))
                }
                failure = token.redact("\(TransportFailure.describe(error, redact: token.redact)) at \(Self.location(of: url()))")
                delay = try retryable(failure, status: nil)
            }
            await statistics.countRetry(throttled: failure == "HTTP 429")
            logger.warning(
                "Retrying request",
                metadata: ["request": "\(described)", "failure": "\(failure)", "delay": "\(delay)"])
            try await sleep(delay)
        }
    }

    /// Where a request went, for messages: the URL without credentials, query or fragment.
    static func location(of url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(invalid URL)" }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? "(invalid URL)"
    }
}
