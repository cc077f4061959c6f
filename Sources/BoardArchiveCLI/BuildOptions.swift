import ArgumentParser
import BoardArchive
import Foundation
import Logging

/// The options of `build` (and of `export` and `demo`, which build last).
///
/// Every setting resolves in one place, ``Settings``: a flag given on the command line, else a `BOARDARCHIVE_…`
/// variable, else the configuration file, else the default.
struct BuildOptions: ParsableArguments {
    @Option(help: "The output folder. Default: site (build.out).")
    var out: String?

    @Option(help: "The build's state folder (not published). Default: <out>.boardarchive-state beside the output folder (build.state).")
    var state: String?

    @Option(help: "A templates folder to use instead of ./templates (copy ./templates to start) (build.templates).")
    var templates: String?

    @Option(help: "The build's clock, ISO 8601 (e.g. 2026-11-22T09:00:00+09:00). Else SOURCE_DATE_EPOCH, else the system clock.")
    var now: String?

    @Option(help: "The archive's time zone (IANA name, e.g. Asia/Seoul); \"today\" is a day in it. Default: the machine's (build.timezone).")
    var timezone: String?

    @Option(help: "Interface language: ko or en. Default: ko (build.lang).")
    var lang: String?

    @Flag(help: "Replace a non-empty output folder that boardarchive did not create.")
    var force = false

    @Flag(help: "Publish even when the new site keeps fewer than half of the previous site's post pages.")
    var allowShrink = false

    @Option(name: .customLong("keyword"), help: "A keyword to pre-render as a result page (repeatable; added to build.keywords).")
    var keywords: [String] = []

    @Option(help: "How many of the archive's most frequent terms get pre-rendered result pages. Default: 20 (build.top-keywords).")
    var topKeywords: Int?

    @Option(
        help: ArgumentHelp(
            "The largest share of the posts a top keyword may be found in; more common terms are passed over for the next "
                + "(archives keep terms of up to 300 posts; 1 turns it off). Default: 0.1 (build.top-keywords-max-share).", valueName: "F"))
    var topKeywordsMaxShare: String?

    @Option(
        help:
            "Where the site will be published (https://example.org/archive/): adds sitemap.xml and robots.txt, absolute feed links (build.base-url).")
    var baseUrl: String?

    @Flag(help: "Ask search engines not to index any page: a robots noindex tag on every page, no sitemap (build.noindex).")
    var noindex = false

    @Option(
        help: ArgumentHelp(
            "Posts the source deleted: marked (\"deleted at the source, last seen on …\" on their page and in their board's listing), "
                + "unmarked, or left-out (out of the site; their addresses say the source deleted them). The store keeps them "
                + "either way. Default: marked (build.deleted-posts).", valueName: "policy"))
    var deletedPosts: String?

    /// The settings given as flags, by key (`--keyword` is not one: it adds to `build.keywords`).
    var flagSettings: [String: RawSetting] {
        let given: [String: String?] = [
            "build.out": out, "build.state": state, "build.templates": templates, "build.timezone": timezone, "build.lang": lang,
            "build.top-keywords": topKeywords.map(String.init), "build.top-keywords-max-share": topKeywordsMaxShare, "build.base-url": baseUrl,
            "build.noindex": noindex ? "true" : nil, "build.deleted-posts": deletedPosts,
        ]
        return given.compactMapValues { $0.map(RawSetting.scalar) }
    }

    func validate() throws {
        if let now, Self.parseInstant(now) == nil {
            throw ValidationError("--now must be an ISO 8601 date-time such as 2026-11-22T09:00:00Z, not \"\(now)\".")
        }
        if keywords.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) { throw ValidationError("--keyword must not be empty.") }
    }

    /// Resolves the clock (flag > SOURCE_DATE_EPOCH > system clock) and the settings into the library's configuration.
    func makeConfiguration(_ settings: Settings, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> BuildConfiguration {
        let instant: Date
        if let now, let parsed = Self.parseInstant(now) {
            instant = parsed
        } else if let epoch = environment["SOURCE_DATE_EPOCH"], !epoch.isEmpty {
            guard let seconds = Int64(epoch) else {
                throw ValidationError("SOURCE_DATE_EPOCH must be whole seconds since 1970, not \"\(epoch)\".")
            }
            instant = Date(timeIntervalSince1970: TimeInterval(seconds))
        } else {
            instant = Date()
        }
        var configuration = BuildConfiguration(
            outputDirectory: URL(fileURLWithPath: settings.string("build.out") ?? "site", isDirectory: true),
            templatesDirectory: settings.string("build.templates").map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? Self.defaultTemplatesDirectory(),
            now: instant, timeZone: settings.string("build.timezone").flatMap(TimeZone.init(identifier:)) ?? .current,
            language: settings.string("build.lang").flatMap(SiteLanguage.init(rawValue:)) ?? .ko, force: force,
            keywords: (settings.strings("build.keywords") ?? []) + keywords, topKeywords: settings.int("build.top-keywords") ?? 20)
        configuration.stateDirectory = settings.string("build.state").map { URL(fileURLWithPath: $0, isDirectory: true) }
        configuration.allowShrink = allowShrink
        configuration.topKeywordsMaxShare = settings.double("build.top-keywords-max-share") ?? 0.1
        configuration.baseURL = try Self.parseBaseURL(settings.string("build.base-url"))
        configuration.noindex = settings.bool("build.noindex") ?? false
        configuration.deletedPosts = settings.string("build.deleted-posts").flatMap(DeletedPosts.init(rawValue:)) ?? .marked
        return configuration
    }

    /// The base URL (`--base-url`, `build.base-url`) as an absolute http(s) address ending in `/`, or nil when not given.
    static func parseBaseURL(_ text: String?) throws -> URL? {
        guard let text else { return nil }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
            components.host?.isEmpty == false, components.query == nil, components.fragment == nil
        else {
            throw ValidationError(
                "--base-url (build.base-url) must be an absolute http or https address without query or fragment, "
                    + "such as https://example.org/archive/, not \"\(text)\".")
        }
        return URL(string: text.hasSuffix("/") ? text : text + "/")
    }

    /// `./templates` when it exists, else the `templates` folder of the checkout the executable was built in
    /// (found by walking up from `.build/<config>/boardarchive`), else nil (the library then reports `./templates`).
    static func defaultTemplatesDirectory() -> URL? {
        let fileManager = FileManager.default
        let local = URL(fileURLWithPath: fileManager.currentDirectoryPath, isDirectory: true).appendingPathComponent("templates")
        if fileManager.fileExists(atPath: local.appendingPathComponent("layout.mustache").path) { return local }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = folder.appendingPathComponent("templates", isDirectory: true)
            if fileManager.fileExists(atPath: candidate.appendingPathComponent("layout.mustache").path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    static func parseInstant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}

/// Builds the site from a store and prints where it is.
enum SitePublishing {
    /// Builds with a progress display of `output` drawn while it runs.
    static func build(
        _ configuration: BuildConfiguration, store: any ArchiveSource, logger: Logging.Logger, output: CommandOutput = CommandOutput()
    ) async throws -> BuildReport {
        let meter = ProgressMeter(boardFinished: TestPauseHook.observer(ProcessInfo.processInfo.environment))
        let display = output.progress("build", meter)
        defer { display.finish() }
        return try await SiteBuilder(configuration: configuration, store: store, logger: logger, progress: meter).build()
    }

    /// `file:///…/site/index.html`, the address to open in a browser.
    static func indexURL(of configuration: BuildConfiguration) -> String {
        configuration.outputDirectory.standardizedFileURL.appendingPathComponent("index.html").absoluteString
    }

    static func describe(_ report: BuildReport, configuration: BuildConfiguration) -> String {
        "Built \(report.total) files (\(report.rendered) rendered, \(report.written) written, \(report.unchanged) unchanged, \(report.removed) removed; "
            + "\(report.redacted) redacted posts) into "
            + "\(configuration.outputDirectory.path).\nOpen \(indexURL(of: configuration))"
    }
}
