import ArgumentParser
import BoardArchive
import Foundation

/// `boardarchive redact`: take a post, a writer or a board off the archive (and keep them off), list or undo that.
struct RedactCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redact", abstract: "Take a post, a writer or a board off the archive, and keep them off on every later crawl.",
        discussion: """
            Rebuild the site afterwards (boardarchive build): only the pages that showed the posts change. \
            With --purge the store keeps only ids and dates of a removed post.

            """ + ExitCodes.helpText)

    @OptionGroup var options: RedactOptions
    @OptionGroup var config: ConfigOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var password: StorePasswordOptions

    func run() async throws {
        do {
            // The store comes from --store, BOARDARCHIVE_STORE or the configuration file, like every command's.
            let archive = try StoreOptions.open(
                try config.resolve(store.flagSettings, password.flagSettings), creating: false, reconnecting: false)
            if options.list {
                print(Self.table(try archive.redactions()))
            } else if let number = options.undo {
                let redaction = try archive.undoRedaction(number, at: options.date)
                print("Undid redaction \(redaction.id) (\(Self.what(redaction))). Run boardarchive build to publish the change.")
            } else if let request = options.request {
                let redaction = try archive.redact(request, at: options.date)
                let purged = request.purge ? "; purged from the store" : ""
                print(
                    "Redaction \(redaction.id): \(Self.what(redaction)), \(redaction.mode.rawValue), \(Self.posts(redaction.postCount))\(purged). "
                        + "Run boardarchive build to publish it.")
                if request.purge, let leftovers = archive.purgeLeftovers {
                    print("Purged from the tables, but \(leftovers); see docs/postgresql.md.")
                }
            }
        } catch {
            throw exitWithError(error)
        }
    }

    /// What a redaction applies to, in words: `post 12`, `board 3`, `writer "name"`, `writer (name purged)`.
    static func what(_ redaction: Redaction) -> String {
        switch (redaction.kind, redaction.target) {
        case ("writer", let name?): "writer \"\(name)\""
        case ("writer", nil): "writer (name purged)"
        case (let kind, let target): "\(kind) \(target ?? "?")"
        }
    }

    static func posts(_ count: Int) -> String {
        count == 1 ? "1 post" : "\(count) posts"
    }

    /// The `--list` table: one line per redaction, tab-separated, with a header.
    static func table(_ redactions: [Redaction]) -> String {
        guard !redactions.isEmpty else { return "No redactions." }
        var lines = ["#\twhen (UTC)\twhat\tmode\tposts\treason"]
        for redaction in redactions {
            var mode = redaction.mode.rawValue + (redaction.purge ? "+purge" : "")
            if let undone = redaction.undoneAt { mode += " (undone \(ArchiveDate.format(undone)))" }
            lines.append(
                "\(redaction.id)\t\(ArchiveDate.format(redaction.createdAt))\t\(what(redaction))\t\(mode)\t\(redaction.postCount)\t\(redaction.reason)"
            )
        }
        return lines.joined(separator: "\n")
    }
}
