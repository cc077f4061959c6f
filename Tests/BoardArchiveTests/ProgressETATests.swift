import BoardArchive
import Foundation
import Logging
import Synchronization
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The share of a crawl or build done is counted in posts, so an archive where one board holds most posts does not
/// read as nearly done once its small boards are.
@Suite("Progress ETA in posts")
struct ProgressETATests {
    @Test func aSmallBoardFinishedFirstIsASmallShareOfASkewedArchive() throws {
        let meter = ProgressMeter()
        meter.update { $0.boards = 2 }
        meter.sizeBoard(1, posts: 990)
        meter.sizeBoard(2, posts: 10)
        meter.finishBoard(2)
        let fraction = try #require(meter.snapshot.fractionDone)
        #expect(abs(fraction - 0.01) < 1e-9, "one board of two done, but 10 posts of 1000")
        meter.credit(1, posts: 490)
        #expect(abs((meter.snapshot.fractionDone ?? 0) - 0.5) < 1e-9)
        meter.finishBoard(1)
        #expect(meter.snapshot.fractionDone == 1)
    }

    @Test func creditsNeverPassABoardsSizeAndFinishingCreditsWhatWasSkipped() {
        let meter = ProgressMeter()
        meter.update { $0.boards = 1 }
        meter.sizeBoard(7, posts: 100)
        meter.sizeBoard(7, posts: 5_000)
        meter.credit(7, posts: 80)
        meter.credit(7, posts: 80)
        #expect(meter.snapshot.postsExpected == 100 && meter.snapshot.postsSettled == 100, "only the first size counts; re-reads stop at it")
        let incremental = ProgressMeter()
        incremental.update { $0.boards = 1 }
        incremental.sizeBoard(1, posts: 1_000)
        incremental.credit(1, posts: 30)
        incremental.finishBoard(1)
        #expect(incremental.snapshot.postsSettled == 1_000, "an incremental read that stops early finishes its board whole")
    }

    @Test func boardsNotSizedYetCountAsTheAverageSizedBoard() throws {
        let meter = ProgressMeter()
        meter.update { $0.boards = 4 }
        #expect(meter.snapshot.fractionDone == nil)
        meter.sizeBoard(1, posts: 100)
        meter.credit(1, posts: 100)
        // 100 of an estimated 400 posts.
        #expect(abs(try #require(meter.snapshot.fractionDone) - 0.25) < 1e-9)
    }

    @Test func theBuildSizesEveryBoardFromTheStoreBeforeItStarts() async throws {
        let posts =
            (1...300).map { SiteFixture.post($0, board: 1, at: "2024-05-01T00:00:00Z") } + [
                SiteFixture.post(900, board: 3, at: "2024-05-01T00:00:00Z")
            ]
        let store = try SiteFixture.store(posts: posts)
        let meter = ProgressMeter()
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        let configuration = BuildConfiguration(
            outputDirectory: output, templatesDirectory: SiteFixture.templatesDirectory, now: SiteFixture.now, timeZone: SiteFixture.seoul)
        _ = try await SiteBuilder(configuration: configuration, store: store, logger: Logger(label: "test"), progress: meter).build()
        let counted = meter.snapshot
        #expect(counted.boardsSized == SiteFixture.boards.count)
        #expect(counted.postsExpected == 301 && counted.postsSettled == 301)
        #expect(counted.fractionDone == 1)
    }

    @Test func theCrawlSizesABoardWithItsFirstPagesTotal() async throws {
        let boards = [Board(boardId: 2, displayName: "small", orderNo: 1), Board(boardId: 1, displayName: "big", orderNo: 2)]
        let api = CrawlerTests.MemoryAPI(boards: boards, posts: [1: (1...300).map { makePost($0) }, 2: (301...310).map { makePost($0, board: 2) }])
        let meter = ProgressMeter()
        let seen = Mutex<[ProgressMeter.Snapshot]>([])
        let configuration = CrawlConfiguration(
            api: CrawlerTests.base, token: try #require(APIToken(testToken)), pageSize: 30, concurrency: 1, retryPolicy: fastRetries,
            readsEverything: true)
        _ = try await Crawler(
            configuration: configuration, transport: api.transport, store: try ArchiveStore.inMemory(), logger: Logger(label: "test"),
            observe: { event in
                if case .pageStored(board: 1, offset: 0) = event { seen.withLock { $0.append(meter.snapshot) } }
            }, progress: meter
        ).run()
        let firstBigPage = try #require(seen.withLock { $0.first })
        // The small board is done and the big one has one page of ten: boards would say half, posts say 40 of 310.
        #expect(firstBigPage.boardsDone == 1 && firstBigPage.postsExpected == 310)
        #expect(abs((firstBigPage.fractionDone ?? 1) - 40.0 / 310.0) < 1e-9)
        #expect(meter.snapshot.postsSettled == 310 && meter.snapshot.fractionDone == 1)
    }

    @Test func anIncrementalCrawlCountsABoardItStopsEarlyOnAsWhole() async throws {
        let boards = [Board(boardId: 1, displayName: "big", orderNo: 1), Board(boardId: 2, displayName: "small", orderNo: 2)]
        let api = CrawlerTests.MemoryAPI(boards: boards, posts: [1: (1...300).map { makePost($0) }, 2: (301...310).map { makePost($0, board: 2) }])
        let store = try ArchiveStore.inMemory()
        let token = try #require(APIToken(testToken))
        for reading in [true, false] {
            let meter = ProgressMeter()
            let configuration = CrawlConfiguration(
                api: CrawlerTests.base, token: token, pageSize: 30, concurrency: 1, retryPolicy: fastRetries, readsEverything: reading,
                verifyFraction: 0)
            _ = try await Crawler(
                configuration: configuration, transport: api.transport, store: store, logger: Logger(label: "test"), progress: meter
            )
            .run()
            let counted = meter.snapshot
            // The second crawl reads one page of the big board and stops: the rest of it is already held, not work left.
            #expect(counted.postsExpected == 310 && counted.postsSettled == 310, "readsEverything \(reading): \(counted)")
            #expect(reading || counted.pages < 10)
        }
    }
}
