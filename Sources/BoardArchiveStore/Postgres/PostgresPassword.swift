import Foundation

/// A database password: kept out of every description, log and message (it prints as `***`).
public struct PostgresPassword: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    let value: String

    public init?(_ value: String) {
        guard !value.isEmpty else { return nil }
        self.value = value
    }

    public var description: String { "***" }
    public var debugDescription: String { "***" }

    /// The password of the first line of a `.pgpass` file (`host:port:database:user:password`, `*` matching anything,
    /// `\:` and `\\` escaped, `#` lines ignored) that matches `url`, as libpq reads it; nil when none does.
    public static func fromPassFile(_ text: String, for url: PostgresStoreURL) -> PostgresPassword? {
        let wanted = [url.host, String(url.port), url.database, url.user]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = Self.fields(of: line)
            guard fields.count == 5 else { continue }
            let matches = zip(fields.prefix(4), wanted).allSatisfy { field, value in
                field == "*" || field == value || (value == "127.0.0.1" && field == "localhost")
            }
            if matches { return PostgresPassword(fields[4]) }
        }
        return nil
    }

    /// The colon-separated fields of a `.pgpass` line, with `\:` and `\\` unescaped.
    private static func fields(of line: Substring) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}
