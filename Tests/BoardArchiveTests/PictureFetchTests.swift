import BoardArchive
import FixtureAPI
import Foundation
import Synchronization
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveStore

/// The picture fetcher's politeness, on an in-memory transport (the end-to-end tests over HTTP are `PictureCrawlTests`):
/// it shares the crawl's client, so `429` waits for its `Retry-After`, `5xx` and dropped connections are retried with
/// the crawl's backoff, and no request starts once a stop is asked for.
@Suite("Pictures: the crawl's politeness")
struct PictureFetchTests {

    /// A store holding one post that shows `addresses`, read for pictures as a crawl reads them.
    static func store(showing addresses: [String]) throws -> ArchiveStore {
        let store = try ArchiveStore.inMemory()
        var post = makePost(1)
        post.contents = addresses.map { "![그림](\($0))" }.joined(separator: " ")
        try store.record(posts: [post], at: Date(), media: MediaReferencing { MarkdownRenderer().pictureAddresses(in: $0.contents) })
        return store
    }

    /// A fetcher over `transport`, which waits with `sleep`.
    static func fetcher(
        _ store: ArchiveStore, transport: any HTTPTransport, sleep: @escaping @Sendable (Duration) async throws -> Void = { _ in },
        stop: CrawlStop = CrawlStop()
    ) throws -> MediaFetcher {
        let base = try #require(URL(string: "http://127.0.0.1:9/api/v2"))
        let client = BoardAPIClient(
            baseURL: base, token: try #require(APIToken(testToken)), transport: transport, retryPolicy: fastRetries, maxRequestsPerSecond: nil,
            logger: CapturedLogs().logger(), sleep: sleep, random: { 0.5 }, stop: stop)
        let configuration = MediaConfiguration()
        return MediaFetcher(
            configuration: configuration, policy: MediaPolicy(api: base, configuration: configuration), client: client, store: store,
            concurrency: 1, logger: CapturedLogs().logger(), now: { Date() }, observe: { _ in },
            storing: { _, body in try body() })
    }

    @Test("429 waits for its Retry-After, 503 and a dropped connection are retried, and the pictures are kept")
    func retriesLikeTheCrawl() async throws {
        let store = try Self.store(showing: ["/p/1.png", "/p/2.png", "/p/3.png"])
        let asked = Mutex<[String: Int]>([:])
        let transport = InMemoryTransport { url, _ in
            let path = url.path
            let attempt = asked.withLock { counts -> Int in
                counts[path, default: 0] += 1
                return counts[path] ?? 1
            }
            switch (path, attempt) {
            case ("/p/1.png", 1): return HTTPResponse(status: 429, headers: ["Retry-After": "2"])
            case ("/p/2.png", 1): return HTTPResponse(status: 503)
            case ("/p/3.png", 1): throw URLError(.networkConnectionLost)
            default:
                return HTTPResponse(status: 200, headers: ["Content-Type": "image/png"], body: Data(FixtureMedia.generatedImage(path.count)))
            }
        }
        let waits = Mutex<[Duration]>([])
        let report = try await Self.fetcher(store, transport: transport) { delay in waits.withLock { $0.append(delay) } }.run()
        #expect(report.kept == 3 && report.notKept == 0)
        #expect(report.requests == 6)
        #expect(asked.withLock { $0 } == ["/p/1.png": 2, "/p/2.png": 2, "/p/3.png": 2])
        let slept = waits.withLock { $0 }
        #expect(slept.contains(.seconds(2)), "429 did not wait for its Retry-After: \(slept)")
        #expect(slept.count == 3)
    }

    @Test("a picture whose server keeps failing is recorded as failed after the crawl's attempts, with its reason")
    func givesUpLikeTheCrawl() async throws {
        let store = try Self.store(showing: ["/p/9.png"])
        let asked = Mutex(0)
        let transport = InMemoryTransport { _, _ in
            asked.withLock { $0 += 1 }
            return HTTPResponse(status: 500)
        }
        let report = try await Self.fetcher(store, transport: transport).run()
        #expect(report.notKept == 1)
        #expect(asked.withLock { $0 } == fastRetries.maxAttempts)
        let source = try #require(try store.mediaSources().first)
        #expect(source.status == .failed && source.reason == "answered HTTP 500" && source.attempts == 1)
    }

    @Test("no picture request starts once a stop is asked for, and the run says it was interrupted")
    func stops() async throws {
        let store = try Self.store(showing: ["/p/1.png"])
        let stop = CrawlStop()
        stop.request()
        let asked = Mutex(0)
        let transport = InMemoryTransport { _, _ in
            asked.withLock { $0 += 1 }
            return HTTPResponse(status: 200)
        }
        await #expect(throws: CrawlError.self) { _ = try await Self.fetcher(store, transport: transport, stop: stop).run() }
        #expect(asked.withLock { $0 } == 0)
        #expect(try store.mediaSources().first?.status == .pending)
    }
}
