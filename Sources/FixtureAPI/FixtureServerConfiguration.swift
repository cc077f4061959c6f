import Foundation

/// Everything a ``FixtureServer`` needs to start.
public struct FixtureServerConfiguration: Sendable {
    /// The default of ``oversizedImageBytes``: 12 MiB.
    public static let defaultOversizedImageBytes = 12 << 20

    /// The address to bind. Default `127.0.0.1`.
    public var host: String
    /// The port to bind; 0 picks a free port (read it from ``FixtureServer/baseURL``). Default 0.
    public var port: Int
    /// The boards and posts to serve.
    public var dataset: FixtureDataset
    /// Faults to inject. Default none.
    public var faults: FixtureFaults
    /// The accepted bearer token; `nil` accepts any non-empty token. Any other request answers `401`. Default `nil`.
    public var token: String?
    /// The largest `limit` accepted; a larger one answers `400`. Default 1000.
    public var maximumLimit: Int
    /// The origin `/media/fault/redirect-other/<rest>` redirects to (`otherOrigin` + `/media/<rest>`), e.g. a second
    /// fixture server's ``FixtureServer/origin``. Default `nil`: that fault answers `404`.
    public var otherOrigin: URL?
    /// The whole size of the oversized picture faults (`/media/fault/oversized.png` and
    /// `/media/fault/oversized-unannounced.png`), in bytes. Default ``defaultOversizedImageBytes`` (12 MiB).
    public var oversizedImageBytes: Int

    public init(
        host: String = "127.0.0.1", port: Int = 0, dataset: FixtureDataset, faults: FixtureFaults = .none, token: String? = nil,
        maximumLimit: Int = 1_000, otherOrigin: URL? = nil, oversizedImageBytes: Int = FixtureServerConfiguration.defaultOversizedImageBytes
    ) {
        self.host = host
        self.port = port
        self.dataset = dataset
        self.faults = faults
        self.token = token
        self.maximumLimit = maximumLimit
        self.otherOrigin = otherOrigin
        self.oversizedImageBytes = oversizedImageBytes
    }
}
