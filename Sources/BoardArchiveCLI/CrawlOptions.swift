import ArgumentParser
import BoardArchive
import Foundation
import Logging

/// The options of `crawl` (and of `export`, which crawls first).
struct CrawlOptions: ParsableArguments {
    @Option(help: "The board API base URL, e.g. https://mp-dev.mail-server.kr/api/v2.")
    var api: String

    @Option(help: "The environment variable holding the API token.")
    var tokenEnv: String = "BOARD_API_TOKEN"

    @Option(help: "A file holding the API token (instead of --token-env).")
    var tokenFile: String?

    @Option(help: "Boards crawled at the same time (requests in flight at most).")
    var concurrency: Int = 4

    @Option(help: "Posts requested per page (the API's limit), at least 2.")
    var pageSize: Int = 30

    @Option(name: .customLong("max-rps"), help: "The most requests started per second (default: no cap).")
    var maxRequestsPerSecond: Double?

    @Option(help: "Attempts per request on 5xx, timeouts and dropped connections, the first included.")
    var retries: Int = 8

    @Option(help: "Seconds allowed for one request.")
    var requestTimeout: Double = 30

    @Flag(help: "Read every board in full now instead of incrementally from the newest end.")
    var full = false

    @Option(
        help: ArgumentHelp(
            "The share of every board re-read each run to find edits and deletions (a fraction such as 1/7, or 0.25; 0 turns it off).",
            valueName: "F"))
    var verifyFraction: String = "1/7"

    /// `--verify-fraction` as a number: `a/b` or a decimal, 0…1; nil when it is neither.
    var verifyFractionValue: Double? {
        let parts = verifyFraction.split(separator: "/", omittingEmptySubsequences: false)
        let value: Double?
        if parts.count == 2, let top = Double(parts[0]), let bottom = Double(parts[1]), bottom > 0 {
            value = top / bottom
        } else {
            value = Double(verifyFraction)
        }
        return value.flatMap { (0...1).contains($0) ? $0 : nil }
    }

    func validate() throws {
        if tokenFile != nil, tokenEnv != "BOARD_API_TOKEN" {
            throw ValidationError("Pass either --token-env or --token-file, not both.")
        }
        guard let url = URL(string: api), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("--api must be an http(s) URL such as https://mp-dev.mail-server.kr/api/v2, not \"\(api)\".")
        }
        guard URLComponents(string: api)?.user == nil else {
            throw ValidationError("--api must not carry credentials; pass the token with --token-env or --token-file.")
        }
        guard concurrency >= 1, concurrency <= 64 else { throw ValidationError("--concurrency must be between 1 and 64, not \(concurrency).") }
        guard pageSize >= 2, pageSize <= 1_000 else {
            throw ValidationError("--page-size must be between 2 and 1000 (pages overlap by one post), not \(pageSize).")
        }
        guard retries >= 1, retries <= 100 else { throw ValidationError("--retries must be between 1 and 100, not \(retries).") }
        guard requestTimeout >= 0.1, requestTimeout <= 3_600 else {
            throw ValidationError("--request-timeout must be between 0.1 and 3600 seconds, not \(requestTimeout).")
        }
        guard verifyFractionValue != nil else {
            throw ValidationError("--verify-fraction must be a fraction from 0 to 1 such as 1/7 or 0.25, not \"\(verifyFraction)\".")
        }
        if let rate = maxRequestsPerSecond, !(rate >= 0.01 && rate <= 10_000) {
            throw ValidationError("--max-rps must be between 0.01 and 10000, not \(rate).")
        }
    }

    /// Reads the token (file first when given, else the environment variable) and builds the configuration.
    func makeConfiguration(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> CrawlConfiguration {
        let token: APIToken
        if let tokenFile {
            guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                throw CrawlError(request: "reading the token", reason: .missingToken("cannot read the token file \(tokenFile)"))
            }
            guard let value = APIToken(text) else {
                throw CrawlError(
                    request: "reading the token", reason: .missingToken("the token in \(tokenFile) \(APIToken.problem(with: text) ?? "is unusable")"))
            }
            token = value
        } else {
            guard let text = environment[tokenEnv], !text.isEmpty else {
                throw CrawlError(
                    request: "reading the token",
                    reason: .missingToken("the environment variable \(tokenEnv) is unset or empty; export it or use --token-file"))
            }
            guard let value = APIToken(text) else {
                throw CrawlError(
                    request: "reading the token", reason: .missingToken("the token in \(tokenEnv) \(APIToken.problem(with: text) ?? "is unusable")"))
            }
            token = value
        }
        guard let url = URL(string: api) else { throw ValidationError("--api is not a URL.") }
        return CrawlConfiguration(
            api: url, token: token, pageSize: pageSize, concurrency: concurrency, maxRequestsPerSecond: maxRequestsPerSecond,
            retryPolicy: RetryPolicy(maxAttempts: retries, requestTimeout: .milliseconds(Int64(requestTimeout * 1_000))), readsEverything: full,
            verifyFraction: verifyFractionValue ?? 1.0 / 7)
    }
}

/// Where the archive store lives.
struct StoreOptions: ParsableArguments {
    @Option(help: "The archive store (SQLite file).")
    var store: String = "archive.sqlite"
}

/// How much the command logs, and how.
struct LogOptions: ParsableArguments {
    @Option(help: "Log level: trace, debug, info, notice, warning, error.")
    var logLevel: String = "notice"

    @Flag(help: "Log JSON lines instead of plain text (for CI).")
    var jsonLogs = false

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical, not \"\(logLevel)\".")
        }
    }
}
