import ArgumentParser
import BoardArchive
import FixtureAPI
import Foundation

/// `boardarchive demo`: the fixture API in-process with the bundled dataset, exported over real HTTP into `site/`.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Export the bundled Korean demo board (served in-process on 127.0.0.1) into a static site.",
        discussion: "Starts the fixture API on a free port of 127.0.0.1 with the bundled dataset (dates shifted so its newest posts "
            + "are from today), crawls it over HTTP into a fresh store, builds the site and prints its file:// address.\n\n"
            + ExitCodes.helpText)

    @OptionGroup var config: ConfigOptions

    @Option(help: "The output folder. Default: site (build.out).")
    var out: String?

    @Option(help: "The archive's time zone (IANA name). Default: the machine's (build.timezone).")
    var timezone: String?

    @Option(help: "Interface language: ko or en. Default: ko (build.lang).")
    var lang: String?

    @Option(
        help: ArgumentHelp(
            "Where to keep the demo's archive store. Default: the store setting when BOARDARCHIVE_STORE or boardarchive.yaml gives one, "
                + "else a temporary file removed afterwards (store)."))
    var store: String?

    @OptionGroup var creation: StoreCreationOptions

    @OptionGroup var log: LogOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let now = Date()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("boardarchive-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let build = try BuildOptions.parse([])
            let given: [String: String?] = ["build.out": out, "build.timezone": timezone, "build.lang": lang]
            let storeFlag = store.map { ["store": RawSetting.scalar($0)] } ?? [:]
            let settings = try config.resolve(
                given.compactMapValues { $0.map(RawSetting.scalar) }, storeFlag, creation.flagSettings, output.flagSettings, log.flagSettings)
            let out = output.makeOutput(settings)
            let logger = LogOptions.makeLogger(settings, output: out)
            var buildConfiguration = try build.makeConfiguration(settings, environment: [:])
            buildConfiguration.now = now
            try SiteBuilder.checkOutput(of: buildConfiguration)
            // The store setting when a flag, a variable or the file gives one; the default (archive.sqlite) is not the demo's.
            let archive =
                settings.origin(of: "store") == .defaultValue
                ? try ArchiveStore(path: folder.appendingPathComponent("archive.sqlite").path) : try Self.demoStore(settings)
            let token = UUID().uuidString
            let server = try await FixtureServer.start(
                FixtureServerConfiguration(dataset: try FixtureDataset.bundledDemo().shifted(toNow: now), token: token))
            let crawled: CrawlReport
            do {
                guard let apiToken = APIToken(token) else { throw ValidationError("internal: empty demo token") }
                crawled = try await CrawlCommand.crawl(
                    CrawlConfiguration(api: server.baseURL, token: apiToken), store: archive, logger: logger, output: out)
                await server.stop()
            } catch {
                await server.stop()
                throw error
            }
            out.say("Crawled \(crawled.summary) from the demo API at \(server.baseURL.absoluteString).")
            let report = try await SitePublishing.build(buildConfiguration, store: archive, logger: logger, output: out)
            out.say(SitePublishing.describe(report, configuration: buildConfiguration))
        } catch let error as ValidationError {
            throw error
        } catch {
            throw exitWithError(error)
        }
    }

    /// The store the settings name, refused when it already holds an archive crawled from anything but a demo (a
    /// loopback address): the demo's boards would mark a real archive's boards gone.
    static func demoStore(_ settings: Settings) throws -> any ArchiveDatabase & ArchiveSource {
        let archive = try StoreOptions.open(settings)
        if let source = try archive.crawledSources().first(where: { !isLoopback($0) }) {
            throw StoreError(location: archive.location, reason: .notADemoArchive(source: source))
        }
        return archive
    }

    /// Whether an API address names this machine (the only place a demo API runs).
    static func isLoopback(_ address: String) -> Bool {
        guard let host = URL(string: address)?.host?.lowercased() else { return false }
        return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}
