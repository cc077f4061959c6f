import BoardArchive
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// A local implementation of the board API (`/api/v2`) for the demo, tests and benchmarks, with the pictures post
/// bodies show under `/media/` on the same origin (see ``FixtureMedia``).
///
/// Runs a Hummingbird 2 application inside a `ServiceGroup`; ``stop()`` shuts it down gracefully.
/// ```swift
/// let server = try await FixtureServer.start(.init(dataset: try FixtureDataset.bundledDemo()))
/// defer { Task { await server.stop() } }
/// let url = server.baseURL  // http://127.0.0.1:54321/api/v2
/// ```
public final class FixtureServer: Sendable {
    /// The API's base URL, e.g. `http://127.0.0.1:54321/api/v2`, with the port actually bound.
    public let baseURL: URL
    /// The port actually bound.
    public let port: Int
    /// The server's origin, e.g. `http://127.0.0.1:54321`: picture addresses (`/media/…`) resolve against it.
    public let origin: URL
    private let state: FixtureState
    private let group: ServiceGroup
    private let runTask: Task<Void, any Error>

    private init(baseURL: URL, origin: URL, port: Int, state: FixtureState, group: ServiceGroup, runTask: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.origin = origin
        self.port = port
        self.state = state
        self.group = group
        self.runTask = runTask
    }

    /// Binds the configured address and starts serving; returns once the server accepts connections.
    ///
    /// - Parameters:
    ///   - configuration: Address, dataset, faults and token.
    ///   - stopsOnSignals: When `true`, `SIGINT` and `SIGTERM` shut the server down gracefully (for the command line).
    ///   - logger: Where Hummingbird logs; silent by default.
    /// - Throws: ``FixtureServerError`` when the address cannot be bound.
    public static func start(
        _ configuration: FixtureServerConfiguration, stopsOnSignals: Bool = false,
        logger: Logger = Logger(label: "FixtureAPI", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> FixtureServer {
        let state = FixtureState(dataset: configuration.dataset, drift: configuration.faults.offsetDrift)
        let media = FixtureMediaResponder(
            state: state, faults: configuration.faults, token: configuration.token, otherOrigin: configuration.otherOrigin,
            oversizedImageBytes: configuration.oversizedImageBytes)
        let responder = FixtureResponder(
            state: state, faults: configuration.faults, token: configuration.token, maximumLimit: configuration.maximumLimit, media: media)
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let application = Application(
            responder: responder,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? configuration.port)
            },
            logger: logger)
        let group = ServiceGroup(
            configuration: .init(
                services: [application], gracefulShutdownSignals: stopsOnSignals ? [.sigterm, .sigint] : [], logger: logger))
        let runTask = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            let detail: String
            do {
                try await runTask.value
                detail = "the server stopped before it was listening"
            } catch {
                detail = String(describing: error)
            }
            throw FixtureServerError(address: "\(configuration.host):\(configuration.port)", reason: .cannotBind(detail))
        }
        var components = URLComponents()
        components.scheme = "http"
        components.host = configuration.host
        components.port = port
        let origin = components.url
        components.path = "/api/v2"
        guard let url = components.url, let origin else {
            await group.triggerGracefulShutdown()
            throw FixtureServerError(address: "\(configuration.host):\(port)", reason: .invalidHost)
        }
        return FixtureServer(baseURL: url, origin: origin, port: port, state: state, group: group, runTask: runTask)
    }

    /// How many API requests arrived so far, whatever their answer (`/media/` requests are not counted).
    public var requestCount: Int {
        get async { await state.requestCount }
    }

    /// Every API request's path and query (`/api/v2/boards/7/posts?offset=0&limit=30`), in arrival order.
    public var requestTargets: [String] {
        get async { await state.targets }
    }

    /// How many answers were sent per HTTP status (truncated bodies count as 200; dropped connections are not counted).
    public var statusCounts: [Int: Int] {
        get async { await state.statusCounts }
    }

    /// How many connections were dropped without an answer.
    public var droppedConnectionCount: Int {
        get async { await state.droppedConnectionCount }
    }

    /// How many `200` answers had their body cut in half.
    public var truncatedResponseCount: Int {
        get async { await state.truncatedResponseCount }
    }

    /// Every `/media/` request so far, in arrival order: its path and whether it carried an `Authorization` header.
    public var mediaRequests: [FixtureMediaRequest] {
        get async { await state.mediaRequests }
    }

    /// How many `/media/` requests arrived so far, whatever their answer.
    public var mediaRequestCount: Int {
        get async { await state.mediaRequests.count }
    }

    /// The boards and posts as served now, after any offset drift (posts per board in the server's order).
    public var dataset: FixtureDataset {
        get async { await state.currentDataset() }
    }

    /// Serves `dataset` from now on, as a board API whose posts changed between two crawls; request counters are kept.
    public func replaceDataset(with dataset: FixtureDataset) async {
        await state.replace(with: dataset)
    }

    /// Stops accepting connections, finishes in-flight requests and waits until the server is down. Safe to call twice.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await runTask.value
    }

    /// Waits until the server stops (after ``stop()`` or, with `stopsOnSignals`, `SIGINT`/`SIGTERM`); rethrows a failure.
    public func waitUntilStopped() async throws {
        try await runTask.value
    }
}

/// An error raised while starting a ``FixtureServer``.
public struct FixtureServerError: Error, Equatable, Sendable, LocalizedError {
    public enum Reason: Equatable, Sendable {
        /// Binding failed; the detail is the system's message.
        case cannotBind(String)
        /// The host cannot form a URL.
        case invalidHost
    }

    /// The address the server tried to bind, `host:port`.
    public var address: String
    public var reason: Reason

    public var errorDescription: String? {
        switch reason {
        case .cannotBind(let detail):
            return "The fixture API could not listen on \(address): \(detail). Choose another --port or --host."
        case .invalidHost:
            return "The fixture API host in \(address) does not form a valid URL; use an IP address or host name."
        }
    }
}
