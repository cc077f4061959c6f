import BoardArchive
import FixtureAPI
import Foundation
import GRDB
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Pictures in posts (issue 28), over real HTTP: the crawler fetches what bodies show from the fixture API (and from a
/// second fixture server standing for another host), keeps each picture once, refuses what it must, and the build
/// publishes the kept ones under `media/`.
@Suite("Pictures kept at crawl time and published")
struct PictureCrawlTests {
    /// A board of posts whose bodies are `bodies`, ids from 100.
    static func dataset(_ bodies: [String]) -> FixtureDataset {
        let board = Board(boardId: 7, displayName: "사진 게시판", orderNo: 1)
        let posts = bodies.enumerated().map { index, body in
            Post(
                postId: 100 + index, title: "사진 \(index)", boardId: 7, boardDisplayName: "사진 게시판", writer: Writer(displayName: "작성자"),
                contents: body, createdDateTime: Date(timeIntervalSince1970: 1_790_000_000 + Double(index) * 60), hasInlineImage: true)
        }
        return FixtureDataset(referenceDate: Date(timeIntervalSince1970: 1_790_100_000), boards: [board], posts: posts)
    }

    /// Runs `body` with the API server (serving `bodies`, built once the other server's address is known) and another
    /// host, stopping both and the transport on every path.
    func withServers<T>(
        _ bodies: @escaping (URL) -> [String], faults: FixtureFaults = .none,
        _ body: (_ api: FixtureServer, _ other: FixtureServer, _ transport: AsyncHTTPTransport) async throws -> T
    ) async throws -> T {
        let other = try await FixtureServer.start(FixtureServerConfiguration(dataset: Self.dataset([])))
        let otherOrigin = try #require(URL(string: "http://127.0.0.1:\(other.port)"))
        var configuration = FixtureServerConfiguration(dataset: Self.dataset(bodies(otherOrigin)), faults: faults, token: testToken)
        configuration.otherOrigin = otherOrigin
        configuration.oversizedImageBytes = 3 << 20
        let api: FixtureServer
        do { api = try await FixtureServer.start(configuration) } catch {
            await other.stop()
            throw error
        }
        let transport = testTransport()
        defer {
            Task {
                try? await transport.shutdown()
                await api.stop()
                await other.stop()
            }
        }
        return try await body(api, other, transport)
    }

    func crawl(
        _ api: FixtureServer, _ transport: AsyncHTTPTransport, store: any ArchiveDatabase, media: MediaConfiguration,
        logs: CapturedLogs = CapturedLogs(), full: Bool = false
    ) async throws -> CrawlReport {
        var configuration = CrawlConfiguration(
            api: api.baseURL, token: try #require(APIToken(testToken)), retryPolicy: fastRetries, readsEverything: full)
        configuration.media = media
        return try await Crawler(configuration: configuration, transport: transport, store: store, logger: logs.logger()).run()
    }

    /// A build of `store` into `folder` at the site fixture's clock.
    @discardableResult
    func build(_ store: any ArchiveSource, into folder: URL, baseURL: URL? = nil) async throws -> BuildReport {
        var configuration = BuildConfiguration(
            outputDirectory: folder, templatesDirectory: SiteFixture.templatesDirectory, now: SiteFixture.now, timeZone: SiteFixture.seoul)
        configuration.baseURL = baseURL
        return try await SiteBuilder(configuration: configuration, store: store, logger: .init(label: "test")).build()
    }

    func state(_ store: any ArchiveDatabase, _ address: String) throws -> MediaSourceState? {
        try store.mediaSources().first { $0.address == address }
    }

    @Test("pictures are kept once each, published under media/, and an unchanged crawl asks for none", arguments: StoreBackend.allCases)
    func keptAndPublished(backend: StoreBackend) async throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        let output = try TemporaryFolder()
        defer { output.remove() }
        try await withServers({ _ in
            [
                "바다\n\n![바다 사진](/media/demo/sea.jpg \"동해\")",
                // The same picture by the same address, and by another address (a redirect) that serves the same bytes.
                "같은 사진\n\n![다시](/media/demo/sea.jpg)\n\n<img src=\"/media/fault/redirect-same/demo/sea.jpg\" alt=\"또 바다\">",
                "생성 그림 ![하나](/media/gen/1.png) 과 ![둘](/media/gen/2.png)",
            ]
        }) { api, _, transport in
            let report = try await crawl(api, transport, store: store, media: MediaConfiguration())
            #expect(report.media.kept == 4, "\(report.summary)")
            #expect(report.media.notKept == 0)
            #expect(report.summary.contains("4 pictures kept"))
            // sea.jpg once (two addresses, one copy), gen 1 and gen 2.
            #expect(try store.keptMediaTotals().images == 3)
            #expect(try store.mediaAddresses(ofPost: 101) == ["/media/demo/sea.jpg", "/media/fault/redirect-same/demo/sea.jpg"])
            let requests = await api.mediaRequests
            // The API's own origin gets the token, every hop.
            #expect(!requests.isEmpty && requests.allSatisfy(\.hadAuthorization))
            let before = await api.mediaRequestCount
            let again = try await crawl(api, transport, store: store, media: MediaConfiguration())
            #expect(await api.mediaRequestCount == before, "an unchanged crawl asked for a picture again")
            #expect(again.media.tried == 0)
        }
        let site = output.url.appendingPathComponent("site")
        let first = try await build(store, into: site, baseURL: URL(string: "https://archive.example.org/"))
        let files = try FileManager.default.subpathsOfDirectory(atPath: site.appendingPathComponent("media").path).filter { $0.contains(".") }
        #expect(files.count == 3, "\(files)")
        #expect(first.files[.media] == 3)
        let page = try String(contentsOf: site.appendingPathComponent("posts/100.html"), encoding: .utf8)
        let sea = try #require(try store.mediaSources().first { $0.address == "/media/demo/sea.jpg" }?.hash)
        #expect(page.contains("<img src=\"../media/\(sea.prefix(2))/\(sea).jpg\" alt=\"바다 사진\" width=\""))
        #expect(page.contains("loading=\"lazy\""))
        #expect(!page.contains("/media/demo/sea.jpg"), "the source address is still shown")
        let stored = try #require(try store.snapshot(pseudonyms: nil).mediaBytes(hash: sea))
        #expect(try Data(contentsOf: site.appendingPathComponent("media/\(sea.prefix(2))/\(sea).jpg")) == Data(stored))
        let html = try String(contentsOf: site.appendingPathComponent("posts/101.html"), encoding: .utf8)
        #expect(html.components(separatedBy: "\(sea).jpg").count - 1 == 2)
        #expect(html.contains("alt=\"또 바다\""))
        // Feeds show the pictures at their published addresses.
        let feed = try String(contentsOf: site.appendingPathComponent("feed.xml"), encoding: .utf8)
        #expect(feed.contains("https://archive.example.org/media/\(sea.prefix(2))/\(sea).jpg"))
        // A second build writes no picture again.
        let second = try await build(store, into: site, baseURL: URL(string: "https://archive.example.org/"))
        #expect(second.written == 0)
    }

    @Test("each refusal and failure is a warning naming the post and the address, and the text keeps the address")
    func refusals() async throws {
        let store = try ArchiveStore.inMemory()
        let logs = CapturedLogs()
        try await withServers({ other in
            [
                "![svg](/media/fault/script.svg)",
                "![disguised](/media/fault/disguised-svg.png)",
                "![big](/media/fault/oversized.png)",
                "![big2](/media/fault/oversized-unannounced.png)",
                "![html](/media/fault/wrong-type.png)",
                "![gone](/media/fault/missing.png)",
                "![loop](/media/fault/loop.png)",
                "![elsewhere](/media/fault/redirect-other/gen/3.png)",
                "![other host](\(other.absoluteString)/media/gen/4.png)",
                "![private](http://localhost:\(other.port ?? 0)/media/gen/5.png)",
            ]
        }) { api, other, transport in
            let media = MediaConfiguration(allowedHosts: ["*"], maxImageBytes: 2 << 20)
            let report = try await crawl(api, transport, store: store, media: media, logs: logs)
            let sources = try store.mediaSources()
            #expect(report.media.kept == 0, "\(sources)")
            #expect(report.media.notKept == 10)
            let reasons: [(String, String, MediaStatus)] = [
                ("/media/fault/script.svg", "SVG", .failed),
                ("/media/fault/disguised-svg.png", "SVG", .failed),
                ("/media/fault/oversized.png", "larger than the limit of 2097152 bytes", .failed),
                ("/media/fault/oversized-unannounced.png", "larger than the limit of 2097152 bytes", .failed),
                ("/media/fault/wrong-type.png", "is not a PNG, JPEG, GIF, WebP or AVIF", .failed),
                ("/media/fault/missing.png", "answered HTTP 404", .failed),
                ("/media/fault/loop.png", "redirects more than 5 times", .failed),
                ("/media/fault/redirect-other/gen/3.png", "loopback, private or link-local", .refused),
                ("\(other.baseURL.scheme ?? "http")://127.0.0.1:\(other.port)/media/gen/4.png", "loopback, private or link-local", .refused),
                ("http://localhost:\(other.port)/media/gen/5.png", "loopback, private or link-local", .refused),
            ]
            for (address, reason, status) in reasons {
                let found = try #require(try state(store, address), "\(address)")
                #expect(found.status == status, "\(address): \(found)")
                #expect(found.reason?.contains(reason) == true, "\(address): \(found.reason ?? "")")
                #expect(logs.all.contains { $0.contains("Picture not kept") && $0.contains(address) }, "no warning for \(address)")
            }
            // Nothing reached the other host: refused before any request.
            #expect(await other.mediaRequestCount == 0)
            // A failure waits before it is tried again; a refusal is decided again on the next run (without a request).
            #expect(try state(store, "/media/fault/missing.png")?.nextAttempt.map { $0 > Date().addingTimeInterval(1_800) } == true)
            let count = await api.mediaRequestCount
            let warned = logs.all.count { $0.contains("Picture not kept") }
            let again = try await crawl(api, transport, store: store, media: media, logs: logs)
            #expect(again.media.tried == 3)
            #expect(await api.mediaRequestCount == count + 1, "only the redirect to the other host is asked again")
            // The same refusals again make one line, not a warning each.
            #expect(logs.all.count { $0.contains("Picture not kept") } == warned)
            #expect(logs.all.contains { $0.contains("Pictures still refused") && $0.contains("\"pictures\": 3") })
        }
        // The post keeps today's text and address for a picture not kept.
        let snapshot = try store.snapshot(pseudonyms: nil)
        let html = MarkdownRenderer().render(
            try #require(try snapshot.posts(ids: [105])[105]).contents, pictures: .init(try snapshot.mediaUses()[105] ?? [], root: "../"))
        #expect(html.contains("inert-image") && html.contains("gone"))
    }

    @Test("the token goes only to the API's origin, never to another host, nor after a redirect to one")
    func tokenStaysHome() async throws {
        let store = try ArchiveStore.inMemory()
        try await withServers({ other in
            ["![api](/media/gen/1.png)", "![other](\(other.absoluteString)/media/gen/2.png)", "![redirected](/media/fault/redirect-other/gen/3.png)"]
        }) { api, other, transport in
            let media = MediaConfiguration(allowedHosts: ["127.0.0.1:\(other.port)"])
            let report = try await crawl(api, transport, store: store, media: media)
            let sources = try store.mediaSources()
            #expect(report.media.kept == 3, "\(sources)")
            let atOther = await other.mediaRequests
            #expect(atOther.map(\.path).sorted() == ["/media/gen/2.png", "/media/gen/3.png"])
            #expect(atOther.allSatisfy { !$0.hadAuthorization }, "the token reached another host")
            let atAPI = await api.mediaRequests
            #expect(atAPI.count == 2 && atAPI.allSatisfy(\.hadAuthorization))
        }
    }

    @Test("a purged post's pictures leave the store unless another published post shows them; a removed post's leave the site")
    func redactionAndPurge() async throws {
        let store = try ArchiveStore.inMemory()
        let output = try TemporaryFolder()
        defer { output.remove() }
        try await withServers({ _ in
            ["![혼자](/media/gen/10.png)", "![같이](/media/gen/11.png)", "![같이](/media/gen/11.png) 다른 글", "![숨김](/media/gen/12.png)"]
        }) { api, _, transport in
            _ = try await crawl(api, transport, store: store, media: MediaConfiguration())
        }
        #expect(try store.keptMediaTotals().images == 3)
        let hash = { (address: String) in try store.mediaSources().first { $0.address == address }?.hash }
        let alone = try #require(try hash("/media/gen/10.png"))
        let shared = try #require(try hash("/media/gen/11.png"))
        let hidden = try #require(try hash("/media/gen/12.png"))
        _ = try store.redact(RedactionRequest(target: .post(103), reason: "test"), at: Date())
        _ = try store.redact(RedactionRequest(target: .post(100), purge: true, reason: "test"), at: Date())
        _ = try store.redact(RedactionRequest(target: .post(101), purge: true, reason: "test"), at: Date())
        let snapshot = try store.snapshot(pseudonyms: nil)
        #expect(try snapshot.mediaBytes(hash: alone) == nil, "a purged post's only picture is still stored")
        #expect(try snapshot.mediaBytes(hash: shared) != nil, "a picture another published post shows was deleted")
        #expect(try snapshot.mediaBytes(hash: hidden) != nil, "removal without purge keeps the picture in the store")
        #expect(try store.mediaSources().first { $0.address == "/media/gen/10.png" }?.status == .purged)
        #expect(Set(try snapshot.publishedMedia().map(\.hash)) == [shared])
        try await build(store, into: output.url.appendingPathComponent("site"))
        let files = try FileManager.default.subpathsOfDirectory(atPath: output.url.appendingPathComponent("site/media").path).filter {
            $0.contains(".")
        }
        #expect(files == ["\(shared.prefix(2))/\(shared).png"])
    }

    @Test("an archive crawled before pictures were kept has its stored posts read once")
    func storedPostsReadOnce() async throws {
        let store = try ArchiveStore.inMemory()
        try await withServers({ _ in ["![하나](/media/gen/20.png)", "글자만"] }) { api, _, transport in
            let off = try await crawl(api, transport, store: store, media: MediaConfiguration(enabled: false))
            #expect(off.media.tried == 0)
            #expect(await api.mediaRequestCount == 0)
            let on = try await crawl(api, transport, store: store, media: MediaConfiguration())
            #expect(on.media.postsScanned == 1)
            #expect(on.media.kept == 1)
            let again = try await crawl(api, transport, store: store, media: MediaConfiguration())
            #expect(again.media.postsScanned == 0 && again.media.tried == 0)
        }
    }

    @Test("a post's limits: pictures past the count or the bytes stay as text")
    func perPostLimits() async throws {
        let store = try ArchiveStore.inMemory()
        let logs = CapturedLogs()
        let bodies = [
            "![a](/media/gen/30.png) ![b](/media/gen/31.png) ![c](/media/gen/32.png)",
            // Two demo pictures (9,810 and 1,545 bytes) in a post allowed 10,000 bytes: the second does not fit beside the first.
            "![바다](/media/demo/sea.jpg) ![노을](/media/demo/sunset.gif)",
        ]
        try await withServers({ _ in bodies }) { api, _, transport in
            let media = MediaConfiguration(maxImagesPerPost: 2, maxPostBytes: 10_000)
            let report = try await crawl(api, transport, store: store, media: media, logs: logs)
            #expect(try store.mediaAddresses(ofPost: 100) == ["/media/gen/30.png", "/media/gen/31.png"])
            #expect(logs.all.contains { $0.contains("more pictures than media.max-images-per-post") && $0.contains("\"post\": 100") })
            let sources = try store.mediaSources()
            #expect(report.media.kept == 3, "\(sources)")
            let missed = sources.filter { $0.status != .kept }
            #expect(missed.count == 1 && missed.first?.reason?.contains("post's limit of 10000") == true, "\(missed)")
        }
    }

    @Test("a picture an edited post no longer shows goes with a purge, and --media off forgets a changed post's pictures")
    func editsAndPurge() async throws {
        let store = try ArchiveStore.inMemory()
        try await withServers({ _ in ["처음 ![옛 사진](/media/gen/60.png)", "다른 글 ![그대로](/media/gen/62.png)"] }) { api, _, transport in
            _ = try await crawl(api, transport, store: store, media: MediaConfiguration())
            var dataset = await api.dataset
            for index in dataset.posts.indices {
                dataset.posts[index].contents =
                    dataset.posts[index].postId == 100 ? "고친 글 ![새 사진](/media/gen/61.png)" : "다른 글, 고침 ![새로](/media/gen/63.png)"
            }
            await api.replaceDataset(with: dataset)
            // Read without pictures: the changed posts' earlier addresses are forgotten, so a later crawl reads them again.
            _ = try await crawl(api, transport, store: store, media: MediaConfiguration(enabled: false), full: true)
            #expect(try store.mediaAddresses(ofPost: 100).isEmpty && store.mediaAddresses(ofPost: 101).isEmpty)
            let report = try await crawl(api, transport, store: store, media: MediaConfiguration(), full: true)
            #expect(report.media.postsScanned == 2 && report.media.kept == 2, "\(report.media)")
            #expect(try store.mediaAddresses(ofPost: 100) == ["/media/gen/61.png"] && store.mediaAddresses(ofPost: 101) == ["/media/gen/63.png"])
        }
        let old = try #require(try state(store, "/media/gen/60.png")?.hash)
        #expect(try store.snapshot(pseudonyms: nil).mediaBytes(hash: old) != nil)
        _ = try store.redact(RedactionRequest(target: .post(100), purge: true, reason: "test"), at: Date())
        let snapshot = try store.snapshot(pseudonyms: nil)
        #expect(try snapshot.mediaBytes(hash: old) == nil, "the picture an earlier version showed survived the purge")
        #expect(try state(store, "/media/gen/60.png")?.status == .purged && state(store, "/media/gen/61.png")?.status == .purged)
        #expect(try state(store, "/media/gen/63.png")?.status == .kept)
    }

    @Test("a post cannot forge a picture marker with a character reference, and over-long addresses stay text")
    func markersAndLongAddresses() throws {
        let image = PublishedImage(address: "/a.png", hash: String(repeating: "ab", count: 32), format: .png, width: 4, height: 3)
        let pictures = MarkdownRenderer.Pictures([image], root: "../")
        let html = MarkdownRenderer().render("![그림](/a.png) 가짜 &#xFDD4;0&#xFDD4; 2024 [링크](https://e.example) &#xFDD0;", pictures: pictures)
        #expect(html.components(separatedBy: "<img ").count == 2, "\(html)")
        #expect(html.contains("2024"))
        #expect(html.components(separatedBy: "<span class=\"inert-link\">").count == 2, "\(html)")
        let long = "/" + String(repeating: "a", count: 2_100) + ".png"
        #expect(MarkdownRenderer().pictureAddresses(in: "![긴](\(long)) ![짧은](/b.png)") == ["/b.png"])
    }

    @Test("internal addresses are refused, IPv4 inside IPv6 included; public ones are not")
    func internalAddresses() {
        for address in [
            "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "198.18.0.1",
            "192.0.2.1", "::1", "::", "::ffff:127.0.0.1", "::7f00:1", "64:ff9b::a00:1", "2002:c0a8:101::1", "fe80::1", "fec0::1", "fd00::1",
            "ff02::1", "2001:db8::1", "not an address",
        ] {
            #expect(MediaPolicy.isInternal(address), "\(address)")
        }
        for address in ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"] {
            #expect(!MediaPolicy.isInternal(address), "\(address)")
        }
    }

    @Test("store copy moves the pictures to PostgreSQL and back, byte for byte, and a purge there deletes them")
    func copiedBothWays() async throws {
        guard let server = PostgresTestServer.current() else { return }
        let store = try ArchiveStore.inMemory()
        try await withServers({ _ in ["![하나](/media/demo/sea.jpg) ![둘](/media/gen/40.png)", "![셋](/media/demo/flower.png)"] }) { api, _, transport in
            _ = try await crawl(api, transport, store: store, media: MediaConfiguration())
        }
        try server.withFreshDatabase { connector in
            let archive = try PostgresArchive.open(connector, creating: true)
            defer { archive.close() }
            let report = try ArchiveCopy.run(from: .sqlite(store), to: .postgres(archive), resume: false)
            #expect(report.copied["media"] == 3 && report.copied["post_media"] == 3 && report.copied["media_source"] == 3)
            let (lite, pg) = (try store.snapshot(pseudonyms: nil), try archive.snapshot(pseudonyms: nil))
            #expect(try pg.mediaUses() == lite.mediaUses())
            for image in try lite.publishedMedia() {
                let bytes = try #require(try lite.mediaBytes(hash: image.hash))
                #expect(try pg.mediaBytes(hash: image.hash) == bytes)
            }
            let back = try ArchiveStore.inMemory()
            _ = try ArchiveCopy.run(from: .postgres(archive), to: .sqlite(back), resume: false)
            #expect(try back.mediaSources() == store.mediaSources())
            _ = try archive.redact(RedactionRequest(target: .post(101), purge: true, reason: "test"), at: Date())
            let flower = try #require(try archive.mediaSources().first { $0.address == "/media/demo/flower.png" })
            #expect(flower.status == .purged && flower.hash == nil)
            #expect(try archive.keptMediaTotals().images == 2)
        }
    }

    // SQLite only: a store written by the boardarchive before pictures (schema 6) migrates; its posts are read once.
    @Test("a store at schema 6 migrates to pictures, and its stored posts are read for pictures once")
    func aStoreBeforePicturesMigrates() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("archive.sqlite")
        do {
            let queue = try DatabaseQueue(path: path)
            try ArchiveStore.migrator.migrate(queue, upTo: "v6-versions")
            try queue.write { db in
                for (id, contents) in [(905, "사진 ![옛 사진](/media/gen/50.png)"), (906, "`![코드 속](/media/gen/51.png)`"), (907, "글자만")] {
                    try db.execute(
                        sql: """
                            INSERT INTO post (postId, boardId, title, writerName, contents, createdAt, viewCount, postType, commentsCount,
                                attachmentsCount, isAnonymous, raw, contentHash, firstSeen, lastSeen)
                            VALUES (?, 1, '옛 글', '홍길동', ?, 1714521600, 0, 'normal', 0, 0, 0, '{}', 'old', 0, 0)
                            """, arguments: [id, contents])
                }
            }
        }
        let store = try ArchiveStore(path: path)
        #expect(try store.schemaVersion() == 7)
        #expect(try !store.mediaScanned())
        // 905 and 906 may show a picture; the one in a code span is text, so only 905 has an address.
        let media = MediaReferencing { MarkdownRenderer().pictureAddresses(in: $0.contents) }
        #expect(try store.referStoredPosts(media: media, at: Date()) == 2)
        #expect(try store.mediaAddresses(ofPost: 905) == ["/media/gen/50.png"])
        #expect(try store.mediaAddresses(ofPost: 906).isEmpty)
        #expect(try store.mediaScanned())
        #expect(try store.mediaSources().map(\.status) == [.pending])
    }

    @Test("a picture kept after a build: the next build shows it, as a full build of the same store does", arguments: StoreBackend.allCases)
    func keptLaterRebuildsItsPage(backend: StoreBackend) async throws {
        let test = try TestStore(backend)
        defer { test.remove() }
        let store = test.database
        let output = try TemporaryFolder()
        defer { output.remove() }
        func build(_ name: String) async throws -> BuildReport { try await self.build(store, into: output.url.appendingPathComponent(name)) }
        try await withServers({ _ in ["나중에 ![사진](/media/gen/70.png)", "글자만"] }) { api, _, transport in
            _ = try await crawl(api, transport, store: store, media: MediaConfiguration(enabled: false))
            _ = try await build("site")
            let before = try String(contentsOf: output.url.appendingPathComponent("site/posts/100.html"), encoding: .utf8)
            #expect(!before.contains("<img "))
            _ = try await crawl(api, transport, store: store, media: MediaConfiguration())
        }
        let report = try await build("site")
        #expect(report.files[.media] == 1)
        let after = try SiteFixture.files(under: output.url.appendingPathComponent("site"))
        #expect(String(decoding: after["posts/100.html"] ?? Data(), as: UTF8.self).contains("<img "))
        _ = try await build("full")
        let full = try SiteFixture.files(under: output.url.appendingPathComponent("full"))
        #expect(after == full, "the incremental build differs from a full build of the same store")
    }
}
