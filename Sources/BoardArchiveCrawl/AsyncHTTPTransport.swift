import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The real transport, on async-http-client. Call `shutdown()` on every path once done.
public final class AsyncHTTPTransport: HTTPTransport {
    private let client: HTTPClient
    /// The client for pictures: it follows no redirect, so that every hop is checked (``MediaPolicy``).
    private let pictureClient: HTTPClient
    /// The largest body accepted, in bytes (default 64 MiB); a larger one is an error, not an out-of-memory.
    private let maxBodyBytes: Int

    /// - Parameters:
    ///   - connectTimeout: Time allowed to connect (default 10 s).
    ///   - readTimeout: The longest silence while a response is arriving (default 30 s): a server that sends headers
    ///     and then stalls fails the attempt instead of hanging the crawl.
    ///   - maxBodyBytes: The largest body accepted (default 64 MiB).
    public init(connectTimeout: Duration = .seconds(10), readTimeout: Duration = .seconds(30), maxBodyBytes: Int = 64 << 20) {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .milliseconds(Int64(connectTimeout.components.seconds * 1_000))
        configuration.timeout.read = .milliseconds(
            max(1, Int64(readTimeout.components.seconds * 1_000) + readTimeout.components.attoseconds / 1_000_000_000_000_000))
        configuration.redirectConfiguration = .follow(max: 3, allowCycles: false)
        configuration.decompression = .enabled(limit: .ratio(20))
        // The client's own retry policy decides about failed connections; AHC would otherwise keep re-dialling a
        // refused port silently until the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        pictureClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.maxBodyBytes = maxBodyBytes
    }

    public func get(_ url: URL, headers: [String: String], timeout: Duration) async throws -> HTTPResponse {
        let (response, fields) = try await Self.send(url, headers: headers, timeout: timeout, on: client)
        let body = try await response.body.collect(upTo: maxBodyBytes)
        return HTTPResponse(status: Int(response.status.code), headers: fields, body: Data(body.readableBytesView))
    }

    public func getPicture(_ url: URL, headers: [String: String], timeout: Duration, maxBodyBytes: Int) async throws -> HTTPResponse {
        let (response, fields) = try await Self.send(url, headers: headers, timeout: timeout, on: pictureClient)
        let status = Int(response.status.code)
        guard (200..<300).contains(status) else { return HTTPResponse(status: status, headers: fields) }
        // An announced length past the limit is refused before any of the body is read.
        if let length = fields["content-length"].flatMap(Int.init), length > maxBodyBytes { throw MediaBodyTooLarge(limit: maxBodyBytes) }
        var body: [UInt8] = []
        for try await chunk in response.body {
            guard body.count + chunk.readableBytes <= maxBodyBytes else { throw MediaBodyTooLarge(limit: maxBodyBytes) }
            body.append(contentsOf: chunk.readableBytesView)
        }
        return HTTPResponse(status: status, headers: fields, body: Data(body))
    }

    /// Sends a `GET` on `client`: the response (its body not read yet) and its headers, names lower-cased.
    private static func send(
        _ url: URL, headers: [String: String], timeout: Duration, on client: HTTPClient
    ) async throws -> (HTTPClientResponse, [String: String]) {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let millis = timeout.components.seconds * 1_000 + timeout.components.attoseconds / 1_000_000_000_000_000
        let response = try await client.execute(request, timeout: .milliseconds(millis))
        var fields: [String: String] = [:]
        for header in response.headers { fields[header.name.lowercased()] = header.value }
        return (response, fields)
    }

    /// Shuts the underlying clients down; the transport cannot be used afterwards.
    public func shutdown() async throws {
        try await client.shutdown()
        try await pictureClient.shutdown()
    }
}
