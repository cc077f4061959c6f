import Foundation

/// One setting that a flag, a `BOARDARCHIVE_…` environment variable, `boardarchive.yaml` or its default can give.
///
/// The table of every setting is ``SettingKey/all``; the file's keys, the environment variables, the starter file that
/// `boardarchive init` writes and the table in docs/configuration.md all come from it, so a new setting is one line there.
struct SettingKey: Sendable {
    /// What a value must look like; every source (flag, environment, file) is checked by the same rules.
    enum Kind: Sendable {
        /// A non-empty string.
        case text
        /// A file or folder; a relative path in the file is relative to the file's folder.
        case path
        /// Where the archive store lives: a SQLite file (a relative path in the file is relative to the file's folder) or
        /// a `file://` URL; another URL scheme is refused, never taken for a path.
        case store
        /// An `http(s)` URL without credentials.
        case url
        /// The name of an environment variable.
        case variableName
        /// A whole number in a range; the note follows the range in messages.
        case integer(ClosedRange<Int>, note: String)
        /// A number in a range.
        case number(ClosedRange<Double>)
        /// `true` or `false` (also `yes`/`no`, `1`/`0`).
        case boolean
        /// A fraction from 0 to 1: `a/b` or a decimal.
        case fraction
        /// An IANA time zone identifier.
        case timeZone
        /// One of a few words.
        case choice([String])
        /// A list of non-empty strings (comma-separated in an environment variable).
        case list
    }

    /// The dotted key, e.g. `crawl.page-size`: a section and a name, or a top-level name.
    let name: String
    let kind: Kind
    /// The command-line flag that gives it, when there is one.
    let flag: String?
    /// The value used when no source gives one, spelt as in the file; nil when the setting has no default.
    let defaultValue: String?
    /// One line for the starter file and docs/configuration.md.
    let help: String
    /// A value to show, commented out, in the starter file when there is no default.
    let example: String?

    init(_ name: String, _ kind: Kind, flag: String? = nil, default defaultValue: String? = nil, example: String? = nil, _ help: String) {
        self.name = name
        self.kind = kind
        self.flag = flag
        self.defaultValue = defaultValue
        self.help = help
        self.example = example
    }

    /// The environment variable that gives this setting: `BOARDARCHIVE_` and the key in capitals, `.` and `-` as `_`.
    var environmentVariable: String {
        "BOARDARCHIVE_" + name.uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
    }

    /// The setting named `name`, if there is one.
    static func named(_ name: String) -> SettingKey? { all.first { $0.name == name } }

    /// The setting a `BOARDARCHIVE_…` variable gives, if any.
    static func forEnvironmentVariable(_ variable: String) -> SettingKey? { all.first { $0.environmentVariable == variable } }

    /// Environment variables starting with `BOARDARCHIVE_` that are not settings but are still allowed: the file's
    /// path, the pseudonym key (a secret, so never a setting of the file), and the test suite's and benchmarks' hooks
    /// (`BOARDARCHIVE_TEST_…`, `BOARDARCHIVE_SEARCH_…`).
    static func isOtherVariable(_ variable: String) -> Bool {
        variable == "BOARDARCHIVE_CONFIG" || variable == PseudonymOptions.environmentVariable || variable.hasPrefix("BOARDARCHIVE_TEST_")
            || variable.hasPrefix("BOARDARCHIVE_SEARCH_")
    }
}
