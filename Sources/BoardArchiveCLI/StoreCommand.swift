import ArgumentParser
import BoardArchive
import Foundation

/// `boardarchive store`: look after the archive store itself.
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store", abstract: "Look after the archive store (backups).", subcommands: [StoreBackupCommand.self])
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

    @Option(help: "Where to write the copy (replaced only once the new copy is checked).")
    var to: String

    func run() async throws {
        do {
            let archive = try StoreOptions.open(try config.resolve(store.flagSettings), creating: false)
            let backup = try archive.backup(to: to)
            print("Backed up \(archive.location) to \(backup.path): \(backup.posts) posts, \(backup.bytes) bytes, integrity_check ok.")
        } catch {
            throw exitWithError(error)
        }
    }
}
