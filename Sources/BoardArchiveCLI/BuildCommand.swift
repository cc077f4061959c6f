import ArgumentParser
import BoardArchive
import Foundation

/// `boardarchive build`: render the archive store into a static site.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build", abstract: "Render the archive store into a static site (reads only the store).",
        discussion: "A failed build leaves the previous site untouched.\n\n" + ExitCodes.helpText)

    @OptionGroup var config: ConfigOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var password: StorePasswordOptions
    @OptionGroup var build: BuildOptions
    @OptionGroup var pseudonyms: PseudonymOptions
    @OptionGroup var log: LogOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        do {
            let settings = try config.resolve(store.flagSettings, password.flagSettings, build.flagSettings, output.flagSettings, log.flagSettings)
            let out = output.makeOutput(settings)
            var configuration = try build.makeConfiguration(settings)
            configuration.pseudonymKey = try pseudonyms.key()
            let archive: any ArchiveSource
            var postgres: PostgresArchive?
            switch try StoreLocation(parsing: try settings.required("store")) {
            case .sqliteFile(let path): archive = try ArchiveStore(readingOnly: path)
            case .postgres(let url):
                // Read only: never created or migrated by a build, as with SQLite.
                let password = try StorePassword.resolve(for: url, settings: settings, environment: ProcessInfo.processInfo.environment)
                let opened = try PostgresArchive.open(PostgresConnector(url: url, password: password), creating: false, migrating: false)
                postgres = opened
                archive = opened
            }
            defer { postgres?.close() }
            let report = try await SitePublishing.build(
                configuration, store: archive, logger: LogOptions.makeLogger(settings, output: out), output: out)
            out.say(SitePublishing.describe(report, configuration: configuration))
        } catch let error as ValidationError {
            throw error
        } catch {
            throw exitWithError(error)
        }
    }
}
