import Foundation
@preconcurrency import Rainbow

/// Standard error as the command line uses it: whether it is a terminal, whether colour is wanted, and the one
/// escape sequence the live progress line needs (colours come from Rainbow).
enum Terminal {
    /// Back to the start of the line and erase it (`CR`, `ESC [ 2 K`).
    static let clearLine = "\r\u{1B}[2K"

    /// Whether standard error is a terminal that understands escape sequences (not `TERM=dumb`).
    static func standardErrorIsTerminal(_ environment: [String: String]) -> Bool {
        isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb"
    }

    /// Colour only on a terminal, and never when `NO_COLOR` is set to anything (https://no-color.org).
    static func wantsColour(_ environment: [String: String]) -> Bool {
        standardErrorIsTerminal(environment) && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Tells Rainbow whether to colour: it would otherwise look at standard output, not standard error.
    static func configureColour(_ enabled: Bool) {
        Rainbow.outputTarget = enabled ? .console : .unknown
        Rainbow.enabled = enabled
    }

    /// Writes `text` to standard error as it is.
    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
