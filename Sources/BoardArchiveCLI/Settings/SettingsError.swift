import Foundation

/// Where a setting's value came from.
enum SettingOrigin: Equatable, Sendable {
    case flag(String)
    case environment(String)
    case file(path: String, line: Int)
    case defaultValue

    /// How a message names the setting: `--page-size`, `BOARDARCHIVE_CRAWL_PAGE_SIZE`, `/x/boardarchive.yaml:12: crawl.page-size`.
    func naming(_ key: String) -> String {
        switch self {
        case .flag(let flag): return flag
        case .environment(let variable): return variable
        case .file(let path, let line): return key.isEmpty ? "\(path):\(line)" : "\(path):\(line): \(key)"
        case .defaultValue: return key
        }
    }
}

/// A configuration mistake: a bad value, an unknown key or variable, a file that cannot be read. Exit code 64.
struct SettingsError: Error, Equatable, LocalizedError {
    enum Reason: Equatable {
        /// The value does not fit the setting: what was expected, and the value as shown (nil when it must not be shown).
        case invalidValue(expected: String, shown: String?)
        /// The file names a key that is not a setting; the nearest known key, if one is close.
        case unknownKey(suggestion: String?)
        /// A `BOARDARCHIVE_…` variable that is not a setting; the nearest known variable, if one is close.
        case unknownVariable(suggestion: String?)
        /// The file tries to hold the token itself.
        case tokenInFile
        /// The same key twice in the file (the first line, when known).
        case duplicateKey(firstLine: Int?)
        /// The file is not YAML (the parser's words), or not a mapping of settings.
        case notYAML(String)
        /// The file cannot be read.
        case unreadable
        /// The file a setting names (a password file) cannot be read.
        case unreadableFile
        /// The file a setting names (a password file) is empty.
        case emptyFile
        /// The file is the JSON `--config` of earlier versions.
        case legacyJSON
        /// A setting with no value anywhere that the command needs.
        case missing
        /// Two settings that exclude each other, given at the same level.
        case conflict(other: String)
    }

    /// The setting's key (or the file's path for file-wide problems).
    var key: String
    var origin: SettingOrigin
    var reason: Reason

    var errorDescription: String? {
        let name = origin.naming(key)
        switch reason {
        case .invalidValue(let expected, let shown):
            return "\(name) must be \(expected)" + (shown.map { ", not \($0)." } ?? ".")
        case .unknownKey(let suggestion):
            return "\(name) is not a setting" + (suggestion.map { "; did you mean \($0)?" } ?? ";")
                + " `boardarchive init --force` writes a starter file listing every key."
        case .unknownVariable(let suggestion):
            return "\(name) is set but is not a setting" + (suggestion.map { "; did you mean \($0)?" } ?? ";")
                + " Unset it, or see the table in docs/configuration.md."
        case .tokenInFile:
            return "\(name) is not a setting: the token never goes into the configuration file; "
                + "put it in the environment variable named by api.token-env, or in the file named by api.token-file."
        case .duplicateKey(let firstLine):
            return "\(name) is set twice" + (firstLine.map { " (first on line \($0))" } ?? " in one section") + "; keep one."
        case .notYAML(let problem):
            return "\(name): not a YAML configuration file: \(problem)."
        case .unreadable:
            return "\(name) cannot be read; check the path given with --config or BOARDARCHIVE_CONFIG."
        case .unreadableFile:
            return "\(name) names a file that cannot be read; check the path and that this user may read it."
        case .emptyFile:
            return "\(name) names an empty file; put the password in it, on one line."
        case .legacyJSON:
            return "\(name) is a JSON build settings file, which boardarchive no longer reads; move its settings into boardarchive.yaml "
                + "(out → build.out, templates → build.templates, timezone → build.timezone, lang → build.lang, keywords → build.keywords, "
                + "topKeywords → build.top-keywords); `boardarchive init` writes a starter file."
        case .missing:
            let setting = SettingKey.named(key)
            let ways = [setting?.flag.map { "pass \($0)" }, setting.map { "set \($0.environmentVariable)" }, "set \(key) in boardarchive.yaml"]
            return "No value for \(key): " + ways.compactMap { $0 }.joined(separator: ", ") + " (`boardarchive init` writes a starter file)."
        case .conflict(let other):
            return "\(name) and \(other) are both given at the same level; keep one."
        }
    }
}
