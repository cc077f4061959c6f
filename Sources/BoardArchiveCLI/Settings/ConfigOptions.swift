import ArgumentParser
import Foundation

/// `--config FILE`, taken by every command that reads settings.
struct ConfigOptions: ParsableArguments {
    @Option(help: "The configuration file. Default: BOARDARCHIVE_CONFIG, else ./boardarchive.yaml when it exists (see `boardarchive init`).")
    var config: String?

    /// Resolves the run's settings from these flags, the environment, the configuration file and the defaults.
    func resolve(_ flags: [String: RawSetting]..., environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Settings {
        let merged = flags.reduce(into: [String: RawSetting]()) { result, next in result.merge(next) { _, new in new } }
        let folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return try Settings(flags: merged, configPath: config, environment: environment, workingDirectory: folder)
    }
}
