import ArgumentParser
import BoardArchive
import Foundation

/// `boardarchive build`: render the archive store into a static site.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build", abstract: "Render the archive store into a static site (reads only the store).",
        discussion: "A failed build leaves the previous site untouched.\n\n" + ExitCodes.helpText)

    @OptionGroup var store: StoreOptions
    @OptionGroup var build: BuildOptions
    @OptionGroup var pseudonyms: PseudonymOptions
    @OptionGroup var log: LogOptions

    func run() async throws {
        do {
            var configuration = try build.makeConfiguration()
            configuration.pseudonymKey = try pseudonyms.key()
            let archive = try ArchiveStore(readingOnly: store.store)
            let report = try await SitePublishing.build(configuration, store: archive, logger: log.makeLogger())
            print(SitePublishing.describe(report, configuration: configuration))
        } catch let error as ValidationError {
            throw error
        } catch {
            throw exitWithError(error)
        }
    }
}
