import AsyncHTTPClient
import BoardArchive
import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Requests that get no response are explained in plain words and name the URL they went to, without credentials.
@Suite("Transport errors in plain words")
struct CrawlTransportErrorTests {
    /// The error of `GET /boards` against `api` over the real transport.
    func boardsError(at api: String, timeout: Duration = .seconds(10)) async throws -> CrawlError? {
        let url = try #require(URL(string: api))
        let token = try #require(APIToken(testToken))
        let transport = AsyncHTTPTransport(connectTimeout: timeout, readTimeout: timeout)
        let client = BoardAPIClient(
            baseURL: url, token: token, transport: transport,
            retryPolicy: RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(1), maxDelay: .milliseconds(2), requestTimeout: timeout),
            maxRequestsPerSecond: nil,
            logger: CapturedLogs().logger())
        let error = await #expect(throws: CrawlError.self) { _ = try await client.fetchBoards() }
        try await transport.shutdown()
        return error
    }

    @Test func aRefusedPortIsNamedWithTheURL() async throws {
        let error = try await boardsError(at: "http://127.0.0.1:9/api/v2")
        let message = try #require(error?.localizedDescription)
        #expect(message.hasPrefix("GET /boards got no response after 2 attempts over "))
        #expect(message.contains(" s (connection refused at http://127.0.0.1:9/api/v2/boards); check --api and the network"))
        #expect(!message.contains("errno") && !message.contains("error set"))
    }

    /// ``boardsError(at:timeout:)`` against `scheme`://…/api/v2 of a server on NIO's own event loop whose connections
    /// get `handler()`: no task of the cooperative pool stands between a request and the server's answer, so other suites
    /// of the run cannot delay it until a timeout hides it (as the in-process fixture server could on a loaded 2-core
    /// machine). The server is closed however the request ends, so that a failed expectation does not leave the port
    /// bound for the run.
    func boardsError(scheme: String, handler: @escaping @Sendable () -> any ChannelHandler) async throws -> (api: String, error: CrawlError?) {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler()) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let (api, error): (String, CrawlError?)
        do {
            api = "\(scheme)://127.0.0.1:\(try #require(server.localAddress?.port))/api/v2"
            error = try await boardsError(at: api)
        } catch {
            try? await server.close()
            throw error
        }
        try await server.close()
        return (api, error)
    }

    @Test func httpsAgainstAPlainHTTPServerSaysTheTLSHandshakeFailed() async throws {
        let (https, error) = try await boardsError(scheme: "https") { PlainHTTPBadRequest() }
        let message = try #require(error?.localizedDescription)
        #expect(message.contains("(the TLS handshake failed (does the server speak https?) at \(https)/boards)"))
        #expect(!message.contains("BoringSSL") && !message.contains("OPENSSL"))
    }

    @Test func aDroppedConnectionIsSaidSo() async throws {
        // The server closes every connection as soon as a request arrives.
        let (api, error) = try await boardsError(scheme: "http") { CloseOnRequest() }
        let message = error?.localizedDescription ?? ""
        #expect(message.contains("(the server closed the connection without answering at \(api)/boards)"), "\(message)")
    }

    /// Answers the first bytes of a connection, whatever they are, as a plain HTTP server answers a request it cannot
    /// parse (a TLS ClientHello), and closes it.
    final class PlainHTTPBadRequest: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let answer = context.channel.allocator.buffer(string: "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            context.writeAndFlush(wrapOutboundOut(answer)).whenComplete { _ in context.close(promise: nil) }
        }
    }

    /// Closes its connection on the first bytes of a request, without answering.
    final class CloseOnRequest: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        func channelRead(context: ChannelHandlerContext, data: NIOAny) { context.close(promise: nil) }
    }

    @Test func anUnknownHostIsSaidSo() async throws {
        // `.invalid` never resolves (RFC 6761), with or without a network.
        let error = try await boardsError(at: "http://no-such-host.invalid/api/v2")
        #expect(
            error?.localizedDescription.contains(
                "(the host name no-such-host.invalid cannot be resolved at http://no-such-host.invalid/api/v2/boards)") == true)
    }

    @Test func theStacksOwnTextIsRedactedBeforeItIsCut() {
        struct Chatty: Error, CustomStringConvertible {
            var description: String { String(repeating: "x", count: 190) + "Bearer SECRET-TOKEN-VALUE" }
        }
        let text = TransportFailure.describe(Chatty(), redact: { $0.replacingOccurrences(of: "SECRET-TOKEN-VALUE", with: "<redacted>") })
        #expect(!text.contains("SECRET"))
        #expect(text.count == 200)
    }

    @Test(arguments: [
        (HTTPClientError.deadlineExceeded, "no answer within the request timeout"),
        (HTTPClientError.readTimeout, "the server stopped sending mid-answer (read timeout)"),
        (HTTPClientError.connectTimeout, "connecting timed out"),
        (HTTPClientError.remoteConnectionClosed, "the server closed the connection without answering"),
    ])
    func clientErrorsHaveShortPhrases(error: HTTPClientError, phrase: String) {
        #expect(TransportFailure.describe(error) == phrase)
    }

    @Test func errnoErrorsHaveShortPhrases() {
        #expect(TransportFailure.describe(IOError(errnoCode: ECONNREFUSED, reason: "connect")) == "connection refused")
        #expect(TransportFailure.describe(IOError(errnoCode: ECONNRESET, reason: "read")) == "the connection was reset")
        #expect(TransportFailure.describe(ChannelError.connectTimeout(.seconds(10))) == "connecting timed out")
    }

    @Test func theLocationLeavesOutCredentialsAndQuery() throws {
        let url = try #require(URL(string: "https://user:secret@api.example:8443/api/v2/boards/7/posts?offset=30&limit=30#top"))
        #expect(BoardAPIClient.location(of: url) == "https://api.example:8443/api/v2/boards/7/posts")
    }
}
