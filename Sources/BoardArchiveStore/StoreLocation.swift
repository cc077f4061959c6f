import Foundation

/// Where an archive store lives, as `--store`, `store:` or `BOARDARCHIVE_STORE` names it.
///
/// A value with a URL scheme (`name://…`) is never taken for a path: `file://` names a SQLite file, `postgres://` and
/// `postgresql://` name a PostgreSQL database (``PostgresStoreURL``), and any other scheme is refused. Everything else is
/// the path of a SQLite file.
public enum StoreLocation: Sendable, Equatable {
    /// A SQLite file.
    case sqliteFile(path: String)
    /// A PostgreSQL database.
    case postgres(PostgresStoreURL)

    /// The schemes that name a PostgreSQL database.
    static let postgresSchemes: Set<String> = ["postgres", "postgresql"]

    /// Reads `text` as a store location.
    ///
    /// - Throws: ``StoreError`` with ``StoreError/Reason/unknownScheme(_:)`` for a scheme boardarchive does not know,
    ///   or ``StoreError/Reason/invalidURL(_:)`` for a PostgreSQL URL it cannot use; the message shows the value without
    ///   any password it holds.
    public init(parsing text: String) throws {
        guard let scheme = Self.scheme(of: text) else {
            self = .sqliteFile(path: text)
            return
        }
        let shown = Self.withoutPassword(text)
        switch scheme {
        case "file":
            let url = URL(string: text)
            if let host = url?.host, !host.isEmpty, host != "localhost" {
                throw StoreError(
                    location: shown,
                    reason: .invalidURL("a file:// URL names an absolute path, as file:///srv/archive.sqlite; here \"\(host)\" is read as a host"))
            }
            guard let url, url.isFileURL, !url.path.isEmpty else {
                throw StoreError(location: shown, reason: .invalidURL("a file:// URL names an absolute path, as file:///srv/archive.sqlite"))
            }
            self = .sqliteFile(path: url.path)
        case _ where Self.postgresSchemes.contains(scheme):
            self = .postgres(try PostgresStoreURL(parsing: text))
        default:
            throw StoreError(location: shown, reason: .unknownScheme(scheme))
        }
    }

    /// The path of the SQLite file, for the commands that work on SQLite stores only so far.
    ///
    /// - Throws: ``StoreError/Reason/unsupportedBackend(_:)`` for a PostgreSQL store.
    public func sqlitePath() throws -> String {
        switch self {
        case .sqliteFile(let path): return path
        case .postgres(let url): throw StoreError(location: url.description, reason: .unsupportedBackend("postgres"))
        }
    }

    /// The lowercased scheme of `text` when it starts with `scheme://` (RFC 3986 scheme characters), else nil.
    static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else { return nil }
        let name = text[..<colon]
        guard let first = name.first, first.isASCII, first.isLetter,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        return name.lowercased()
    }

    /// `text` with the password of its user information (`user:password@`) replaced by `***`, for messages.
    ///
    /// A password may hold any character, `@`, `/`, `?` and `#` included, so everything from the first `:` after the
    /// user name to the last `@` is masked: a value that only looks like one loses more than its password, never less.
    public static func withoutPassword(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        guard let colon = rest.firstIndex(of: ":"), let at = rest.lastIndex(of: "@"), colon < at,
            !rest[..<colon].contains(where: { "/?#@".contains($0) })
        else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}
