import Foundation

/// A PostgreSQL store as `--store` names it: `postgres://USER@HOST:PORT/DB?schema=…&sslmode=…&sslrootcert=…`.
///
/// One archive holds one source. Several archives (of several sources) share one database in schemas of their own:
/// `?schema=NAME` puts the archive's tables in schema NAME (created with the archive), and its locks apart from the
/// other schemas' (``PostgresArchive/lockKey(_:)``); without it the archive lives in `public`.
///
/// The URL never holds the password (it would sit in shell histories, `ps` and configuration files): one with
/// `user:password@` is refused, and the password comes from `PGPASSWORD`, `~/.pgpass` or the settings that name another
/// variable or a file (see ``PostgresPassword``). `postgresql://` is the same. The port defaults to 5432.
public struct PostgresStoreURL: Sendable, Equatable, CustomStringConvertible {
    /// How the connection uses TLS, as libpq's `sslmode` names it.
    public enum TLSMode: String, Sendable, Equatable, CaseIterable {
        /// Never TLS.
        case disable
        /// TLS when the server offers it, else a plain connection (libpq's default).
        case prefer
        /// TLS or nothing, without checking the server's certificate (unless a CA file is given).
        case require
        /// TLS with the server's certificate checked against the CA file (or the system's roots) and its host name.
        case verifyFull = "verify-full"
    }

    public var user: String
    public var host: String
    public var port: Int
    public var database: String
    public var tlsMode: TLSMode
    /// `sslrootcert`: the CA certificates (PEM) that sign the server's certificate.
    public var caFile: String?
    /// `schema`: the schema that holds the archive's tables (a lower-case SQL name), or nil for `public`.
    public var schema: String?

    /// Reads `text`, a `postgres://` or `postgresql://` URL.
    ///
    /// - Throws: ``StoreError`` with ``StoreError/Reason/invalidURL(_:)`` naming what is wrong (a password in the URL,
    ///   no user, host or database, a bad port, an unknown `sslmode` or parameter); the message never shows a password.
    public init(parsing text: String) throws {
        let shown = StoreLocation.withoutPassword(text)
        func refuse(_ problem: String) -> StoreError { StoreError(location: shown, reason: .invalidURL(problem)) }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            StoreLocation.postgresSchemes.contains(scheme)
        else { throw refuse("it is not a postgres:// URL") }
        guard components.password == nil else {
            throw refuse("it holds a password, which belongs in PGPASSWORD, ~/.pgpass, store.password-env or store.password-file")
        }
        guard let user = components.user, !user.isEmpty else { throw refuse("it names no user (postgres://USER@HOST/DB)") }
        guard let host = components.host, !host.isEmpty else { throw refuse("it names no host") }
        // URLComponents decodes `user` and `path` once; decoding again would read `%2541` as `A`.
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else { throw refuse("it names no database (postgres://USER@HOST:PORT/DB)") }
        guard (1...65_535).contains(components.port ?? 5432) else { throw refuse("its port is not between 1 and 65535") }
        self.user = user
        self.host = host
        self.port = components.port ?? 5432
        self.database = database
        tlsMode = .prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    throw refuse("sslmode must be disable, prefer, require or verify-full, not \"\(item.value ?? "")\"")
                }
                tlsMode = mode
            case "sslrootcert":
                guard let file = item.value, !file.isEmpty else { throw refuse("sslrootcert names no file") }
                caFile = file
            case "schema":
                guard let name = item.value, Self.isSchemaName(name) else {
                    throw refuse(
                        "schema must be a lower-case SQL name (a-z, 0-9 and _, not starting with a digit or pg_, at most 63), not \"\(item.value ?? "")\""
                    )
                }
                schema = name
            default:
                throw refuse("boardarchive does not know the parameter \"\(item.name)\" (only schema, sslmode and sslrootcert)")
            }
        }
    }

    /// Whether `name` is a schema name boardarchive uses as it is in SQL: lower case, unquoted, not a system schema.
    static func isSchemaName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 63, !name.hasPrefix("pg_") else { return false }
        let letters = UInt8(ascii: "a")...UInt8(ascii: "z")
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        return (letters.contains(first) || first == UInt8(ascii: "_"))
            && name.utf8.allSatisfy { letters.contains($0) || digits.contains($0) || $0 == UInt8(ascii: "_") }
    }

    /// The URL without secrets, as messages and logs show it.
    public var description: String {
        var parameters: [String] = []
        if let schema { parameters.append("schema=\(schema)") }
        if tlsMode != .prefer { parameters.append("sslmode=\(tlsMode.rawValue)") }
        return "postgres://\(user)@\(host):\(port)/\(database)" + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
    }
}
