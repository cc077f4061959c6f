import ArgumentParser
import BoardArchive
import Foundation

/// `boardarchive store`: look after the archive store itself.
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store", abstract: "Look after the archive store (check, backup, copy).",
        subcommands: [StoreCheckCommand.self, StoreBackupCommand.self, StoreCopyCommand.self])
}

/// `boardarchive store backup --to FILE`: a consistent, checked copy of the store, taken while crawls may run.
struct StoreBackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "Write a consistent, checked copy of the archive store (SQLite's online backup).",
        discussion: "The copy is one snapshot of the store, taken while a crawl may be writing; it must pass SQLite's integrity_check "
            + "before it replaces FILE, so a failed backup never overwrites a good one. Restore by copying FILE to the store's path.\n\n"
            + ExitCodes.helpText)

    @OptionGroup var config: ConfigOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var password: StorePasswordOptions

    @Option(help: "Where to write the copy (replaced only once the new copy is checked).")
    var to: String

    func run() async throws {
        do {
            let archive = try StoreOptions.openSQLite(try config.resolve(store.flagSettings, password.flagSettings))
            let backup = try archive.backup(to: to)
            print("Backed up \(archive.location) to \(backup.path): \(backup.posts) posts, \(backup.bytes) bytes, integrity_check ok.")
        } catch {
            throw exitWithError(error)
        }
    }
}

/// `boardarchive store check`: open a store without changing it and say what it holds.
struct StoreCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Open the archive store without changing it: its schema version and what it holds.",
        discussion: "A SQLite store is also checked with PRAGMA integrity_check; a PostgreSQL store (postgres://USER@HOST:PORT/DB) is "
            + "connected to with its password from store.password-file, store.password-env (default PGPASSWORD) or ~/.pgpass.\n\n"
            + ExitCodes.helpText)

    @OptionGroup var config: ConfigOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var password: StorePasswordOptions

    func run() async throws {
        do {
            let settings = try config.resolve(store.flagSettings, password.flagSettings)
            switch try StoreLocation(parsing: try settings.required("store")) {
            case .sqliteFile(let path):
                let archive = try ArchiveStore(readingOnly: path)
                let check = try archive.check()
                let version = try archive.schemaVersion()
                guard check.integrity == ["ok"] else {
                    throw StoreError(location: path, reason: .cannotOpen("integrity_check found: \(check.integrity.joined(separator: "; "))"))
                }
                print("SQLite store \(path): schema version \(version), \(check.boards) boards, \(check.posts) posts, integrity_check ok.")
            case .postgres(let url):
                let password = try StorePassword.resolve(for: url, settings: settings, environment: ProcessInfo.processInfo.environment)
                let archive = try PostgresArchive.open(PostgresConnector(url: url, password: password), creating: false, migrating: false)
                defer { archive.close() }
                let summary = try archive.summary()
                let version = try archive.schemaVersion()
                print(
                    "PostgreSQL store \(url): schema version \(version), \(summary.boards) boards, \(summary.posts) posts (server \(summary.server))."
                )
            }
        } catch {
            throw exitWithError(error)
        }
    }
}
