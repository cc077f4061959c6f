import ArgumentParser
import BoardArchive
import Foundation

/// `boardarchive export`: crawl, then build.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Crawl the board API into the store, then build the site.",
        discussion: "Takes every option of crawl and build. A failed crawl builds nothing; a failed build leaves the previous site "
            + "untouched.\n\n" + ExitCodes.helpText)

    @OptionGroup var config: ConfigOptions
    @OptionGroup var crawl: CrawlOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var password: StorePasswordOptions
    @OptionGroup var creation: StoreCreationOptions
    @OptionGroup var build: BuildOptions
    @OptionGroup var log: LogOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        do {
            let settings = try config.resolve(
                crawl.flagSettings, store.flagSettings, creation.flagSettings, password.flagSettings, build.flagSettings, output.flagSettings,
                log.flagSettings)
            let out = output.makeOutput(settings)
            let logger = LogOptions.makeLogger(settings, output: out)
            let buildConfiguration = try build.makeConfiguration(settings)
            let crawlConfiguration = try crawl.makeConfiguration(settings)
            try SiteBuilder.checkOutput(of: buildConfiguration)
            let archive = try StoreOptions.open(settings)
            let crawled = try await CrawlCommand.crawl(crawlConfiguration, store: archive, logger: logger, output: out)
            CrawlCommand.printSummary(of: crawled, output: out)
            let report = try await SitePublishing.build(buildConfiguration, store: archive, logger: logger, output: out)
            out.say(SitePublishing.describe(report, configuration: buildConfiguration))
            try CrawlCommand.refuseMismatches(in: crawled)
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch {
            throw exitWithError(error)
        }
    }
}
