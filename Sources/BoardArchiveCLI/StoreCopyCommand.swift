import ArgumentParser
import BoardArchive
import Foundation

/// `boardarchive store copy --from STORE --to STORE`: moves an archive between a SQLite file and a PostgreSQL database.
struct StoreCopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy", abstract: "Copy an archive between stores (a SQLite file, a postgres:// database), then compare them row by row.",
        discussion: "The source is read from one snapshot (a crawl may keep writing to it) and never changed; the target is created when "
            + "missing and must hold no archive rows unless --resume continues a copy that was interrupted. Every row of every table is "
            + "then compared; any difference is an error (exit 73) naming the first one. A PostgreSQL side takes its password from "
            + "store.password-file, store.password-env (default PGPASSWORD) or ~/.pgpass.\n\n" + ExitCodes.helpText)

    @OptionGroup var config: ConfigOptions
    @OptionGroup var password: StorePasswordOptions

    @Option(help: "The store to copy from: a SQLite file or postgres://USER@HOST:PORT/DB.")
    var from: String

    @Option(help: "The store to copy into: a SQLite file or postgres://USER@HOST:PORT/DB (created when missing).")
    var to: String

    @Flag(help: "Go on with an interrupted copy: keep the target's rows and copy what follows them.")
    var resume = false

    func run() async throws {
        do {
            let settings = try config.resolve(password.flagSettings)
            let environment = ProcessInfo.processInfo.environment
            let source = try Self.open(from, creating: false, settings: settings, environment: environment)
            let target = try Self.open(to, creating: true, settings: settings, environment: environment)
            defer { for side in [source, target] { if case .postgres(let archive) = side { archive.close() } } }
            let report = try ArchiveCopy.run(from: source, to: target, resume: resume)
            let rows = report.verified.values.reduce(0, +)
            let posts = report.postsByBoard.values.reduce(0, +)
            print(
                "Copied \(StoreLocation.withoutPassword(from)) to \(StoreLocation.withoutPassword(to))\(report.resumed ? " (resumed)" : ""): "
                    + "\(report.verified["board"] ?? 0) boards, \(posts) posts in \(report.postsByBoard.count) boards; every row of "
                    + "\(report.verified.count) tables (\(rows) rows) compared equal.")
        } catch {
            throw exitWithError(error)
        }
    }

    /// Opens one side: a SQLite source read-only, a target created when missing.
    static func open(_ text: String, creating: Bool, settings: Settings, environment: [String: String]) throws -> ArchiveCopy.Store {
        switch try StoreLocation(parsing: text) {
        case .sqliteFile(let path):
            return .sqlite(creating ? try ArchiveStore(path: path, creating: true) : try ArchiveStore(readingOnly: path))
        case .postgres(let url):
            let password = try StorePassword.resolve(for: url, settings: settings, environment: environment)
            let connector = PostgresConnector(url: url, password: password)
            return .postgres(try PostgresArchive.open(connector, creating: creating, migrating: creating))
        }
    }
}
