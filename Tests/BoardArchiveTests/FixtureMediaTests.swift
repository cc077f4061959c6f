import AsyncHTTPClient
import BoardArchive
import FixtureAPI
import Foundation
import Testing

/// The fixture server's pictures under `/media/` over real HTTP on 127.0.0.1:0 (demo pictures, generated pictures and
/// every picture fault, kept apart from the API's faults and counters), and the datasets whose posts show them.
@Suite("Fixture API pictures")
struct FixtureMediaTests {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    // MARK: Demo pictures

    @Test(
        arguments: [
            ("sea.jpg", "image/jpeg", [0xFF, 0xD8, 0xFF]), ("flower.png", "image/png", FixtureMediaTests.pngSignature),
            ("sunset.gif", "image/gif", Array("GIF89a".utf8)), ("forest.webp", "image/webp", Array("RIFF".utf8)),
        ] as [(String, String, [UInt8])])
    func demoPicturesAnswerTheirBundledBytesWithTheirType(name: String, type: String, signature: [UInt8]) async throws {
        try await withMediaServer { fixture in
            let answer = try await fixture.get("/media/demo/" + name)
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == type)
            #expect(answer.header("Content-Length") == String(answer.body.count))
            #expect(answer.body.starts(with: signature))
            #expect(answer.body == FixtureMedia.demoImage(named: name))
            if name.hasSuffix(".webp") { #expect(Array(answer.body[8..<12]) == Array("WEBP".utf8)) }
        }
    }

    @Test func theDemoPicturesAreFourSmallFiles() {
        #expect(FixtureMedia.demoImageNames == ["flower.png", "forest.webp", "sea.jpg", "sunset.gif"])
        let sizes = FixtureMedia.demoImageNames.map { FixtureMedia.demoImage(named: $0)?.count ?? 0 }
        #expect(sizes.allSatisfy { $0 > 500 }, "\(sizes)")
        #expect(sizes.reduce(0, +) < 60_000, "\(sizes)")
    }

    @Test(arguments: [
        "/media/demo/nothing.png", "/media/demo/", "/media/demo/sea.jpg/x", "/media/demo/%2E%2E%2Fdemo-dataset.json",
        "/media/", "/media/other/sea.jpg", "/media/gen/-1.png", "/media/gen/01.png", "/media/gen/x.png", "/media/gen/1.jpg",
        "/media/gen/1", "/media/gen/1.png/2",
        "/media/fault/nothing.png", "/media/fault/slow/x/1.png", "/media/fault/slow/10/1.jpg", "/media/fault/redirect-same/",
    ])
    func unknownPicturesAnswer404WithoutAToken(path: String) async throws {
        try await withMediaServer { fixture in
            let answer = try await fixture.get(path)
            #expect(answer.status == 404)
            #expect(answer.header("Content-Type")?.hasPrefix("text/plain") == true)
        }
    }

    // MARK: Generated pictures

    @Test func generatedPicturesAreDeterministicDistinctValidPNGs() async throws {
        let numbers = [0, 1, 2, 7, 255, 256, 65_536, 123_456_789]
        try await withMediaServer { fixture in
            var seen: Set<[UInt8]> = []
            for n in numbers {
                let first = try await fixture.get("/media/gen/\(n).png")
                let second = try await fixture.get("/media/gen/\(n).png")
                #expect(first.status == 200 && second.status == 200)
                #expect(first.header("Content-Type") == "image/png")
                #expect(first.body == second.body, "picture \(n) changed between two requests")
                #expect(first.body == FixtureMedia.generatedImage(n))
                #expect(seen.insert(first.body).inserted, "picture \(n) repeats an earlier one")
                let png = try PNGCheck(first.body)
                #expect(png.width == 16 && png.height == 12 && png.bitDepth == 8 && png.colourType == 2)
                #expect(png.chunkTypes == ["IHDR", "IDAT", "IEND"])
                #expect(png.pixelBytes == 12 * (1 + 16 * 3))
            }
        }
        #expect(Set((0..<2_000).map(FixtureMedia.generatedImage)).count == 2_000)
    }

    // MARK: Faults

    @Test(arguments: [
        (FixtureMedia.FaultPath.missing, 404, "text/plain; charset=utf-8", "No such picture"),
        (FixtureMedia.FaultPath.wrongType, 200, "image/png", "<!DOCTYPE html>"),
        (FixtureMedia.FaultPath.scriptSVG, 200, "image/svg+xml", "<?xml"),
        (FixtureMedia.FaultPath.disguisedSVG, 200, "image/png", "<?xml"),
    ])
    func contentFaultsAnswerTheirStatusTypeAndBody(path: String, status: Int, type: String, prefix: String) async throws {
        try await withMediaServer { fixture in
            let answer = try await fixture.get(path)
            #expect(answer.status == status)
            #expect(answer.header("Content-Type") == type)
            let text = String(decoding: answer.body, as: UTF8.self)
            #expect(text.hasPrefix(prefix), "\(text)")
            #expect(!answer.body.starts(with: Self.pngSignature))
            if path.contains("svg") {
                #expect(text.contains("<svg") && text.contains("<script"))
            }
        }
    }

    @Test func oversizedPicturesStreamTheConfiguredSizeWithAndWithoutContentLength() async throws {
        let size = 3 * 1_048_576 + 5
        try await withMediaServer({ $0.oversizedImageBytes = size }) { fixture in
            let announced = try await fixture.get(FixtureMedia.FaultPath.oversized)
            #expect(announced.status == 200)
            #expect(announced.header("Content-Type") == "image/png")
            #expect(announced.header("Content-Length") == String(size))
            #expect(announced.body.count == size)
            #expect(announced.body.starts(with: Self.pngSignature))
            #expect(Array(announced.body[12..<16]) == Array("IHDR".utf8))
            let ihdr = try PNGCheck.header(announced.body)
            #expect(ihdr.width >= 1_000 && ihdr.height >= 1_000)

            let unannounced = try await fixture.get(FixtureMedia.FaultPath.oversizedUnannounced)
            #expect(unannounced.status == 200)
            #expect(unannounced.header("Content-Type") == "image/png")
            #expect(unannounced.header("Content-Length") == nil)
            #expect(unannounced.header("Transfer-Encoding")?.lowercased() == "chunked")
            #expect(unannounced.body == announced.body)
        }
    }

    @Test func theOversizedPictureIsTwelveMebibytesByDefault() async throws {
        let configuration = FixtureServerConfiguration(dataset: FixtureDataset(referenceDate: Date(), boards: [], posts: []))
        #expect(configuration.oversizedImageBytes == 12 * 1_048_576)
        try await withMediaServer { fixture in
            let answer = try await fixture.get(FixtureMedia.FaultPath.oversized, limit: 16 << 20)
            #expect(answer.header("Content-Length") == String(12 * 1_048_576))
            #expect(answer.body.count == 12 * 1_048_576)
        }
    }

    @Test func aSlowPictureWaitsThenAnswersTheGeneratedPicture() async throws {
        try await withMediaServer { fixture in
            let start = ContinuousClock.now
            let answer = try await fixture.get(FixtureMedia.FaultPath.slow(milliseconds: 400, image: 5))
            #expect(start.duration(to: .now) >= .milliseconds(400))
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "image/png")
            #expect(answer.body == FixtureMedia.generatedImage(5))
        }
    }

    @Test func sameOriginRedirectAndTheLoopPointWhereTheySay() async throws {
        try await withMediaServer { fixture in
            let same = try await fixture.get(FixtureMedia.FaultPath.redirectToSameOrigin("demo/sea.jpg"))
            #expect(same.status == 302)
            #expect(same.header("Location") == "/media/demo/sea.jpg")
            let deeper = try await fixture.get(FixtureMedia.FaultPath.redirectToSameOrigin("fault/slow/1/3.png"))
            #expect(deeper.header("Location") == "/media/fault/slow/1/3.png")
            let loop = try await fixture.get(FixtureMedia.FaultPath.loop)
            #expect(loop.status == 302 && loop.header("Location") == FixtureMedia.FaultPath.loopPartner)
            let back = try await fixture.get(FixtureMedia.FaultPath.loopPartner)
            #expect(back.status == 302 && back.header("Location") == FixtureMedia.FaultPath.loop)
            #expect(FixtureMedia.FaultPath.loopPartner == "/media/fault/loop2.png")

            // A client that follows redirects lands on the picture, and gives up on the loop.
            let followed = try await fixture.get(FixtureMedia.FaultPath.redirectToSameOrigin("demo/sea.jpg"), following: true)
            #expect(followed.status == 200 && followed.body == FixtureMedia.demoImage(named: "sea.jpg"))
            await #expect(throws: HTTPClientError.redirectCycleDetected) {
                try await fixture.get(FixtureMedia.FaultPath.loop, following: true)
            }
        }
    }

    @Test func otherOriginRedirectPointsAtTheConfiguredOriginOr404() async throws {
        try await withMediaServer { other in
            let otherOrigin = other.server.origin
            #expect(otherOrigin.path.isEmpty && otherOrigin.port == other.server.port)
            try await withMediaServer({ $0.otherOrigin = otherOrigin }) { fixture in
                let answer = try await fixture.get(FixtureMedia.FaultPath.redirectToOtherOrigin("gen/3.png"))
                #expect(answer.status == 302)
                let location = try #require(answer.header("Location"))
                #expect(location == "http://127.0.0.1:\(other.server.port)/media/gen/3.png")
                let followed = try await fixture.get(absolute: location)
                #expect(followed.status == 200 && followed.body == FixtureMedia.generatedImage(3))
                #expect(await other.server.mediaRequests.map(\.path) == ["/media/gen/3.png"])
                #expect(await fixture.server.mediaRequests.map(\.path) == ["/media/fault/redirect-other/gen/3.png"])
            }
        }
        try await withMediaServer { fixture in
            let answer = try await fixture.get(FixtureMedia.FaultPath.redirectToOtherOrigin("gen/3.png"))
            #expect(answer.status == 404)
        }
    }

    // MARK: Records and the API's faults

    @Test func everyPictureRequestIsRecordedWithItsAuthorizationFlag() async throws {
        try await withMediaServer { fixture in
            let statuses = try await [
                fixture.get("/media/gen/1.png", authorization: "Bearer some-token").status,
                fixture.get("/media/demo/sea.jpg?size=large").status,
                fixture.get(FixtureMedia.FaultPath.missing, authorization: "Basic abc").status,
                fixture.get(FixtureMedia.FaultPath.loop).status,
            ]
            #expect(statuses == [200, 200, 404, 302])
            let expected = [
                FixtureMediaRequest(path: "/media/gen/1.png", hadAuthorization: true),
                FixtureMediaRequest(path: "/media/demo/sea.jpg", hadAuthorization: false),
                FixtureMediaRequest(path: FixtureMedia.FaultPath.missing, hadAuthorization: true),
                FixtureMediaRequest(path: FixtureMedia.FaultPath.loop, hadAuthorization: false),
            ]
            #expect(await fixture.server.mediaRequests == expected)
            #expect(await fixture.server.mediaRequestCount == 4)
        }
    }

    @Test func pictureRequestsLeaveTheAPICountersAndFaultsAlone() async throws {
        // Every second API request answers 429: picture requests in between must not move that count.
        try await withMediaServer({ $0.faults = FixtureFaults(tooManyRequestsEvery: 2) }) { fixture in
            var statuses: [Int] = []
            for _ in 0..<3 {
                statuses.append(try await fixture.get("/media/gen/1.png").status)
                statuses.append(try await fixture.get("/media/demo/flower.png").status)
                statuses.append(try await fixture.get("/api/v2/boards", authorization: "Bearer t").status)
            }
            #expect(statuses == [200, 200, 200, 200, 200, 429, 200, 200, 200])
            #expect(await fixture.server.requestCount == 3)
            #expect(await fixture.server.requestTargets == Array(repeating: "/api/v2/boards?", count: 3))
            #expect(await fixture.server.statusCounts == [200: 2, 429: 1])
            #expect(await fixture.server.mediaRequestCount == 6)
        }
        // API faults that would answer every request with an error leave pictures untouched.
        var hostile = FixtureFaults(failureRate: 1, errorBurst: 5, dropConnectionRate: 1, truncatedJSONRate: 1, unauthorizedAfter: 0)
        hostile.stallFirstAttempts = 1
        hostile.stallMilliseconds = 60_000
        hostile.dropMidBodyFirstAttempts = 1
        try await withMediaServer({ $0.faults = hostile }) { fixture in
            let answer = try await fixture.get("/media/gen/2.png")
            #expect(answer.status == 200 && answer.body == FixtureMedia.generatedImage(2))
            let demo = try await fixture.get("/media/demo/sea.jpg")
            #expect(demo.status == 200 && demo.body == FixtureMedia.demoImage(named: "sea.jpg"))
            #expect(await fixture.server.requestCount == 0)
            #expect(await fixture.server.statusCounts.isEmpty)
            #expect(await fixture.server.droppedConnectionCount == 0)
        }
    }

    @Test func mediaLatencyDelaysEveryPictureAnswer() async throws {
        var faults = FixtureFaults.none
        faults.mediaLatency = 300
        #expect(FixtureFaults.none.mediaLatency == 0)
        try await withMediaServer({ $0.faults = faults }) { fixture in
            for path in ["/media/gen/4.png", FixtureMedia.FaultPath.missing, FixtureMedia.FaultPath.loop] {
                let start = ContinuousClock.now
                let answer = try await fixture.get(path)
                #expect(start.duration(to: .now) >= .milliseconds(300), "\(path)")
                #expect([200, 404, 302].contains(answer.status))
            }
        }
    }

    @Test func picturesCanRequireTheBearerToken() async throws {
        var faults = FixtureFaults.none
        faults.mediaRequiresAuthorization = true
        let configure: (inout FixtureServerConfiguration) -> Void = { configuration in
            configuration.faults = faults
            configuration.token = "right-token"
        }
        try await withMediaServer(configure) { fixture in
            let statuses = try await [
                fixture.get("/media/gen/1.png").status, fixture.get("/media/gen/1.png", authorization: "Bearer wrong").status,
                fixture.get("/media/gen/1.png", authorization: "Bearer right-token").status,
            ]
            #expect(statuses == [401, 401, 200])
            #expect(await fixture.server.mediaRequests.map(\.hadAuthorization) == [false, true, true])
        }
        try await withMediaServer({ $0.token = "right-token" }) { fixture in
            let statuses = try await [fixture.get("/media/gen/1.png").status, fixture.get("/api/v2/boards").status]
            #expect(statuses == [200, 401])
        }
    }

    // MARK: Datasets

    @Test func demoPostsShowEveryBundledPicture() async throws {
        let demo = try FixtureDataset.bundledDemo()
        let changed = [1_590_150, 1_590_302, 1_590_456, 1_591_297]
        let pattern = #/(?:\]\(|src=")/media/demo/([A-Za-z0-9._-]+)/#
        var shown: [Int: [String]] = [:]
        for post in demo.posts {
            let names = post.contents.matches(of: pattern).map { String($0.output.1) }
            if !names.isEmpty { shown[post.postId] = names }
        }
        #expect(shown.keys.sorted() == changed)
        #expect(Set(shown.values.flatMap { $0 }) == Set(FixtureMedia.demoImageNames))
        #expect(shown.values.contains { $0.count == 2 })
        for id in changed {
            let post = try #require(demo.posts.first { $0.postId == id })
            #expect(post.hasInlineImage == true, "post \(id)")
            #expect(post.postType == .normal, "post \(id)")
        }
        let bodies = changed.compactMap { id in demo.posts.first { $0.postId == id }?.contents }
        #expect(bodies.contains { $0.contains(#"<img src="/media/demo/flower.png" alt="꽃">"#) })
        #expect(bodies.contains { $0.contains(#"![바다 사진](/media/demo/sea.jpg "동해 바다")"#) })
        try await withMediaServer { fixture in
            for name in Set(shown.values.flatMap { $0 }) {
                let answer = try await fixture.get("/media/demo/" + name)
                #expect(answer.status == 200, "\(name)")
            }
        }
    }

    @Test func noImageShareLeavesTheGeneratedDatasetAsItWas() throws {
        let now = try #require(ArchiveDate.parse("2026-03-01T00:00:00Z"))
        let plain = FixtureDataset.generated(boards: 3, postsPerBoard: 400, seed: 42, now: now)
        #expect(FixtureDataset.generated(boards: 3, postsPerBoard: 400, seed: 42, now: now, imageShare: 0) == plain)
        #expect(!plain.posts.contains { $0.contents.contains("/media/") })
        // The generator's own 3 % of posts flagged with an inline image stay as they were.
        #expect(plain.posts.contains { $0.hasInlineImage == true })
        let archive = BenchmarkArchive(posts: 1_500, boards: 4, seed: 7)
        #expect(archive.imageShare == 0)
        #expect(!(0..<archive.postCount).contains { archive.post(at: $0).contents.contains("/media/") })
    }

    @Test func anImageShareAddsPicturesToThatShareAndChangesNothingElse() throws {
        let now = try #require(ArchiveDate.parse("2026-03-01T00:00:00Z"))
        let plain = FixtureDataset.generated(boards: 4, postsPerBoard: 1_000, seed: 42, now: now)
        let pictured = FixtureDataset.generated(boards: 4, postsPerBoard: 1_000, seed: 42, now: now, imageShare: 0.1)
        #expect(pictured == FixtureDataset.generated(boards: 4, postsPerBoard: 1_000, seed: 42, now: now, imageShare: 0.1))
        try Self.checkPictures(plain: plain.posts, pictured: pictured.posts)

        let plainArchive = BenchmarkArchive(posts: 4_000, boards: 5, seed: 3)
        let picturedArchive = BenchmarkArchive(posts: 4_000, boards: 5, seed: 3, imageShare: 0.1)
        try Self.checkPictures(
            plain: (0..<plainArchive.postCount).map(plainArchive.post(at:)),
            pictured: (0..<picturedArchive.postCount).map(picturedArchive.post(at:)))
    }

    /// `pictured` is `plain` with pictures in about 10 % of the posts: same posts otherwise, one or two images appended,
    /// `hasInlineImage` exactly on them, and a few of the pictures shown by more than one post.
    static func checkPictures(plain: [Post], pictured: [Post]) throws {
        #expect(plain.count == pictured.count && plain.count >= 4_000)
        let image = #/!\[사진 ([12])\]\(/media/gen/(\d+)\.png\)/#
        var withPictures = 0
        var references: [Int] = []
        for (before, after) in zip(plain, pictured) {
            var unchanged = after
            unchanged.contents = before.contents
            unchanged.hasInlineImage = before.hasInlineImage
            #expect(unchanged == before, "post \(before.postId) changed beyond its pictures")
            let shown = after.contents.matches(of: image).compactMap { Int($0.output.2) }
            #expect(after.hasInlineImage == !shown.isEmpty, "post \(after.postId)")
            if shown.isEmpty {
                #expect(after.contents == before.contents)
                continue
            }
            withPictures += 1
            #expect(shown.count <= 2)
            #expect(after.contents.hasPrefix(before.contents + "\n\n![사진 1](/media/gen/"))
            references += shown
        }
        let share = Double(withPictures) / Double(plain.count)
        #expect((0.08...0.12).contains(share), "\(withPictures) of \(plain.count) posts show pictures")
        #expect(references.count > withPictures, "no post shows two pictures")
        var counts: [Int: Int] = [:]
        for picture in references { counts[picture, default: 0] += 1 }
        let reused = references.count - counts.count
        #expect(reused > 0, "no picture is shown twice")
        #expect(Double(reused) / Double(references.count) < 0.12, "\(reused) of \(references.count) references reuse a picture")
    }
}

// MARK: - Harness

/// A running fixture server and HTTP clients (one that does not follow redirects, one that does), all shut down by
/// ``withMediaServer(_:_:)``.
private struct MediaFixture {
    struct Answer {
        var status: Int
        var headers: [String: [String]]
        var body: [UInt8]

        /// The first value of header `name`, whatever its case.
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value.first
        }
    }

    let server: FixtureServer
    let client: HTTPClient
    let followingClient: HTTPClient

    /// GETs `path` on the server's origin; `authorization` is the whole header value, `nil` for none.
    func get(_ path: String, authorization: String? = nil, following: Bool = false, limit: Int = 8 << 20) async throws -> Answer {
        try await get(absolute: server.origin.absoluteString + path, authorization: authorization, following: following, limit: limit)
    }

    func get(absolute url: String, authorization: String? = nil, following: Bool = false, limit: Int = 8 << 20) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        if let authorization {
            request.headers.add(name: "Authorization", value: authorization)
        }
        // Long: a loaded 2-core machine running the whole suite can take seconds for one loopback request.
        let response = try await (following ? followingClient : client).execute(request, timeout: .seconds(120))
        let buffer = try await response.body.collect(upTo: limit)
        var headers: [String: [String]] = [:]
        for header in response.headers {
            headers[header.name, default: []].append(header.value)
        }
        return Answer(status: Int(response.status.code), headers: headers, body: Array(buffer.readableBytesView))
    }
}

/// Starts the demo dataset on 127.0.0.1:0 with `configure`'s changes, runs `body`, and stops the clients and the server
/// on every path.
private func withMediaServer<T>(
    _ configure: (inout FixtureServerConfiguration) -> Void = { _ in }, _ body: (MediaFixture) async throws -> T
) async throws -> T {
    var configuration = FixtureServerConfiguration(dataset: try FixtureDataset.bundledDemo())
    configure(&configuration)
    let server = try await FixtureServer.start(configuration)
    var noRedirects = HTTPClient.Configuration()
    noRedirects.redirectConfiguration = .disallow
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: noRedirects)
    let followingClient = HTTPClient(eventLoopGroupProvider: .singleton)
    do {
        let result = try await body(MediaFixture(server: server, client: client, followingClient: followingClient))
        try await client.shutdown()
        try await followingClient.shutdown()
        await server.stop()
        return result
    } catch {
        try? await client.shutdown()
        try? await followingClient.shutdown()
        await server.stop()
        throw error
    }
}

/// An independent reading of a PNG file: chunks with their CRC-32, `IHDR`, and the zlib stream of stored deflate
/// blocks with its Adler-32 (what the fixture's encoder writes).
private struct PNGCheck {
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    var width = 0
    var height = 0
    var bitDepth = 0
    var colourType = 0
    var chunkTypes: [String] = []
    /// The length of the inflated image data (filter bytes and pixels).
    var pixelBytes = 0

    init(_ bytes: [UInt8]) throws {
        (width, height, bitDepth, colourType) = try Self.header(bytes)
        var offset = 8
        var idat: [UInt8] = []
        while offset < bytes.count {
            guard offset + 12 <= bytes.count else { throw Problem(description: "a chunk is cut at \(offset)") }
            let length = Int(Self.uint32(bytes, offset))
            guard offset + 12 + length <= bytes.count else { throw Problem(description: "a chunk overruns the file at \(offset)") }
            let typed = Array(bytes[(offset + 4)..<(offset + 8 + length)])
            guard Self.crc32(typed) == Self.uint32(bytes, offset + 8 + length) else {
                throw Problem(description: "bad CRC at \(offset)")
            }
            let type = String(decoding: typed.prefix(4), as: UTF8.self)
            chunkTypes.append(type)
            if type == "IDAT" { idat += typed.dropFirst(4) }
            offset += 12 + length
        }
        pixelBytes = try Self.inflateStored(idat).count
    }

    /// Width, height, bit depth and colour type from the signature and `IHDR`, which must come first.
    static func header(_ bytes: [UInt8]) throws -> (width: Int, height: Int, bitDepth: Int, colourType: Int) {
        guard bytes.count >= 33, bytes.starts(with: FixtureMediaTests.pngSignature), Array(bytes[12..<16]) == Array("IHDR".utf8),
            uint32(bytes, 8) == 13, crc32(Array(bytes[12..<29])) == uint32(bytes, 29)
        else { throw Problem(description: "no PNG signature and IHDR") }
        return (Int(uint32(bytes, 16)), Int(uint32(bytes, 20)), Int(bytes[24]), Int(bytes[25]))
    }

    static func inflateStored(_ stream: [UInt8]) throws -> [UInt8] {
        guard stream.count >= 6, (Int(stream[0]) << 8 | Int(stream[1])) % 31 == 0, stream[0] & 0x0F == 8 else {
            throw Problem(description: "no zlib header")
        }
        var out: [UInt8] = []
        var offset = 2
        var final = false
        while !final {
            guard offset + 5 <= stream.count, stream[offset] & 0x06 == 0 else { throw Problem(description: "not a stored block") }
            final = stream[offset] & 1 == 1
            let length = Int(stream[offset + 1]) | Int(stream[offset + 2]) << 8
            let complement = Int(stream[offset + 3]) | Int(stream[offset + 4]) << 8
            guard length ^ complement == 0xFFFF, offset + 5 + length <= stream.count else { throw Problem(description: "bad block") }
            out += stream[(offset + 5)..<(offset + 5 + length)]
            offset += 5 + length
        }
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in out {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        guard offset + 4 == stream.count, uint32(stream, offset) == b << 16 | a else { throw Problem(description: "bad Adler-32") }
        return out
    }

    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }
}
