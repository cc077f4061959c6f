import Configuration
import Foundation

/// Every setting of one run, resolved in one place: a flag, else a `BOARDARCHIVE_…` environment variable, else the
/// configuration file, else the default.
///
/// Each source is checked first, by the same rules (``SettingKey/parse(_:relativeTo:)``), so a mistake names its flag,
/// its variable, or the file and line it is on. The precedence itself is swift-configuration's: a `ConfigReader` over
/// four providers in order (the flags and the file as in-memory providers, the environment through
/// `EnvironmentVariablesProvider` with the `boardarchive` prefix, the defaults).
struct Settings {
    private let reader: ConfigReader
    /// Where each level's values came from, in precedence order (flags, environment, file, defaults).
    private let origins: [[String: SettingOrigin]]
    /// The configuration file read, if any.
    let file: SettingsFile?

    /// Resolves the settings of a run.
    ///
    /// - Parameters:
    ///   - flags: the settings given on the command line, by key.
    ///   - configPath: `--config`, if given; else `BOARDARCHIVE_CONFIG`, else `boardarchive.yaml` in `workingDirectory` if it exists.
    ///   - environment: the process environment; only `BOARDARCHIVE_…` variables are read (an unknown one is an error).
    init(flags: [String: RawSetting], configPath: String?, environment: [String: String], workingDirectory: URL) throws {
        var flagValues: [AbsoluteConfigKey: ConfigValue] = [:]
        var flagOrigins: [String: SettingOrigin] = [:]
        for (name, raw) in flags {
            guard let key = SettingKey.named(name) else { preconditionFailure("no setting \(name)") }
            let origin = SettingOrigin.flag(key.flag ?? name)
            flagValues[Self.absolute(key)] = ConfigValue(try Self.check(raw, for: key, origin: origin), isSecret: false)
            flagOrigins[name] = origin
        }
        var environmentValues: [String: String] = [:]
        var environmentOrigins: [String: SettingOrigin] = [:]
        for (variable, value) in environment.sorted(by: { $0.key < $1.key }) where variable.hasPrefix("BOARDARCHIVE_") {
            guard !SettingKey.isOtherVariable(variable) else { continue }
            guard let key = SettingKey.forEnvironmentVariable(variable) else {
                let suggestion = SettingKey.all.map(\.environmentVariable).nearest(to: variable)
                throw SettingsError(key: variable, origin: .environment(variable), reason: .unknownVariable(suggestion: suggestion))
            }
            let content = try Self.check(.scalar(value), for: key, origin: .environment(variable))
            environmentValues[variable] = Self.spelling(of: content)
            environmentOrigins[key.name] = .environment(variable)
        }
        let path = configPath ?? environment["BOARDARCHIVE_CONFIG"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.discovered(in: workingDirectory)
        let file = try path.map { try SettingsFile(path: $0) }
        var fileValues: [AbsoluteConfigKey: ConfigValue] = [:]
        var fileOrigins: [String: SettingOrigin] = [:]
        for (name, entry) in file?.values ?? [:] {
            guard let key = SettingKey.named(name) else { continue }
            fileValues[Self.absolute(key)] = ConfigValue(entry.content, isSecret: false)
            fileOrigins[name] = .file(path: file?.path ?? "", line: entry.line)
        }
        var defaults: [AbsoluteConfigKey: ConfigValue] = [:]
        var defaultOrigins: [String: SettingOrigin] = [:]
        for key in SettingKey.all {
            guard let text = key.defaultValue else { continue }
            defaults[Self.absolute(key)] = ConfigValue(try Self.check(.scalar(text), for: key, origin: .defaultValue), isSecret: false)
            defaultOrigins[key.name] = .defaultValue
        }
        reader = ConfigReader(providers: [
            InMemoryProvider(name: "flags", values: flagValues),
            EnvironmentVariablesProvider(environmentVariables: environmentValues).prefixKeys(with: ConfigKey(["boardarchive"])),
            InMemoryProvider(name: file?.path ?? "no configuration file", values: fileValues),
            InMemoryProvider(name: "defaults", values: defaults),
        ])
        origins = [flagOrigins, environmentOrigins, fileOrigins, defaultOrigins]
        self.file = file
    }

    /// The text value of a setting (text, path, URL, time zone, choice), if any source gives one.
    func string(_ name: String) -> String? { reader.string(forKey: Self.key(name)) }

    /// The whole-number value of a setting.
    func int(_ name: String) -> Int? { reader.int(forKey: Self.key(name)) }

    /// The number value of a setting (numbers and fractions).
    func double(_ name: String) -> Double? { reader.double(forKey: Self.key(name)) }

    /// The yes/no value of a setting.
    func bool(_ name: String) -> Bool? { reader.bool(forKey: Self.key(name)) }

    /// The list value of a setting.
    func strings(_ name: String) -> [String]? { reader.stringArray(forKey: Self.key(name)) }

    /// Where the value in force came from (the highest level that gives one), or nil when none does.
    func origin(of name: String) -> SettingOrigin? { origins.lazy.compactMap { $0[name] }.first }

    /// The value in force, or an error naming every way to give it.
    func required(_ name: String) throws -> String {
        guard let value = string(name) else { throw SettingsError(key: name, origin: .defaultValue, reason: .missing) }
        return value
    }

    /// Which of two settings that exclude each other is in force: the one given at the higher level; both at the same
    /// level (other than the defaults) is an error. Nil when neither is given.
    func winner(of first: String, or second: String) throws -> String? {
        for level in origins {
            switch (level[first], level[second]) {
            case (let origin?, _?) where origin != .defaultValue:
                throw SettingsError(key: first, origin: origin, reason: .conflict(other: level[second].map { $0.naming(second) } ?? second))
            case (_?, _): return first
            case (nil, _?): return second
            case (nil, nil): continue
            }
        }
        return nil
    }

    private static func check(_ raw: RawSetting, for key: SettingKey, origin: SettingOrigin) throws -> ConfigContent {
        switch key.parse(raw) {
        case .success(let content): return content
        case .failure(let problem):
            throw SettingsError(key: key.name, origin: origin, reason: .invalidValue(expected: problem.expected, shown: problem.shown))
        }
    }

    /// A checked value spelt so that `EnvironmentVariablesProvider` reads it back as the same value.
    private static func spelling(of content: ConfigContent) -> String {
        switch content {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .stringArray(let items): return items.joined(separator: ",")
        default: return ""
        }
    }

    private static func discovered(in folder: URL) -> String? {
        let path = folder.appendingPathComponent(SettingsFile.defaultName).path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    private static func key(_ name: String) -> ConfigKey { ConfigKey(name.split(separator: ".").map(String.init)) }

    private static func absolute(_ key: SettingKey) -> AbsoluteConfigKey { AbsoluteConfigKey(key.name.split(separator: ".").map(String.init)) }
}
