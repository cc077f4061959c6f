import ArgumentParser
import Foundation

/// `build --pseudonymize-writers`: name every writer by a stable pseudonym from a keyed hash.
///
/// The key is a secret (whoever has it can test guesses of names), so it is never taken from the command line,
/// which `ps` shows: it is read from `--pseudonym-key-file`, else from the environment variable
/// `BOARDARCHIVE_PSEUDONYM_KEY`. Its bytes are used as they are (a trailing newline of the file is dropped).
struct PseudonymOptions: ParsableArguments {
    /// The environment variable holding the key when no key file is given.
    static let environmentVariable = "BOARDARCHIVE_PSEUDONYM_KEY"

    @Flag(help: "Publish writers as stable pseudonyms (keyed hash) instead of their names.")
    var pseudonymizeWriters = false

    @Option(help: "A file holding the pseudonym key (at least 16 bytes). Else the BOARDARCHIVE_PSEUDONYM_KEY environment variable.")
    var pseudonymKeyFile: String?

    /// The key, or nil without `--pseudonymize-writers`; a usage error when it is missing or too short.
    func key(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Data? {
        guard pseudonymizeWriters else {
            if pseudonymKeyFile != nil { throw ValidationError("--pseudonym-key-file needs --pseudonymize-writers.") }
            return nil
        }
        var key: Data
        if let path = pseudonymKeyFile {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ValidationError("--pseudonym-key-file \(path) cannot be read; give a readable file holding the key.")
            }
            key = data
            while key.last == UInt8(ascii: "\n") || key.last == UInt8(ascii: "\r") { key.removeLast() }
        } else if let value = environment[Self.environmentVariable], !value.isEmpty {
            key = Data(value.utf8)
        } else {
            throw ValidationError(
                "--pseudonymize-writers needs a key: --pseudonym-key-file PATH or the environment variable \(Self.environmentVariable).")
        }
        guard key.count >= 16 else {
            throw ValidationError("The pseudonym key has \(key.count) bytes; it needs at least 16 (for example: head -c 32 /dev/urandom | base64).")
        }
        return key
    }
}
