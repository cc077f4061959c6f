import ArgumentParser
import BoardArchive
import Foundation

/// `boardarchive export`: crawl, then build.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Crawl the board API into the store, then build the site.",
        discussion: "Takes every option of crawl and build. A failed crawl builds nothing; a failed build leaves the previous site "
            + "untouched.\n\n" + ExitCodes.helpText)

    @OptionGroup var crawl: CrawlOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var build: BuildOptions
    @OptionGroup var log: LogOptions

    func run() async throws {
        let logger = log.makeLogger()
        do {
            let buildConfiguration = try build.makeConfiguration()
            try SiteBuilder.checkOutput(of: buildConfiguration)
            let archive = try ArchiveStore(path: store.store)
            let crawled = try await CrawlCommand.crawl(crawl.makeConfiguration(), store: archive, logger: logger)
            CrawlCommand.printSummary(of: crawled, json: log.jsonLogs)
            let report = try await SitePublishing.build(buildConfiguration, store: archive, logger: logger)
            print(SitePublishing.describe(report, configuration: buildConfiguration))
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
