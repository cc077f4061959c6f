import Foundation

/// A response as the crawler sees it: status, headers (names lower-cased) and the whole body.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }
}

/// The single seam between the library and the network.
public protocol HTTPTransport: Sendable {
    /// Performs a `GET` and returns the response, whatever its status code; throws only when no response arrived
    /// (timeout, refused or dropped connection).
    func get(_ url: URL, headers: [String: String], timeout: Duration) async throws -> HTTPResponse

    /// Performs a `GET` for a picture: redirects are answered, not followed (each hop is checked by ``MediaPolicy``),
    /// and a body longer than `maxBodyBytes` fails with ``MediaBodyTooLarge`` as soon as it is (never read whole).
    func getPicture(_ url: URL, headers: [String: String], timeout: Duration, maxBodyBytes: Int) async throws -> HTTPResponse
}

/// A picture's body that went past its limit.
public struct MediaBodyTooLarge: Error, Sendable, Equatable {
    public var limit: Int
}

extension HTTPTransport {
    /// ``get(_:headers:timeout:)`` with the body's length checked afterwards (transports that never follow redirects).
    public func getPicture(_ url: URL, headers: [String: String], timeout: Duration, maxBodyBytes: Int) async throws -> HTTPResponse {
        let response = try await get(url, headers: headers, timeout: timeout)
        if response.body.count > maxBodyBytes { throw MediaBodyTooLarge(limit: maxBodyBytes) }
        return response
    }
}

/// A transport answering from a function, for unit tests of the client and crawler without sockets.
public struct InMemoryTransport: HTTPTransport {
    public typealias Handler = @Sendable (_ url: URL, _ headers: [String: String]) async throws -> HTTPResponse
    private let handler: Handler

    public init(_ handler: @escaping Handler) {
        self.handler = handler
    }

    public func get(_ url: URL, headers: [String: String], timeout: Duration) async throws -> HTTPResponse {
        try await handler(url, headers)
    }
}
