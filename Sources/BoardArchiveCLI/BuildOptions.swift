import ArgumentParser
import BoardArchive
import Foundation
import Logging

/// The options of `build` (and of `export` and `demo`, which build last).
///
/// Every setting resolves in one place, ``resolved()``: a flag given on the command line, else the `--config`
/// file, else the default.
struct BuildOptions: ParsableArguments {
    @Option(help: "A JSON file of build settings (out, templates, timezone, lang, keywords, topKeywords); flags win over it.")
    var config: String?

    @Option(help: "The output folder. Default: site.")
    var out: String?

    @Option(help: "A templates folder to use instead of ./templates (copy ./templates to start).")
    var templates: String?

    @Option(help: "The build's clock, ISO 8601 (e.g. 2026-11-22T09:00:00+09:00). Else SOURCE_DATE_EPOCH, else the system clock.")
    var now: String?

    @Option(help: "The archive's time zone (IANA name, e.g. Asia/Seoul); \"today\" is a day in it. Default: the machine's.")
    var timezone: String?

    @Option(help: "Interface language: ko or en. Default: ko.")
    var lang: String?

    @Flag(help: "Replace a non-empty output folder that boardarchive did not create.")
    var force = false

    @Flag(help: "Publish even when the new site keeps fewer than half of the previous site's post pages.")
    var allowShrink = false

    @Option(name: .customLong("keyword"), help: "A keyword to pre-render as a result page (repeatable; added to the config file's).")
    var keywords: [String] = []

    @Option(help: "How many of the archive's most frequent terms get pre-rendered result pages. Default: 20.")
    var topKeywords: Int?

    @Option(help: "Where the site will be published (https://example.org/archive/): adds sitemap.xml and robots.txt, absolute feed links.")
    var baseUrl: String?

    @Flag(help: "Ask search engines not to index any page (a robots noindex tag on every page, no sitemap).")
    var noindex = false

    /// The settings after flags, the config file and defaults are merged and checked.
    struct Resolved: Equatable {
        var out: String
        var templates: String?
        var timezone: String?
        var lang: String
        var keywords: [String]
        var topKeywords: Int
    }

    func validate() throws {
        if let now, Self.parseInstant(now) == nil {
            throw ValidationError("--now must be an ISO 8601 date-time such as 2026-11-22T09:00:00Z, not \"\(now)\".")
        }
        _ = try resolved()
        _ = try Self.parseBaseURL(baseUrl)
    }

    /// `--base-url` as an absolute http(s) URL ending in `/`, or nil when not given.
    static func parseBaseURL(_ text: String?) throws -> URL? {
        guard let text else { return nil }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
            components.host?.isEmpty == false, components.query == nil, components.fragment == nil
        else {
            throw ValidationError(
                "--base-url must be an absolute http or https address without query or fragment, such as https://example.org/archive/, not \"\(text)\"."
            )
        }
        return URL(string: text.hasSuffix("/") ? text : text + "/")
    }

    /// Flag, else config file, else default, for every setting; throws a usage error naming the bad value.
    func resolved() throws -> Resolved {
        let file = try config.map(BuildConfigFile.load) ?? BuildConfigFile()
        let settings = Resolved(
            out: out ?? file.out ?? "site", templates: templates ?? file.templates, timezone: timezone ?? file.timezone,
            lang: lang ?? file.lang ?? "ko", keywords: (file.keywords ?? []) + keywords, topKeywords: topKeywords ?? file.topKeywords ?? 20)
        /// `--flag` when the value came from the command line, else the file's key and the file.
        func source(_ flag: String, key: String, fromFlag: Bool) -> String {
            guard !fromFlag, let config else { return "--" + flag }
            return "\"\(key)\" in \(config)"
        }
        try Self.validate(
            timezone: settings.timezone, lang: settings.lang, timezoneSource: source("timezone", key: "timezone", fromFlag: timezone != nil),
            langSource: source("lang", key: "lang", fromFlag: lang != nil))
        guard settings.topKeywords >= 0, settings.topKeywords <= 10_000 else {
            let name = source("top-keywords", key: "topKeywords", fromFlag: topKeywords != nil)
            throw ValidationError("\(name) must be between 0 and 10000, not \(settings.topKeywords).")
        }
        if keywords.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) { throw ValidationError("--keyword must not be empty.") }
        if settings.keywords.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw ValidationError("\(source("keyword", key: "keywords", fromFlag: false)) must not hold an empty keyword.")
        }
        return settings
    }

    /// Checks `--timezone` and `--lang`, which `demo` takes too; the sources name where each value came from.
    static func validate(timezone: String?, lang: String, timezoneSource: String = "--timezone", langSource: String = "--lang") throws {
        if let timezone, TimeZone(identifier: timezone) == nil {
            throw ValidationError("\(timezoneSource) must be an IANA time zone such as Asia/Seoul, not \"\(timezone)\".")
        }
        guard SiteLanguage(rawValue: lang) != nil else { throw ValidationError("\(langSource) must be ko or en, not \"\(lang)\".") }
    }

    /// Resolves the clock (flag > SOURCE_DATE_EPOCH > system clock) and the rest into the library's configuration.
    func makeConfiguration(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> BuildConfiguration {
        let settings = try resolved()
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
            outputDirectory: URL(fileURLWithPath: settings.out, isDirectory: true),
            templatesDirectory: settings.templates.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? Self.defaultTemplatesDirectory(),
            now: instant, timeZone: settings.timezone.flatMap(TimeZone.init(identifier:)) ?? .current,
            language: SiteLanguage(rawValue: settings.lang) ?? .ko, force: force, keywords: settings.keywords, topKeywords: settings.topKeywords)
        configuration.allowShrink = allowShrink
        configuration.baseURL = try Self.parseBaseURL(baseUrl)
        configuration.noindex = noindex
        return configuration
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
    static func build(_ configuration: BuildConfiguration, store: ArchiveStore, logger: Logging.Logger) async throws -> BuildReport {
        try await SiteBuilder(configuration: configuration, store: store, logger: logger).build()
    }

    /// `file:///…/site/index.html`, the address to open in a browser.
    static func indexURL(of configuration: BuildConfiguration) -> String {
        configuration.outputDirectory.standardizedFileURL.appendingPathComponent("index.html").absoluteString
    }

    static func describe(_ report: BuildReport, configuration: BuildConfiguration) -> String {
        "Built \(report.total) files (\(report.rendered) rendered, \(report.written) written, \(report.unchanged) unchanged, \(report.removed) removed; \(report.redacted) redacted posts) into "
            + "\(configuration.outputDirectory.path).\nOpen \(indexURL(of: configuration))"
    }
}
