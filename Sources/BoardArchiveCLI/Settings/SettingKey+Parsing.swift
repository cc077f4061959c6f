import BoardArchive
import Configuration
import Foundation

/// A value as a flag, an environment variable or the file gave it, before it is checked.
enum RawSetting: Equatable, Sendable {
    case scalar(String)
    case list([String])
}

/// Why a value was refused: what the setting expects, and whether the value may be repeated in the message.
struct SettingProblem: Error, Equatable {
    /// The words after "must be", e.g. `between 1 and 64`.
    var expected: String
    /// The refused value as the message shows it (quoted unless a number), or nil when it must not be shown.
    var shown: String?
}

extension SettingKey {
    /// Checks `raw` against the kind and returns the typed value; a relative path is resolved against `folder` when given.
    func parse(_ raw: RawSetting, relativeTo folder: URL? = nil) -> Result<ConfigContent, SettingProblem> {
        if case .list = kind {
            let values: [String]
            switch raw {
            case .list(let list): values = list
            case .scalar(let text):
                values = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            }
            if let empty = values.first(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                return .failure(SettingProblem(expected: "a list of non-empty strings", shown: "\"\(empty)\""))
            }
            return .success(.stringArray(values))
        }
        guard case .scalar(let text) = raw else { return .failure(SettingProblem(expected: expectation, shown: "a list")) }
        return parseScalar(text.trimmingCharacters(in: .whitespaces), relativeTo: folder)
    }

    /// What the kind expects, in words, for "must be …".
    var expectation: String {
        switch kind {
        case .text, .path: return "a non-empty string"
        case .store: return "the path of a SQLite file or a postgres://USER@HOST:PORT/DB URL"
        case .url: return "an http(s) URL such as https://mp-dev.mail-server.kr/api/v2"
        case .variableName: return "an environment variable name such as BOARD_API_TOKEN"
        case .integer(let range, let note): return "between \(range.lowerBound) and \(range.upperBound)\(note)"
        case .number(let range): return "between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound))"
        case .boolean: return "true or false"
        case .fraction: return "a fraction from 0 to 1 such as 1/7 or 0.25"
        case .timeZone: return "an IANA time zone such as Asia/Seoul"
        case .choice(let words): return words.dropLast().joined(separator: ", ") + (words.count > 1 ? " or " : "") + (words.last ?? "")
        case .list: return "a list of non-empty strings"
        }
    }

    private func parseScalar(_ text: String, relativeTo folder: URL?) -> Result<ConfigContent, SettingProblem> {
        let quoted = SettingProblem(expected: expectation, shown: "\"\(text)\"")
        switch kind {
        case .text:
            return text.isEmpty ? .failure(quoted) : .success(.string(text))
        case .path:
            guard !text.isEmpty else { return .failure(quoted) }
            guard let folder, !text.hasPrefix("/") else { return .success(.string(text)) }
            return .success(.string(folder.appendingPathComponent(text).standardizedFileURL.path))
        case .store:
            return Self.parseStore(text, relativeTo: folder)
        case .url:
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
                return .failure(quoted)
            }
            guard URLComponents(string: text)?.user == nil else {
                return .failure(
                    SettingProblem(expected: "a URL without credentials (pass the token with api.token-env or api.token-file)", shown: nil))
            }
            return .success(.string(text))
        case .variableName:
            let valid =
                text.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
                && text.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            return valid ? .success(.string(text)) : .failure(quoted)
        case .integer(let range, _):
            guard let value = Int(text), range.contains(value) else { return .failure(SettingProblem(expected: expectation, shown: text)) }
            return .success(.int(value))
        case .number(let range):
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                return .failure(SettingProblem(expected: expectation, shown: text))
            }
            return .success(.double(value))
        case .boolean:
            switch text.lowercased() {
            case "true", "yes", "1": return .success(.bool(true))
            case "false", "no", "0": return .success(.bool(false))
            default: return .failure(quoted)
            }
        case .fraction:
            return Self.fraction(text).map { .success(.double($0)) } ?? .failure(quoted)
        case .timeZone:
            return TimeZone(identifier: text) == nil ? .failure(quoted) : .success(.string(text))
        case .choice(let words):
            return words.contains(text) ? .success(.string(text)) : .failure(quoted)
        case .list:
            return .success(.stringArray([text]))
        }
    }

    /// A store location: a path (resolved against `folder`) or a URL of a scheme boardarchive knows; the refused value
    /// is shown without its password.
    private static func parseStore(_ text: String, relativeTo folder: URL?) -> Result<ConfigContent, SettingProblem> {
        let shown = "\"\(StoreLocation.withoutPassword(text))\""
        guard !text.isEmpty else { return .failure(SettingProblem(expected: "the path of a SQLite file", shown: shown)) }
        do {
            guard case .sqliteFile(let path) = try StoreLocation(parsing: text) else { return .success(.string(text)) }
            // A file URL resolves to its path; a plain path relative to the file resolves against the file's folder.
            guard path == text, let folder, !text.hasPrefix("/") else { return .success(.string(path)) }
            return .success(.string(folder.appendingPathComponent(text).standardizedFileURL.path))
        } catch let error as StoreError {
            switch error.reason {
            case .invalidURL(let problem):
                return .failure(SettingProblem(expected: "a usable postgres:// URL (\(problem))", shown: shown))
            case .unknownScheme(let scheme):
                return .failure(
                    SettingProblem(
                        expected: "the path of a SQLite file or a file:// URL (boardarchive does not know the scheme \(scheme)://)", shown: shown))
            default:
                return .failure(SettingProblem(expected: "the path of a SQLite file", shown: shown))
            }
        } catch {
            return .failure(SettingProblem(expected: "the path of a SQLite file", shown: shown))
        }
    }

    /// `a/b` or a decimal, 0…1; nil when it is neither.
    static func fraction(_ text: String) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let value: Double?
        if parts.count == 2, let top = Double(parts[0]), let bottom = Double(parts[1]), bottom > 0 {
            value = top / bottom
        } else {
            value = Double(text)
        }
        return value.flatMap { (0...1).contains($0) ? $0 : nil }
    }

    /// `0.01`, `10000`: a whole number without `.0`.
    static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
