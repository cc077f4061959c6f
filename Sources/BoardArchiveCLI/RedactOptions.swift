import ArgumentParser
import BoardArchive
import Foundation

/// The options of `redact`: one action (a selector, `--list` or `--undo`) and its settings.
struct RedactOptions: ParsableArguments {
    @Option(help: "Redact the post with this id.")
    var post: Int?

    @Option(help: "Redact every post whose writer's display name matches this one (after NFKC, case folding and spaces).")
    var writer: String?

    @Option(help: "Redact every post of the board with this id.")
    var board: Int?

    @Option(help: "Why (required with --post, --writer, --board); kept in the store for --list, never published.")
    var reason: String?

    @Option(help: "remove (the default: the post leaves the site, its page becomes a tombstone) or anonymize (--writer only).")
    var mode: String = RedactionMode.remove.rawValue

    @Flag(help: "Also wipe what the redaction hides from the store and its WAL, and never store it again on later crawls.")
    var purge = false

    @Flag(help: "List every redaction: number, when, what, mode, how many posts, reason.")
    var list = false

    @Option(help: "Lift redaction N (its number in --list).")
    var undo: Int?

    @Option(help: "When the redaction is made, ISO 8601 (the tombstone's date). Default: the system clock.")
    var now: String?

    func validate() throws {
        let actions = [post != nil, writer != nil, board != nil, list, undo != nil].filter { $0 }.count
        guard actions == 1 else {
            throw ValidationError("redact needs exactly one of --post ID, --writer NAME, --board ID, --list or --undo N; \(actions) were given.")
        }
        guard let mode = RedactionMode(rawValue: mode) else {
            throw ValidationError("--mode must be remove or anonymize, not \"\(mode)\".")
        }
        if mode == .anonymize, writer == nil {
            throw ValidationError("--mode anonymize applies only to --writer; a post or a board can only be removed.")
        }
        if post != nil || writer != nil || board != nil, reason?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true {
            throw ValidationError("A redaction needs --reason TEXT (kept in the store for --list, never published).")
        }
        if let now, BuildOptions.parseInstant(now) == nil {
            throw ValidationError("--now must be an ISO 8601 date-time such as 2026-11-22T09:00:00Z, not \"\(now)\".")
        }
    }

    /// The redaction the options ask for, nil for `--list` and `--undo`.
    var request: RedactionRequest? {
        let target: RedactionTarget
        if let post {
            target = .post(post)
        } else if let writer {
            target = .writer(writer)
        } else if let board {
            target = .board(board)
        } else {
            return nil
        }
        return RedactionRequest(target: target, mode: RedactionMode(rawValue: mode) ?? .remove, purge: purge, reason: reason ?? "")
    }

    /// The moment the redaction is made.
    var date: Date {
        now.flatMap(BuildOptions.parseInstant) ?? Date()
    }
}
