/// Faults a ``FixtureServer`` injects, for tests of retries, back-off and drift handling. All off by default.
///
/// Picture requests (`/media/`, see ``FixtureMedia``) meet none of these API faults: only `mediaLatency` and
/// `mediaRequiresAuthorization` apply to them, and they do not count as requests here.
///
/// Checks run in this order for every API request, and the first that fires answers it:
/// latency (always), `unauthorizedAfter`, the bearer-token check, `errorBurst`, `tooManyRequestsEvery`, `failureRate`,
/// `dropConnectionRate`; then the request is served and `truncatedJSONRate` may cut its body.
/// Random choices use a generator seeded from `seed`, the request's path and query, and how many times that path and
/// query was asked before, so the outcome of a given attempt does not depend on the order of concurrent requests.
public struct FixtureFaults: Sendable, Equatable {
    /// Posts inserted at the top of a board and deleted from it once its first page has been served (offset drift).
    ///
    /// When `GET /boards/{boardId}/posts` with offset 0 (no search) is first answered `200`, and after that response is
    /// built: the `delete` posts at positions `limit - delete ..< limit` of that first page (the oldest posts the client
    /// has just seen) are removed, so every later page shifts up by `delete`; then `insert` new posts are added above
    /// the newest post (ids above every existing id, counting up, dated 1…`insert` seconds after the newest post), so
    /// every later page shifts down by `insert`. It happens once. ``FixtureServer/dataset`` shows the result.
    public struct OffsetDrift: Sendable, Equatable {
        public var boardId: Int
        /// How many new posts to insert at the top.
        public var insert: Int
        /// How many already-served posts to delete.
        public var delete: Int

        public init(boardId: Int, insert: Int = 0, delete: Int = 0) {
            self.boardId = boardId
            self.insert = insert
            self.delete = delete
        }
    }

    /// Delay before every answer, in milliseconds. Default 0.
    public var latency: Int
    /// Probability (0…1) that a request answers one of `failureStatuses` (chosen at random). Default 0.
    public var failureRate: Double
    /// The statuses a `failureRate` failure answers with, picked at random. Default `[500, 503]`.
    public var failureStatuses: [Int]
    /// The first N requests for each distinct path and query answer `errorBurstStatus`. Default 0.
    public var errorBurst: Int
    /// The status an `errorBurst` answers with, a server error (500…599). Default 503.
    public var errorBurstStatus: Int
    /// Every Nth request (counting all requests from 1) answers `429` with `Retry-After`. Default `nil` (never).
    public var tooManyRequestsEvery: Int?
    /// The `Retry-After` value of a `429`, in whole seconds. Default 1.
    public var retryAfterSeconds: Int
    /// Probability (0…1) that the connection is closed without any response. Default 0.
    public var dropConnectionRate: Double
    /// Probability (0…1) that a `200` answer's JSON body is cut in half (with a matching `Content-Length`). Default 0.
    public var truncatedJSONRate: Double
    /// After N requests, every request answers `401`. Default `nil` (never).
    public var unauthorizedAfter: Int?
    /// Posts inserted or deleted mid-crawl. Default `nil`.
    public var offsetDrift: OffsetDrift?
    /// Seed of every random choice. Default 1.
    public var seed: UInt64
    /// Exact item JSON to list instead of the dataset (boards and posts). Default `nil` (the dataset).
    public var rawListings: FixtureRawListings?
    /// A `429`'s `Retry-After` is an HTTP date (`retryAfterSeconds` from now) instead of seconds. Default false.
    public var retryAfterAsDate: Bool = false
    /// The first N requests for each distinct path and query wait `stallMilliseconds` before answering (request
    /// timeouts). Default 0.
    public var stallFirstAttempts: Int = 0
    /// How long a stalled request waits, in milliseconds. Default 5000.
    public var stallMilliseconds: Int = 5_000
    /// The first N requests for each distinct path and query send their headers and half the body, then close the
    /// connection (a connection dropped mid-body). Default 0.
    public var dropMidBodyFirstAttempts: Int = 0
    /// A board whose posts answer `200` with well-formed JSON of the wrong shape (`value` is an object). Default `nil`.
    public var wrongShapeBoard: Int?
    /// A board that `GET /boards` lists but whose posts answer `404`. Default `nil`.
    public var missingBoard: Int?
    /// A board whose pages claim `lyingTotalExtra` more posts in `total` than it has. Default `nil`.
    public var lyingTotalBoard: Int?
    /// How many posts a `lyingTotalBoard` claims beyond its real count. Default 5.
    public var lyingTotalExtra: Int = 5
    /// Delay before every `/media/` answer, in milliseconds; the API's `latency` does not apply to pictures. Default 0.
    public var mediaLatency: Int = 0
    /// `/media/` requests without a valid bearer token answer `401` (pictures are public by default). Default false.
    public var mediaRequiresAuthorization: Bool = false

    public init(
        latency: Int = 0, failureRate: Double = 0, failureStatuses: [Int] = [500, 503], errorBurst: Int = 0, errorBurstStatus: Int = 503,
        tooManyRequestsEvery: Int? = nil,
        retryAfterSeconds: Int = 1,
        dropConnectionRate: Double = 0, truncatedJSONRate: Double = 0, unauthorizedAfter: Int? = nil, offsetDrift: OffsetDrift? = nil,
        seed: UInt64 = 1, rawListings: FixtureRawListings? = nil
    ) {
        self.latency = latency
        self.failureRate = failureRate
        self.failureStatuses = failureStatuses.isEmpty ? [500, 503] : failureStatuses
        self.errorBurst = errorBurst
        self.errorBurstStatus = errorBurstStatus
        self.tooManyRequestsEvery = tooManyRequestsEvery
        self.retryAfterSeconds = retryAfterSeconds
        self.dropConnectionRate = dropConnectionRate
        self.truncatedJSONRate = truncatedJSONRate
        self.unauthorizedAfter = unauthorizedAfter
        self.offsetDrift = offsetDrift
        self.seed = seed
        self.rawListings = rawListings
    }

    /// No faults at all.
    public static let none = FixtureFaults()
}
