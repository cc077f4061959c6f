import BoardArchive
import Foundation
import Logging
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The crawler and the site builder count their progress into the meter they are given, and the counts agree with
/// their reports.
@Suite("Progress meter")
struct ProgressMeterTests {
    @Test func theCrawlCountsBoardsPagesPostsRequestsAndRetries() async throws {
        let boards = [Board(boardId: 1, displayName: "a", orderNo: 1), Board(boardId: 2, displayName: "b", orderNo: 2)]
        let api = CrawlerTests.MemoryAPI(boards: boards, posts: [1: (1...40).map { makePost($0) }, 2: (41...45).map { makePost($0) }]) {
            number, _ in number <= 2 ? HTTPResponse(status: 503) : nil
        }
        let meter = ProgressMeter()
        let configuration = CrawlConfiguration(
            api: CrawlerTests.base, token: try #require(APIToken(testToken)), pageSize: 30, retryPolicy: fastRetries, readsEverything: true)
        let report = try await Crawler(
            configuration: configuration, transport: api.transport, store: try ArchiveStore.inMemory(), logger: Logger(label: "test"),
            progress: meter
        ).run()
        let counted = meter.snapshot
        #expect(counted.boards == 2 && counted.boardsDone == 2)
        #expect(counted.requests == report.requests && counted.requests == api.requests.withLock { $0.count })
        #expect(counted.retries == 2 && report.retries == 2)
        #expect(counted.posts == 45)
        #expect(counted.pages >= 3, "board 1 takes two pages, board 2 one")
        #expect(counted.filesWritten == 0)
    }

    @Test func theBuildCountsBoardsPostsAndFiles() async throws {
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        let store = try SiteFixture.store()
        let meter = ProgressMeter()
        let configuration = BuildConfiguration(
            outputDirectory: output, templatesDirectory: SiteFixture.templatesDirectory, now: SiteFixture.now, timeZone: SiteFixture.seoul)
        let report = try await SiteBuilder(configuration: configuration, store: store, logger: Logger(label: "test"), progress: meter).build()
        let first = meter.snapshot
        #expect(first.boards == SiteFixture.boards.count && first.boardsDone == first.boards)
        #expect(first.posts == SiteFixture.posts.count)
        #expect(first.filesRendered == report.rendered && first.filesWritten == report.written && report.written > 0)
        // A rebuild with nothing changed renders and writes nothing, and the meter says so.
        let again = ProgressMeter()
        _ = try await SiteBuilder(configuration: configuration, store: store, logger: Logger(label: "test"), progress: again).build()
        #expect(again.snapshot.filesWritten == 0 && again.snapshot.filesRendered == 0)
        #expect(again.snapshot.boardsDone == SiteFixture.boards.count)
    }
}
