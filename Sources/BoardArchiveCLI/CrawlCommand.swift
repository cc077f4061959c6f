import ArgumentParser
import BoardArchive
import Foundation
import Logging

/// `boardarchive crawl`: crawl every board of the API into the archive store.
struct CrawlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crawl", abstract: "Crawl every board of a board API into the archive store.",
        discussion: "The token is read from --token-env (default BOARD_API_TOKEN) or --token-file, never from the command line.\n\n"
            + ExitCodes.helpText)

    @OptionGroup var config: ConfigOptions
    @OptionGroup var crawl: CrawlOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var password: StorePasswordOptions
    @OptionGroup var creation: StoreCreationOptions
    @OptionGroup var log: LogOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        do {
            let settings = try config.resolve(
                crawl.flagSettings, store.flagSettings, creation.flagSettings, password.flagSettings, output.flagSettings, log.flagSettings)
            let out = output.makeOutput(settings)
            let logger = LogOptions.makeLogger(settings, output: out)
            let report = try await Self.crawl(
                crawl.makeConfiguration(settings), store: StoreOptions.open(settings), logger: logger, output: out)
            Self.printSummary(of: report, output: out)
            try Self.refuseMismatches(in: report)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw exitWithError(error)
        }
    }

    /// Exits 65 with one sentence per board that still disagreed with its `total` after re-verification.
    static func refuseMismatches(in report: CrawlReport) throws {
        guard !report.mismatches.isEmpty else { return }
        for mismatch in report.mismatches {
            let message =
                "error: Board \(mismatch.boardId) lists \(mismatch.expected) posts in its total but \(mismatch.found) were found, "
                + "and it still disagreed with its total after re-verification; every post found is stored and none of the board's "
                + "posts was marked gone. Re-run later, or ask the API's owner about the board's total.\n"
            FileHandle.standardError.write(Data(message.utf8))
        }
        throw ExitCode(ExitCodes.dataError)
    }

    /// Prints the crawl's summary line and one line per board saying what was read and why; with `--json-logs`, one
    /// JSON object instead.
    static func printSummary(of report: CrawlReport, output: CommandOutput) {
        if output.json {
            output.say(report.jsonSummary)
            return
        }
        output.say("Crawled \(report.summary).")
        for board in report.boardSummaries { output.say("  \(board.line)") }
    }

    /// Runs a crawl with the real HTTP transport, shutting it down on every path, with `SIGINT`/`SIGTERM` trapped
    /// while it runs; a crawl stopped by one prints how to resume and throws its exit code (130 or 143).
    static func crawl(
        _ configuration: CrawlConfiguration, store: any ArchiveDatabase, logger: Logging.Logger, output: CommandOutput = CommandOutput()
    ) async throws -> CrawlReport {
        let transport = AsyncHTTPTransport(readTimeout: configuration.retryPolicy.requestTimeout)
        let trap = SignalTrap()
        trap.install()
        defer { trap.remove() }
        let meter = ProgressMeter()
        let display = output.progress("crawl", meter)
        defer { display.finish() }
        do {
            let report = try await Crawler(
                configuration: configuration, transport: transport, store: store, logger: logger, stop: trap.stop,
                observe: TestKillHook.observer(ProcessInfo.processInfo.environment), progress: meter
            ).run()
            try await transport.shutdown()
            return report
        } catch let error as CrawlError where error.reason == .interrupted {
            display.finish()
            try? await transport.shutdown()
            let (code, message) = trap.interruption(error)
            FileHandle.standardError.write(Data(message.utf8))
            throw ExitCode(code)
        } catch {
            display.finish()
            try? await transport.shutdown()
            throw error
        }
    }
}
