import Foundation
import Logging

/// A log handler writing one line per message to stderr: plain text, or JSON for CI.
struct CLILogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level
    let json: Bool
    let label: String
    /// Whether a live progress line may stand on the terminal, to be cleared before a log line.
    var clearsLine = false

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let line: String
        if json {
            var object: [String: String] = ["level": event.level.rawValue, "message": "\(event.message)", "logger": label]
            for (key, value) in merged { object[key] = "\(value)" }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            line = String(decoding: data, as: UTF8.self)
        } else {
            let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            line = "\(event.level.rawValue): \(event.message)" + (fields.isEmpty ? "" : " (\(fields))")
        }
        FileHandle.standardError.write(Data(((clearsLine ? Terminal.clearLine : "") + line + "\n").utf8))
    }
}

extension LogOptions {
    /// The logger of a run, at the resolved `log.level`, plain or JSON (`log.json`).
    static func makeLogger(_ settings: Settings, output: CommandOutput = CommandOutput(), label: String = "boardarchive") -> Logger {
        let level = settings.string("log.level").flatMap(Logger.Level.init(rawValue:)) ?? .notice
        let json = settings.bool("log.json") ?? false
        let clears = output.clearsLiveLine
        return Logger(label: label) { label in CLILogHandler(logLevel: level, json: json, label: label, clearsLine: clears) }
    }
}
