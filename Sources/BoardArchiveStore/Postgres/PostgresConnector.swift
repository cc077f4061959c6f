import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// Opens connections to the PostgreSQL server of a store, turning every way it can fail into one ``StoreError``.
///
/// Connections come from postgres-nio on the process's shared event loops and are used through its `EventLoopFuture`
/// API, waited on from the caller's thread: the store's API is synchronous, like the SQLite store's, and the event
/// loops that do the work never wait themselves.
public struct PostgresConnector: Sendable {
    public let url: PostgresStoreURL
    let password: PostgresPassword?
    let logger: Logger

    /// Seconds allowed to connect, authenticate and start TLS.
    static let connectTimeout: Int64 = 10

    public init(url: PostgresStoreURL, password: PostgresPassword?, logger: Logger = Logger(label: "boardarchive.store")) {
        self.url = url
        self.password = password
        self.logger = logger
    }

    /// A new connection, authenticated, on the database the URL names.
    ///
    /// - Throws: ``StoreError``: `unreachable`, `authenticationFailed`, `databaseMissing`, `tlsFailed` or `cannotOpen`,
    ///   never showing the password.
    public func connect() throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: password?.value, database: url.database, tls: try tls())
        configuration.options.connectTimeout = .seconds(Self.connectTimeout)
        // Shown in pg_stat_activity, and in the message of a crawl that finds a board another crawl holds.
        configuration.options.additionalStartupParameters = [("application_name", Self.applicationName)]
        // An archive in a schema of its own reads and writes there on every connection (its name is a checked SQL name).
        if let schema = url.schema { configuration.options.additionalStartupParameters.append(("options", "-c search_path=\(schema)")) }
        // The name checked against the certificate and sent as SNI: a host name only (SNI never carries an address).
        if url.tlsMode == .verifyFull, !Self.isAddressLiteral(url.host) { configuration.options.tlsServerName = url.host }
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        do {
            return try PostgresConnection.connect(on: eventLoop, configuration: configuration, id: 1, logger: logger).wait()
        } catch {
            throw storeError(for: error)
        }
    }

    /// This process as the server's views name it: `boardarchive pid 4242 on runner-7` (at most 63 bytes, as PostgreSQL keeps).
    static let applicationName: String = {
        let name = "boardarchive pid \(getpid()) on \(ProcessInfo.processInfo.hostName)"
        var bytes = 0
        return String(
            name.prefix {
                bytes += $0.utf8.count; return bytes <= 63
            })
    }()

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    static func isAddressLiteral(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1
    }

    /// The TLS mode and context for the URL's `sslmode` and `sslrootcert`.
    private func tls() throws -> PostgresConnection.Configuration.TLS {
        guard url.tlsMode != .disable else { return .disable }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caFile = url.caFile {
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw StoreError(location: url.description, reason: .tlsFailed("its CA file \(caFile) cannot be read"))
            }
            configuration.trustRoots = .file(caFile)
        }
        switch url.tlsMode {
        case .verifyFull: configuration.certificateVerification = .fullVerification
        // libpq: with a root CA file, `require` checks the chain (as verify-ca does), not the host name.
        case .require where url.caFile != nil: configuration.certificateVerification = .noHostnameVerification
        default: configuration.certificateVerification = .none
        }
        do {
            let context = try NIOSSLContext(configuration: configuration)
            return url.tlsMode == .prefer ? .prefer(context) : .require(context)
        } catch {
            throw StoreError(location: url.description, reason: .tlsFailed("its TLS settings cannot be used: \(error)"))
        }
    }

    /// The store error for a failed connection.
    func storeError(for error: any Error) -> StoreError {
        let location = url.description
        if let error = error as? StoreError { return error }
        if let error = error as? PSQLError {
            switch error.code {
            case .sslUnsupported:
                return StoreError(location: location, reason: .tlsFailed("the server does not offer TLS (sslmode=\(url.tlsMode.rawValue))"))
            case .server:
                let state = error.serverInfo?[.sqlState] ?? ""
                let message = error.serverInfo?[.message] ?? "error \(state)"
                switch state {
                case "28P01", "28000": return StoreError(location: location, reason: .authenticationFailed(message))
                case "3D000": return StoreError(location: location, reason: .databaseMissing(url.database))
                default: return StoreError(location: location, reason: .cannotOpen("the server said: \(message)"))
                }
            case .authMechanismRequiresPassword:
                return StoreError(location: location, reason: .authenticationFailed("the server asks for a password and none was given"))
            case .unsupportedAuthMechanism, .saslError:
                return StoreError(location: location, reason: .authenticationFailed("the login could not be completed (\(error.code))"))
            case .connectionError, .serverClosedConnection, .uncleanShutdown:
                if let underlying = error.underlying, underlying is NIOSSLError {
                    return StoreError(location: location, reason: .tlsFailed("the TLS handshake failed: \(underlying)"))
                }
                return StoreError(location: location, reason: .unreachable(Self.plainReason(error.underlying ?? error)))
            default:
                return StoreError(location: location, reason: .cannotOpen("\(error.code)"))
            }
        }
        if error is NIOSSLError { return StoreError(location: location, reason: .tlsFailed("the TLS handshake failed: \(error)")) }
        return StoreError(location: location, reason: .unreachable(Self.plainReason(error)))
    }

    /// A connection failure in a few words (`connection refused`, `timed out`).
    static func plainReason(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        if let error = error as? NIOConnectionError {
            if error.dnsAAAAError != nil || error.dnsAError != nil, error.connectionErrors.isEmpty { return "its host name cannot be resolved" }
            if let first = error.connectionErrors.first { return plainReason(first.error) }
        }
        if error is ChannelError { return "the connection timed out or was closed" }
        return "\(error)"
    }
}
