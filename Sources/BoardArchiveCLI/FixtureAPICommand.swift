import ArgumentParser
import BoardArchive
import FixtureAPI
import Foundation
import Logging

/// `boardarchive fixture-api`: serves the board API locally from the demo dataset, a file or a generator.
struct FixtureAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixture-api",
        abstract: "Serve a local board API (/api/v2) for demos, tests and benchmarks.",
        discussion: """
            Serves the bundled Korean demo dataset (or --data FILE, or --generate-posts N synthetic posts) with its dates \
            shifted so the newest posts are minutes old. Prints exactly one line, "Fixture API listening on URL", then \
            runs until SIGINT or SIGTERM. Any non-empty bearer token is accepted unless --token-env names a variable \
            holding the one token to accept. Fault options inject latency, errors, 429s, dropped connections, truncated \
            JSON, 401s and offset drift; random choices are seeded with --seed.

            Pictures are served on the same origin under /media/, without a token: /media/demo/NAME (the pictures of \
            the demo posts), /media/gen/N.png (a small generated PNG per number, shown by --generate-posts datasets \
            with --image-share) and /media/fault/... (missing, wrong-type.png, script.svg, disguised-svg.png, \
            oversized.png, oversized-unannounced.png, slow/MS/N.png, redirect-same/REST, redirect-other/REST to \
            --media-other-origin, loop.png). The API's fault options do not apply to them; --media-latency does.
            """)

    @Option(name: .customLong("data"), help: ArgumentHelp("A dataset JSON file to serve instead of the bundled demo.", valueName: "file"))
    var dataPath: String?

    @Flag(help: "Serve --data with its dates as written instead of shifted to now (so two servers serve the same posts).")
    var keepDates = false

    @Option(help: "Add this many new posts above the newest post of each board in turn (a night's new posts).")
    var newPosts: Int = 0

    @Option(help: "Serve a generated dataset with this many posts in total instead of the demo.")
    var generatePosts: Int?

    @Option(help: "How many boards the generated dataset spreads its posts over.")
    var generateBoards: Int = 10

    @Option(help: "The share (0-1) of generated posts whose body shows one or two pictures from /media/gen/.")
    var imageShare: Double = 0

    @Option(help: "Delay before every /media/ answer, in milliseconds.")
    var mediaLatency: Int = 0

    @Option(help: ArgumentHelp("The origin /media/fault/redirect-other/REST redirects to (ORIGIN/media/REST).", valueName: "url"))
    var mediaOtherOrigin: String?

    @Option(help: "The address to bind.")
    var host: String = "127.0.0.1"

    @Option(help: "The port to bind; 0 picks a free one.")
    var port: Int = 0

    @Option(help: ArgumentHelp("An environment variable holding the only bearer token to accept.", valueName: "name"))
    var tokenEnv: String?

    @Option(help: "Delay before every answer, in milliseconds.")
    var latencyMs: Int = 0

    @Option(help: "Probability (0-1) of answering a --failure-status.")
    var failureRate: Double = 0

    @Option(help: "A status the --failure-rate failures answer with (repeatable; default 500 and 503).")
    var failureStatus: [Int] = []

    @Option(help: "The first N requests for each path and query answer --error-burst-status.")
    var errorBurst: Int = 0

    @Option(help: "The status an --error-burst answers with, 500 to 599.")
    var errorBurstStatus: Int = 503

    @Option(help: "Every Nth request answers 429 with Retry-After.")
    var tooManyRequestsEvery: Int?

    @Option(help: "The Retry-After of a 429, in seconds.")
    var retryAfter: Int = 1

    @Flag(help: "Send a 429's Retry-After as an HTTP date instead of seconds.")
    var retryAfterDate = false

    @Option(help: "The first N requests for each path and query wait --stall-ms before answering (request timeouts).")
    var stallFirst: Int = 0

    @Option(help: "How long a stalled request waits, in milliseconds.")
    var stallMs: Int = 5_000

    @Option(help: "The first N requests for each path and query send half their body, then close the connection.")
    var dropMidBodyFirst: Int = 0

    @Option(help: "A board whose posts answer well-formed JSON of the wrong shape.")
    var wrongShapeBoard: Int?

    @Option(help: "A board listed by GET /boards whose posts answer 404.")
    var missingBoard: Int?

    @Option(help: "A board whose pages claim --lying-total-extra more posts in total than it has.")
    var lyingTotalBoard: Int?

    @Option(help: "How many posts --lying-total-board claims beyond its real count.")
    var lyingTotalExtra: Int = 5

    @Option(help: "Probability (0-1) of closing the connection without an answer.")
    var dropRate: Double = 0

    @Option(help: "Probability (0-1) of cutting a 200 answer's JSON in half.")
    var truncateRate: Double = 0

    @Option(help: "After N requests, answer 401 to everything.")
    var unauthorizedAfter: Int?

    @Option(help: "The board whose posts drift after its first page is served.")
    var driftBoard: Int?

    @Option(help: "Posts inserted at the top of --drift-board.")
    var driftInsert: Int = 0

    @Option(help: "Already-served posts deleted from --drift-board.")
    var driftDelete: Int = 0

    @Option(help: "Seed of every random choice (faults and generated data).")
    var seed: UInt64 = 1

    func validate() throws {
        if let status = failureStatus.first(where: { !(400...599).contains($0) }) {
            throw ValidationError("--failure-status must be an HTTP error status between 400 and 599, got \(status).")
        }
        guard (500...599).contains(errorBurstStatus) else {
            throw ValidationError("--error-burst-status must be a server error status between 500 and 599, got \(errorBurstStatus).")
        }
        for (name, rate) in [("--failure-rate", failureRate), ("--drop-rate", dropRate), ("--truncate-rate", truncateRate)]
        where !(0...1).contains(rate) {
            throw ValidationError("\(name) must be between 0 and 1, got \(rate).")
        }
        for (name, count) in [
            ("--latency-ms", latencyMs), ("--error-burst", errorBurst), ("--retry-after", retryAfter),
            ("--drift-insert", driftInsert), ("--drift-delete", driftDelete), ("--port", port), ("--stall-first", stallFirst),
            ("--stall-ms", stallMs), ("--new-posts", newPosts), ("--drop-mid-body-first", dropMidBodyFirst), ("--lying-total-extra", lyingTotalExtra),
            ("--media-latency", mediaLatency),
        ]
        where count < 0 {
            throw ValidationError("\(name) must not be negative, got \(count).")
        }
        if let every = tooManyRequestsEvery, every < 1 {
            throw ValidationError("--too-many-requests-every must be at least 1, got \(every).")
        }
        if driftBoard == nil, driftInsert > 0 || driftDelete > 0 {
            throw ValidationError("--drift-insert and --drift-delete need --drift-board.")
        }
        if dataPath == nil, keepDates || newPosts > 0 {
            throw ValidationError("--keep-dates and --new-posts go with --data FILE.")
        }
        if generatePosts != nil, dataPath != nil {
            throw ValidationError("Use either --data or --generate-posts, not both.")
        }
        if let tokenEnv, ProcessInfo.processInfo.environment[tokenEnv, default: ""].isEmpty {
            throw ValidationError("--token-env \(tokenEnv): the environment variable is not set or empty.")
        }
        if let posts = generatePosts, posts < 0 || generateBoards < 1 {
            throw ValidationError("--generate-posts must not be negative and --generate-boards must be at least 1.")
        }
        guard (0...1).contains(imageShare) else {
            throw ValidationError("--image-share must be between 0 and 1, got \(imageShare).")
        }
        if imageShare > 0, generatePosts == nil {
            throw ValidationError("--image-share goes with --generate-posts.")
        }
        if let mediaOtherOrigin, Self.origin(mediaOtherOrigin) == nil {
            throw ValidationError(
                "--media-other-origin must be an http or https URL such as http://127.0.0.1:8081, not \"\(mediaOtherOrigin)\".")
        }
    }

    /// `text` as an http(s) URL with a host, or `nil`.
    private static func origin(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil
        else { return nil }
        return url
    }

    func run() async throws {
        let now = Date()
        let dataset: FixtureDataset
        if let posts = generatePosts {
            dataset = .generated(
                boards: generateBoards, postsPerBoard: posts / generateBoards, seed: seed, now: now, imageShare: imageShare)
        } else if let dataPath {
            let loaded = try FixtureDataset.load(contentsOf: URL(fileURLWithPath: dataPath))
            dataset = (keepDates ? loaded : loaded.shifted(toNow: now)).addingNewPosts(newPosts)
        } else {
            dataset = try FixtureDataset.bundledDemo().shifted(toNow: now)
        }
        let token = tokenEnv.flatMap { ProcessInfo.processInfo.environment[$0] }
        var faults = FixtureFaults(
            latency: latencyMs, failureRate: failureRate, failureStatuses: failureStatus, errorBurst: errorBurst, errorBurstStatus: errorBurstStatus,
            tooManyRequestsEvery: tooManyRequestsEvery,
            retryAfterSeconds: retryAfter, dropConnectionRate: dropRate, truncatedJSONRate: truncateRate,
            unauthorizedAfter: unauthorizedAfter,
            offsetDrift: driftBoard.map { FixtureFaults.OffsetDrift(boardId: $0, insert: driftInsert, delete: driftDelete) }, seed: seed)
        faults.retryAfterAsDate = retryAfterDate
        faults.stallFirstAttempts = stallFirst
        faults.stallMilliseconds = stallMs
        faults.dropMidBodyFirstAttempts = dropMidBodyFirst
        faults.wrongShapeBoard = wrongShapeBoard
        faults.missingBoard = missingBoard
        faults.lyingTotalBoard = lyingTotalBoard
        faults.lyingTotalExtra = lyingTotalExtra
        faults.mediaLatency = mediaLatency
        var logger = Logger(label: "boardarchive.fixture-api")
        logger.logLevel = .warning
        let server = try await FixtureServer.start(
            FixtureServerConfiguration(
                host: host, port: port, dataset: dataset, faults: faults, token: token, otherOrigin: mediaOtherOrigin.flatMap(Self.origin)),
            stopsOnSignals: true, logger: logger)
        FileHandle.standardOutput.write(Data("Fixture API listening on \(server.baseURL.absoluteString)\n".utf8))
        try await server.waitUntilStopped()
    }
}
