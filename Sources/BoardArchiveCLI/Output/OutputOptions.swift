import ArgumentParser
import BoardArchive
import Foundation

/// `--quiet` and `--verbose`, and what follows from them: whether summaries are printed and how progress is drawn.
struct OutputOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print nothing but errors: no progress, no summary, no warnings.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Log more: each phase and board (log level info; --log-level still wins).")
    var verbose = false

    func validate() throws {
        if quiet, verbose { throw ValidationError("Pass --quiet or --verbose, not both.") }
    }

    /// `--quiet` and `--verbose` as a log level; an explicit `--log-level` is merged after and wins.
    var flagSettings: [String: RawSetting] {
        quiet ? ["log.level": .scalar("error")] : verbose ? ["log.level": .scalar("info")] : [:]
    }

    /// How this run prints, from these flags, the resolved settings and the environment (terminal, `NO_COLOR`).
    func makeOutput(_ settings: Settings, environment: [String: String] = ProcessInfo.processInfo.environment) -> CommandOutput {
        let json = settings.bool("log.json") ?? false
        let interval = settings.double("log.progress-interval") ?? 5
        let live = !json && Terminal.standardErrorIsTerminal(environment)
        let colour = live && Terminal.wantsColour(environment)
        Terminal.configureColour(colour)
        let style: ProgressDisplay.Style =
            quiet ? .off : json ? .json(interval: interval) : live ? .live(colour: colour) : .plain(interval: interval)
        return CommandOutput(quiet: quiet, json: json, progressStyle: style)
    }
}

/// What a command prints besides errors: summaries on standard output, progress on standard error.
struct CommandOutput: Sendable {
    /// `--quiet`: nothing but errors.
    var quiet = false
    /// `--json-logs`: summaries and progress as JSON.
    var json = false
    var progressStyle: ProgressDisplay.Style = .off

    /// Prints a summary line on standard output unless quiet.
    func say(_ text: String) {
        if !quiet { print(text) }
    }

    /// Starts drawing `meter` for `stage`; call ``ProgressDisplay/finish()`` when the stage ends.
    func progress(_ stage: String, _ meter: ProgressMeter) -> ProgressDisplay {
        ProgressDisplay(stage: stage, meter: meter, style: progressStyle)
    }

    /// Whether log lines must first clear a live progress line.
    var clearsLiveLine: Bool {
        if case .live = progressStyle { return true }
        return false
    }
}
