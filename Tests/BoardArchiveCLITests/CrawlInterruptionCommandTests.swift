import BoardArchive
import FixtureAPI
import Foundation
import Testing

/// `boardarchive crawl` killed with SIGKILL at named points, and stopped with SIGINT / SIGTERM, then resumed: the store
/// stays sound, holds every post once, and the next run does not fetch finished boards or pages again.
@Suite("Crawl kills, signals and resume end to end", .serialized)
struct CrawlInterruptionCommandTests {
    /// Small pages and one board at a time, so each named point falls inside a board of several pages.
    static let paging = ["--page-size", "10", "--concurrency", "1", "--verify-fraction", "0"]

    /// The boards finished and the pages stored by the interrupted run (its checkpoints).
    static func interruptedRun(_ nightly: NightlyHarness) throws -> (finished: Set<String>, pages: [(board: String, offset: String)]) {
        let finished = Set(try nightly.rows("SELECT boardId FROM board_crawl WHERE status = 'completed'").map { $0[0] })
        let pages = try nightly.rows("SELECT boardId, pageOffset FROM page_checkpoint").map { (board: $0[0], offset: $0[1]) }
        return (finished, pages)
    }

    /// Resumes and checks the store, and that nothing finished is fetched again.
    static func expectResumes(_ nightly: NightlyHarness, after interrupted: (finished: Set<String>, pages: [(board: String, offset: String)]))
        async throws
    {
        let before = await nightly.server.requestTargets.count
        let (result, _) = try await nightly.run(paging)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("resumed an interrupted run"))
        let requested = await nightly.server.requestTargets.dropFirst(before)
        for board in interrupted.finished {
            #expect(!requested.contains { $0.contains("/boards/\(board)/posts") }, "finished board \(board) fetched again")
        }
        for page in interrupted.pages where page.offset != "0" {
            // A page of an unfinished board resumes after its last stored page; offset 0 is re-read at a board's end.
            #expect(!requested.contains { $0.hasSuffix("/boards/\(page.board)/posts?offset=\(page.offset)&limit=10") })
        }
        #expect(try nightly.integrity() == "ok")
        #expect(try nightly.rows("SELECT COUNT(*), COUNT(DISTINCT postId) FROM post") == [["212", "212"]])
        try nightly.expectStoreHoldsTheSource()
    }

    @Test(arguments: [
        // (point, checkpoints stored when the process dies)
        ("boards-fetched", 0), ("page-stored:3", 3), ("board-finished:2", nil), ("inside-page-transaction:5", 4),
    ])
    func aKillAtANamedPointResumesWithoutLossOrRefetching(point: String, pagesStored: Int?) async throws {
        try await NightlyHarness.with { nightly in
            let (killed, _) = try await nightly.run(Self.paging, environment: ["BOARDARCHIVE_TEST_KILL_AT": point])
            #expect(killed.status == SIGKILL, "stdout: \(killed.stdout) stderr: \(killed.stderr)")
            #expect(!killed.stdout.contains("Crawled"))
            #expect(try nightly.integrity() == "ok")
            #expect(try nightly.rows("SELECT status FROM crawl_run") == [["running"]])
            let interrupted = try Self.interruptedRun(nightly)
            if let pagesStored {
                #expect(interrupted.pages.count == pagesStored)
            } else {
                #expect(interrupted.finished.count == 2)
            }
            // Every post of every stored page is in the store, once.
            let stored = Set(try nightly.rows("SELECT postId FROM post").map { $0[0] })
            let listed = try nightly.rows("SELECT postIds FROM page_checkpoint").flatMap { $0[0].split(separator: ",").map(String.init) }
            #expect(Set(listed).isSubset(of: stored))
            try await Self.expectResumes(nightly, after: interrupted)
        }
    }

    /// Killed after its second picture is kept, with others in flight (two at a time, each answered after 300 ms): the
    /// kept ones stay, the others stay pending, and the resumed run keeps every picture once without losing a post.
    @Test func aKillWithPicturesInFlightResumesAndKeepsEveryPicture() async throws {
        var faults = FixtureFaults()
        faults.mediaLatency = 300
        try await NightlyHarness.with(faults: faults) { nightly in
            let arguments = ["--page-size", "10", "--concurrency", "2", "--verify-fraction", "0"]
            let (killed, _) = try await nightly.run(arguments, environment: ["BOARDARCHIVE_TEST_KILL_AT": "picture-kept:2"])
            try #require(killed.status == SIGKILL, "stdout: \(killed.stdout) stderr: \(killed.stderr)")
            #expect(try nightly.integrity() == "ok")
            #expect(try nightly.rows("SELECT COUNT(*) FROM media") == [["2"]])
            #expect(try nightly.rows("SELECT COUNT(*) FROM media_source WHERE status = 'kept'") == [["2"]])
            #expect(try nightly.rows("SELECT COUNT(*) FROM media_source WHERE status = 'pending'") == [["3"]])
            let (result, _) = try await nightly.run(arguments)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("resumed an interrupted run"))
            #expect(try nightly.integrity() == "ok")
            // The demo's four pictures, once each (one of them shown by two posts); its one broken address failed.
            #expect(try nightly.rows("SELECT COUNT(*) FROM media") == [["4"]])
            #expect(
                try nightly.rows("SELECT status, COUNT(*) FROM media_source GROUP BY status ORDER BY status") == [["failed", "1"], ["kept", "4"]])
            #expect(try nightly.rows("SELECT COUNT(*), COUNT(DISTINCT postId) FROM post") == [["212", "212"]])
            try nightly.expectStoreHoldsTheSource()
        }
    }

    /// Starts a slow crawl, waits until the server has seen a few requests, sends the signals, and returns the result.
    static func interrupt(_ nightly: NightlyHarness, with signals: [Int32]) async throws -> CommandRunner.Result {
        let running = try nightly.start(["--page-size", "5", "--concurrency", "2", "--verify-fraction", "0"])
        while await nightly.server.requestCount < 4 { try await Task.sleep(for: .milliseconds(10)) }
        for signal in signals {
            running.send(signal)
            try await Task.sleep(for: .milliseconds(20))
        }
        return await running.wait()
    }

    @Test(arguments: [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, Int32(143), "SIGTERM")])
    func aSignalStoresThePagesInFlightAndExitsWithItsCode(signal: Int32, code: Int32, name: String) async throws {
        try await NightlyHarness.with(faults: FixtureFaults(latency: 150)) { nightly in
            try await Self.signalStoresThePagesInFlight(nightly, signal: signal, code: code, name: name)
        }
    }

    @Test(arguments: [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, Int32(143), "SIGTERM")])
    func onPostgreSQLASignalStoresThePagesInFlightAndExitsWithItsCode(signal: Int32, code: Int32, name: String) async throws {
        try await NightlyHarness.withPostgres(faults: FixtureFaults(latency: 150)) { nightly in
            try await Self.signalStoresThePagesInFlight(nightly, signal: signal, code: code, name: name)
        }
    }

    /// Interrupts a slow crawl with `signal`, then checks its exit, the pages it stored and that a resumed run finishes.
    static func signalStoresThePagesInFlight(_ nightly: NightlyHarness, signal: Int32, code: Int32, name: String) async throws {
        let result = try await Self.interrupt(nightly, with: [signal])
        #expect(result.status == code, "stderr: \(result.stderr)")
        #expect(
            result.stderr.contains(
                "error: Interrupted by \(name): the pages fetched so far are stored and the run is recorded as interrupted; "
                    + "run the same command again to resume."))
        #expect(try nightly.rows("SELECT status FROM crawl_run") == [["interrupted"]])
        if nightly.postgres == nil { #expect(try nightly.integrity() == "ok") }
        // Every page the server answered is stored: the requests in flight finished and were written.
        let stored = Set(try nightly.rows("SELECT postId FROM post").map { $0[0] })
        for target in await nightly.server.requestTargets where target.contains("/posts?") {
            let page = try #require(Self.page(of: target, in: nightly.dataset))
            #expect(Set(page).isSubset(of: stored), "the page \(target) was answered but not stored")
        }
        let (resumed, _) = try await nightly.run(["--page-size", "5", "--verify-fraction", "0"])
        #expect(resumed.status == 0, "stderr: \(resumed.stderr)")
        #expect(resumed.stdout.contains("resumed an interrupted run"))
        try nightly.expectStoreHoldsTheSource()
    }

    @Test func aSecondSIGINTExitsAtOnceAndTheStoreStaysSound() async throws {
        try await NightlyHarness.with(faults: FixtureFaults(latency: 400)) { nightly in
            let result = try await Self.interrupt(nightly, with: [SIGINT, SIGINT])
            #expect(result.status == 130, "stderr: \(result.stderr)")
            #expect(result.stderr.contains("Second SIGINT: stopping now; run the same command again to resume."))
            #expect(try nightly.integrity() == "ok")
            let (resumed, _) = try await nightly.run(["--page-size", "5", "--verify-fraction", "0"])
            #expect(resumed.status == 0, "stderr: \(resumed.stderr)")
            #expect(try nightly.rows("SELECT COUNT(*), COUNT(DISTINCT postId) FROM post") == [["212", "212"]])
            try nightly.expectStoreHoldsTheSource()
        }
    }

    /// The post ids the server answered for `target` (`/api/v2/boards/7/posts?offset=5&limit=5`), from the unchanged dataset.
    static func page(of target: String, in dataset: FixtureDataset) -> [String]? {
        guard let components = URLComponents(string: target), let board = Int(components.path.split(separator: "/").dropLast().last ?? ""),
            let offset = components.queryItems?.first(where: { $0.name == "offset" })?.value.flatMap(Int.init),
            let limit = components.queryItems?.first(where: { $0.name == "limit" })?.value.flatMap(Int.init)
        else { return nil }
        return dataset.posts(inBoard: board).dropFirst(offset).prefix(limit).map { "\($0.postId)" }
    }
}
