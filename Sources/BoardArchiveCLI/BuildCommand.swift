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
    @OptionGroup var log: LogOptions

    func run() async throws {
        do {
            guard FileManager.default.fileExists(atPath: store.store) else {
                throw StoreError(location: store.store, reason: .cannotOpen("no such file; run boardarchive crawl first or pass --store"))
            }
            let configuration = try build.makeConfiguration()
            let report = try await SitePublishing.build(configuration, store: try ArchiveStore(path: store.store), logger: log.makeLogger())
            print(SitePublishing.describe(report, configuration: configuration))
        } catch let error as ValidationError {
            throw error
        } catch {
            throw exitWithError(error)
        }
    }
}
