import ArgumentParser
import BoardArchive
import Foundation

/// The options of `crawl` (and of `export`, which crawls first).
///
/// Every flag is optional: a flag not given leaves the setting to `BOARDARCHIVE_…`, the configuration file or the
/// default (see ``Settings``), which also checks the values.
struct CrawlOptions: ParsableArguments {
    @Option(help: "The board API base URL, e.g. https://mp-dev.mail-server.kr/api/v2 (api.url).")
    var api: String?

    @Option(help: "The environment variable holding the API token. Default: BOARD_API_TOKEN (api.token-env).")
    var tokenEnv: String?

    @Option(help: "A file holding the API token, instead of --token-env (api.token-file).")
    var tokenFile: String?

    @Option(help: "Boards crawled at the same time (requests in flight at most). Default: 4 (crawl.concurrency).")
    var concurrency: Int?

    @Option(help: "Posts requested per page (the API's limit), at least 2. Default: 30 (crawl.page-size).")
    var pageSize: Int?

    @Option(name: .customLong("max-rps"), help: "The most requests started per second. Default: no cap (crawl.max-rps).")
    var maxRequestsPerSecond: Double?

    @Option(help: "Attempts per request on 5xx, timeouts and dropped connections, the first included. Default: 8 (crawl.retries).")
    var retries: Int?

    @Option(help: "Seconds allowed for one request. Default: 30 (crawl.request-timeout).")
    var requestTimeout: Double?

    @Option(
        name: .customLong("board"),
        help: "Crawl only this board (an id; repeatable, added to crawl.boards); the others are left as they are. Default: every board.")
    var boards: [Int] = []

    @Flag(help: "Read every board in full now instead of incrementally from the newest end (nightly.full).")
    var full = false

    @Option(
        help: ArgumentHelp(
            "The share of every board re-read each run to find edits and deletions (1/7, 0.25; 0 turns it off). Default: 1/7 "
                + "(nightly.verify-fraction).", valueName: "F"))
    var verifyFraction: String?

    @Option(help: "Keep the pictures posts show (on) or leave them as their addresses (off). Default: on (media.fetch).")
    var media: String?

    @Option(
        name: .customLong("media-allow-host"),
        help: "A host pictures may come from besides the API's own (host or host:port, or * for any public host; repeatable; media.allow-hosts).")
    var mediaAllowHosts: [String] = []

    @Option(help: "The largest picture kept, in bytes. Default: 10485760 (media.max-image-bytes).")
    var mediaMaxImageBytes: Int?

    @Option(help: "The most pictures kept of one post. Default: 20 (media.max-images-per-post).")
    var mediaMaxImagesPerPost: Int?

    @Option(help: "The most bytes of pictures kept of one post. Default: 41943040 (media.max-post-bytes).")
    var mediaMaxPostBytes: Int?

    /// The settings given as flags, by key.
    var flagSettings: [String: RawSetting] {
        let given: [String: String?] = [
            "media.fetch": media.map { ["on": "true", "off": "false"][$0.lowercased()] ?? $0 },
            "media.max-image-bytes": mediaMaxImageBytes.map(String.init),
            "media.max-images-per-post": mediaMaxImagesPerPost.map(String.init), "media.max-post-bytes": mediaMaxPostBytes.map(String.init),
            "api.url": api, "api.token-env": tokenEnv, "api.token-file": tokenFile, "crawl.concurrency": concurrency.map(String.init),
            "crawl.page-size": pageSize.map(String.init), "crawl.max-rps": maxRequestsPerSecond.map { String($0) },
            "crawl.retries": retries.map(String.init), "crawl.request-timeout": requestTimeout.map { String($0) },
            "nightly.full": full ? "true" : nil, "nightly.verify-fraction": verifyFraction,
        ]
        return given.compactMapValues { $0.map(RawSetting.scalar) }
    }

    /// Reads the token (the token file or the environment variable, whichever is given at the higher level) and builds
    /// the configuration from the resolved settings.
    func makeConfiguration(_ settings: Settings, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> CrawlConfiguration {
        let api = try settings.required("api.url")
        let token: APIToken
        if try settings.winner(of: "api.token-file", or: "api.token-env") == "api.token-file", let tokenFile = settings.string("api.token-file") {
            guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                throw CrawlError(request: "reading the token", reason: .missingToken("cannot read the token file \(tokenFile)"))
            }
            guard let value = APIToken(text) else {
                throw CrawlError(
                    request: "reading the token", reason: .missingToken("the token in \(tokenFile) \(APIToken.problem(with: text) ?? "is unusable")"))
            }
            token = value
        } else {
            let tokenEnv = settings.string("api.token-env") ?? "BOARD_API_TOKEN"
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
        guard let url = URL(string: api) else {
            throw SettingsError(key: "api.url", origin: settings.origin(of: "api.url") ?? .defaultValue, reason: .missing)
        }
        let timeout = settings.double("crawl.request-timeout") ?? 30
        var only = Set(boards)
        for text in settings.strings("crawl.boards") ?? [] {
            guard let id = Int(text.trimmingCharacters(in: .whitespaces)), id > 0 else {
                throw SettingsError(
                    key: "crawl.boards", origin: settings.origin(of: "crawl.boards") ?? .defaultValue,
                    reason: .invalidValue(expected: "board ids (whole numbers above 0)", shown: text))
            }
            only.insert(id)
        }
        if boards.contains(where: { $0 <= 0 }) { throw ValidationError("--board takes a board id, a whole number above 0.") }
        var configuration = CrawlConfiguration(
            api: url, token: token, pageSize: settings.int("crawl.page-size") ?? 30, concurrency: settings.int("crawl.concurrency") ?? 4,
            maxRequestsPerSecond: settings.double("crawl.max-rps"),
            retryPolicy: RetryPolicy(maxAttempts: settings.int("crawl.retries") ?? 8, requestTimeout: .milliseconds(Int64(timeout * 1_000))),
            readsEverything: settings.bool("nightly.full") ?? false, verifyFraction: settings.double("nightly.verify-fraction") ?? 1.0 / 7)
        configuration.onlyBoards = only.isEmpty ? nil : only
        configuration.media = MediaConfiguration(
            enabled: settings.bool("media.fetch") ?? true, allowedHosts: (settings.strings("media.allow-hosts") ?? []) + mediaAllowHosts,
            maxImageBytes: settings.int("media.max-image-bytes") ?? 10 << 20, maxImagesPerPost: settings.int("media.max-images-per-post") ?? 20,
            maxPostBytes: settings.int("media.max-post-bytes") ?? 40 << 20)
        return configuration
    }
}

/// Where the archive store lives.
struct StoreOptions: ParsableArguments {
    @Option(help: "The archive store: a SQLite file, or postgres://USER@HOST:PORT/DB. Default: archive.sqlite (store).")
    var store: String?

    /// The settings given as flags, by key.
    var flagSettings: [String: RawSetting] { store.map { ["store": .scalar($0)] } ?? [:] }

    /// Opens the store the settings name for crawling or changing it, SQLite or PostgreSQL: created when missing only if
    /// `creating` and `store.create` allow it (`redact` never creates a store). A PostgreSQL store opened for a crawl
    /// (`reconnecting`) rides out a server restart of up to a minute (see ``PostgresArchive/reconnecting(_:)``).
    static func open(_ settings: Settings, creating: Bool = true, reconnecting: Bool = true) throws -> any ArchiveDatabase & ArchiveSource {
        let create = creating && (settings.bool("store.create") ?? true)
        switch try StoreLocation(parsing: try settings.required("store")) {
        case .sqliteFile(let path):
            return try ArchiveStore(path: path, creating: create)
        case .postgres(let url):
            let password = try StorePassword.resolve(for: url, settings: settings, environment: ProcessInfo.processInfo.environment)
            return try PostgresArchive.open(
                PostgresConnector(url: url, password: password), creating: create, reconnectWindow: reconnecting ? .seconds(60) : .zero)
        }
    }

    /// Opens the SQLite store the settings name, for what only a SQLite file has (`store backup`); a PostgreSQL store
    /// is refused with ``StoreError/Reason/unsupportedBackend(_:)``.
    static func openSQLite(_ settings: Settings) throws -> ArchiveStore {
        try ArchiveStore(path: try StoreLocation(parsing: try settings.required("store")).sqlitePath(), creating: false)
    }
}

/// Where a PostgreSQL store's password comes from (never the URL or a flag's value).
struct StorePasswordOptions: ParsableArguments {
    @Option(help: "The environment variable holding a PostgreSQL store's password. Default: PGPASSWORD, else ~/.pgpass (store.password-env).")
    var storePasswordEnv: String?

    @Option(help: "A file holding a PostgreSQL store's password, instead of --store-password-env (store.password-file).")
    var storePasswordFile: String?

    /// The settings given as flags, by key.
    var flagSettings: [String: RawSetting] {
        let given = ["store.password-env": storePasswordEnv, "store.password-file": storePasswordFile]
        return given.compactMapValues { $0.map(RawSetting.scalar) }
    }
}

/// Whether a crawl may start a new archive when its store is missing.
struct StoreCreationOptions: ParsableArguments {
    @Flag(
        inversion: .prefixedNo,
        help: "Create the store when it is missing (the default); --no-create-store refuses a missing or empty store with exit 73 (store.create).")
    var createStore: Bool?

    /// The settings given as flags, by key.
    var flagSettings: [String: RawSetting] { createStore.map { ["store.create": .scalar($0 ? "true" : "false")] } ?? [:] }
}

/// How much the command logs, and how.
struct LogOptions: ParsableArguments {
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical. Default: notice (log.level).")
    var logLevel: String?

    @Flag(help: "Log JSON lines instead of plain text, for CI (log.json).")
    var jsonLogs = false

    /// The settings given as flags, by key.
    var flagSettings: [String: RawSetting] {
        let given: [String: String?] = [
            "log.level": logLevel, "log.json": jsonLogs ? "true" : nil,
        ]
        return given.compactMapValues { $0.map(RawSetting.scalar) }
    }
}
