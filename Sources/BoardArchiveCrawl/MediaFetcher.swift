import BoardArchiveModel
import BoardArchiveStore
import Crypto
import Foundation
import Logging

/// What a crawl did with pictures, for its summary line.
public struct MediaReport: Sendable, Equatable {
    /// Addresses tried (or decided) this run.
    public var tried = 0
    /// Pictures kept this run.
    public var kept = 0
    /// Pictures that failed or were refused this run.
    public var notKept = 0
    /// Requests made for pictures, redirects and retries included.
    public var requests = 0
    /// Bytes of pictures kept this run.
    public var bytes = 0
    /// Stored posts read for pictures because the archive had not been (an archive from before pictures were kept).
    public var postsScanned = 0

    public init() {}

    /// ` , 12 pictures kept (3 not kept)`, or nothing when no picture was tried.
    public var summary: String {
        guard tried > 0 else { return "" }
        return ", \(kept) picture\(kept == 1 ? "" : "s") kept" + (notKept > 0 ? " (\(notKept) not kept)" : "")
    }
}

/// Fetches the pictures the archive's posts show and keeps them in the store (issue 28).
///
/// Runs after the boards of a crawl: the addresses the store holds as pending, or failed and due again, are tried
/// `concurrency` at a time, with the crawl's pace (`--max-rps`), retries and `429` handling. Each picture is checked hop
/// by hop (``MediaPolicy``), read up to its limit, typed by its bytes (``ImageProbe``) and kept by its SHA-256 in its
/// own transaction, so a crawl killed meanwhile loses at most the pictures in flight, which stay pending. A picture not
/// kept is a warning naming the posts and the address, and is tried again after a growing delay.
struct MediaFetcher: Sendable {
    let configuration: MediaConfiguration
    let policy: MediaPolicy
    let client: BoardAPIClient
    let store: any ArchiveDatabase
    let concurrency: Int
    let logger: Logger
    let now: @Sendable () -> Date
    let observe: @Sendable (CrawlEvent) -> Void
    /// Runs a write of the store on the crawl's store thread (``Crawler/storing(_:_:)``), off the concurrency pool.
    let storing: @Sendable (String, @escaping @Sendable () throws -> Void) async throws -> Void

    /// The most redirects followed for one picture.
    static let maxRedirects = 5

    /// What became of one address.
    enum Outcome: Sendable, Equatable {
        case kept(KeptImage)
        case failed(String)
        case refused(String)
        /// Its post's room is taken by pictures of the post still in flight: tried again once they end.
        case deferred
    }

    func run() async throws -> MediaReport {
        var report = MediaReport()
        let date = now()
        let work = try store.mediaWork(at: date)
        guard !work.isEmpty else { return report }
        let budget = PostBudget(kept: try store.keptMediaBytes(ofPostsDueAt: date))
        let counter = RequestCounter()
        var stillRefused = 0
        try await withThrowingTaskGroup(of: (MediaWork, Outcome, reserved: Int).self) { group in
            var pending = work.makeIterator()
            var deferred: [MediaWork] = []
            func startNext() -> Bool {
                guard !client.stop.isRequested else { return false }
                let waited = deferred.isEmpty ? nil : deferred.removeFirst()
                guard let next = waited ?? pending.next() else { return false }
                group.addTask {
                    // A picture put back waits a moment, so that the pictures it waits for can end.
                    if waited != nil { try await Task.sleep(for: .milliseconds(20)) }
                    let (reserved, blocked) = await budget.reserve(
                        for: next.posts.map(\.postId), picture: configuration.maxImageBytes, post: configuration.maxPostBytes)
                    if reserved == 0 && blocked { return (next, .deferred, 0) }
                    return (next, try await fetch(next, limit: reserved, counter: counter), reserved)
                }
                return true
            }
            for _ in 0..<max(1, concurrency) {
                guard startNext() else { break }
            }
            while let (item, outcome, reserved) = try await group.next() {
                if case .deferred = outcome {
                    deferred.append(item)
                    _ = startNext()
                    continue
                }
                let kept = if case .kept(let image) = outcome { image.bytes.count } else { 0 }
                await budget.settle(item.posts.map(\.postId), reserved: reserved, kept: kept)
                // A refusal decided again as before (no request) is counted in one line, not warned about every run.
                let repeated = if case .refused(let reason) = outcome, item.status == .refused, item.reason == reason { true } else { false }
                if repeated { stillRefused += 1 }
                try await record(outcome, for: item, into: &report, warns: !repeated)
                _ = startNext()
            }
        }
        report.requests = await counter.count
        if stillRefused > 0 {
            logger.notice(
                "Pictures still refused as on earlier runs (see the earlier warnings, or media_source in the store)",
                metadata: ["pictures": "\(stillRefused)"])
        }
        if client.stop.isRequested { throw CrawlError(request: "the next picture", reason: .interrupted) }
        return report
    }

    /// Stores what became of `item` and warns about a picture not kept.
    private func record(_ outcome: Outcome, for item: MediaWork, into report: inout MediaReport, warns: Bool) async throws {
        report.tried += 1
        let date = now()
        let store = store
        switch outcome {
        case .kept(let image):
            try await storing("keeping a picture") { try store.keepMedia(image, for: item.address, at: date) }
            report.kept += 1
            report.bytes += image.bytes.count
            observe(.pictureKept)
        case .deferred:
            return
        case .failed(let reason), .refused(let reason):
            let refused = if case .refused = outcome { true } else { false }
            // A refusal is decided again on the next run without a request (settings may change); a failure waits.
            let retry = refused ? date : configuration.nextAttempt(after: item.attempts + 1, from: date)
            try await storing("recording a picture not kept") {
                try store.recordMediaMiss(item.address, status: refused ? .refused : .failed, reason: reason, retryAt: retry, at: date)
            }
            report.notKept += 1
            guard warns else { return }
            let posts = item.posts.prefix(5).map { String($0.postId) }.joined(separator: ", ") + (item.posts.count > 5 ? ", …" : "")
            logger.warning(
                "Picture not kept; the post shows its address as text",
                metadata: ["posts": "\(posts)", "address": "\(item.address)", "reason": "\(reason)"])
        }
    }

    /// Fetches one address, following allowed redirects, within its posts' limits.
    /// `limit`: the bytes reserved for it (``PostBudget/reserve(for:picture:post:)``).
    private func fetch(_ item: MediaWork, limit: Int, counter: RequestCounter) async throws -> Outcome {
        guard limit > 0 else { return .refused("would take its post past the limit of \(configuration.maxPostBytes) bytes of pictures") }
        guard var url = URL(string: item.address, relativeTo: client.baseURL)?.absoluteURL else { return .refused("is not a valid address") }
        // A picture elsewhere that redirects to the API's origin does not get the token there either.
        var leftOrigin = MediaPolicy.origin(of: url) != MediaPolicy.origin(of: client.baseURL)
        for hop in 0...Self.maxRedirects {
            let sendsToken: Bool
            switch await policy.decide(url, leftOrigin: leftOrigin) {
            case .refuse(let reason): return .refused(hop > 0 ? "redirects to \(BoardAPIClient.location(of: url)), which \(reason)" : reason)
            case .fetch(let token): sendsToken = token
            }
            let response: HTTPResponse
            do {
                response = try await request(url, sendsToken: sendsToken, maxBytes: limit, counter: counter)
            } catch let error as MediaBodyTooLarge {
                return .failed(
                    error.limit < configuration.maxImageBytes
                        ? "is larger than the \(error.limit) bytes left of its post's limit of \(configuration.maxPostBytes)"
                        : "is larger than the limit of \(error.limit) bytes a picture")
            } catch let error as CrawlError {
                if error.reason == .interrupted { throw error }
                return .failed(client.token.redact(error.localizedDescription))
            }
            switch response.status {
            case 200..<300:
                return Self.keep(Array(response.body))
            case 301, 302, 303, 307, 308:
                guard let location = response.headers["location"], let next = URL(string: location, relativeTo: url)?.absoluteURL else {
                    return .failed("answered \(response.status) without a valid Location")
                }
                if MediaPolicy.origin(of: next) != MediaPolicy.origin(of: client.baseURL) { leftOrigin = true }
                url = next
            default:
                return .failed("answered HTTP \(response.status)")
            }
        }
        return .failed("redirects more than \(Self.maxRedirects) times")
    }

    /// The bytes as a kept picture, or why not.
    static func keep(_ bytes: [UInt8]) -> Outcome {
        let verdict = ImageProbe.probe(bytes)
        guard case .image(let format, let width, let height) = verdict else {
            return .failed(ImageProbe.reason(verdict) ?? "is not a picture the archive keeps")
        }
        let hash = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        return .kept(KeptImage(hash: hash, format: format, width: width, height: height, bytes: bytes))
    }

    /// One `GET` with the crawl's pace and retry rules: transport failures and `5xx` are retried with backoff, `429`
    /// waits its `Retry-After`; any other answer (a redirect included) is returned.
    private func request(_ url: URL, sendsToken: Bool, maxBytes: Int, counter: RequestCounter) async throws -> HTTPResponse {
        var headers = ["Accept": "image/*", "User-Agent": "boardarchive/\(BoardArchiveVersion.string)"]
        if sendsToken { headers["Authorization"] = client.token.authorizationHeader }
        let policy = client.retryPolicy
        var attempts = RetryAttempts(policy)
        while true {
            guard !client.stop.isRequested else { throw CrawlError(request: "a picture", reason: .interrupted) }
            try await client.rateLimiter?.acquire()
            await counter.add()
            let delay: Duration
            do {
                let response = try await client.transport.getPicture(url, headers: headers, timeout: policy.requestTimeout, maxBodyBytes: maxBytes)
                if response.status == 429 {
                    guard let wait = attempts.afterThrottle(retryAfter: response.headers["retry-after"], random: client.random()) else {
                        return response
                    }
                    delay = wait
                } else if (500..<600).contains(response.status) {
                    guard let wait = attempts.afterFailure(random: client.random()) else { return response }
                    delay = wait
                } else {
                    return response
                }
            } catch let error as MediaBodyTooLarge {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                if let oversized = TransportFailure.oversizedBody(error) {
                    throw CrawlError(request: "a picture", reason: .undecodableBody(oversized))
                }
                let failure = client.token.redact(TransportFailure.describe(error, redact: client.token.redact))
                guard let wait = attempts.afterFailure(random: client.random()) else {
                    throw CrawlError(
                        request: "GET \(BoardAPIClient.location(of: url))", reason: .transport(failure, attempts: attempts.failures, waited: 0))
                }
                delay = wait
            }
            try await client.sleep(delay)
        }
    }

    /// The bytes each post's pictures take, kept or in flight: a fetch reserves its most before it starts, and settles
    /// to what it kept when it ends, so pictures fetched at once never take a post past its limit together.
    actor PostBudget {
        private var used: [Int: Int]

        init(kept: [Int: Int]) {
            used = kept
        }

        private var inFlight: [Int: Int] = [:]

        /// Reserves, for a picture `posts` show, the most it may take: `picture`, or less when the fullest of the posts
        /// has less room left before `post`; answers the bytes reserved (0: no room), and whether pictures of those
        /// posts in flight hold room that may come back.
        func reserve(for posts: [Int], picture: Int, post: Int) -> (bytes: Int, blockedByInFlight: Bool) {
            let room = max(0, min(picture, posts.map { post - (used[$0] ?? 0) }.min() ?? picture))
            guard room > 0 else { return (0, posts.contains { (inFlight[$0] ?? 0) > 0 }) }
            for id in posts {
                used[id, default: 0] += room
                inFlight[id, default: 0] += 1
            }
            return (room, false)
        }

        /// Replaces a reservation with the bytes actually kept.
        func settle(_ posts: [Int], reserved: Int, kept: Int) {
            guard reserved > 0 else { return }
            for id in posts {
                used[id, default: 0] += kept - reserved
                inFlight[id, default: 0] -= 1
            }
        }
    }

    actor RequestCounter {
        private(set) var count = 0
        func add() { count += 1 }
    }
}
