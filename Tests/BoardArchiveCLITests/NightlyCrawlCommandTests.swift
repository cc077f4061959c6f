import BoardArchive
import FixtureAPI
import Foundation
import GRDB
import Testing

/// Nightly runs of `boardarchive crawl` / `export`: incremental reads, the fallback full pass, the verification rota
/// and `--full`, with requests counted at the fixture server; the rota and `--full` on PostgreSQL too.
@Suite("Nightly crawl end to end", .serialized)
struct NightlyCrawlCommandTests {
    /// The bundled demo: 6 boards (one empty, one of 137 posts, one of 31).
    static let boards = 6

    @Test func anUnchangedSourceCostsOneRequestPerBoardChangesNothingAndRewritesNoFile() async throws {
        try await NightlyHarness.with { nightly in
            let (first, _) = try await nightly.run(command: "export")
            #expect(first.status == 0, "stderr: \(first.stderr)")
            let rows = try nightly.postRows()
            let site = try nightly.siteSnapshot()

            let (second, requests) = try await nightly.run(["--verify-fraction", "0"], command: "export")
            #expect(second.status == 0, "stderr: \(second.stderr)")
            #expect(requests == 1 + Self.boards)
            #expect(second.stdout.contains("212 posts (0 new, 0 changed, 0 gone), 7 requests"))
            #expect(second.stdout.contains("board \(NightlyHarness.bigBoard): incremental (nothing new), 1 request;"))
            #expect(second.stdout.contains(", 0 written,"), "stdout: \(second.stdout)")
            #expect(try nightly.postRows() == rows)
            try nightly.expectSiteUnchanged(since: site)
        }
    }

    @Test func theDefaultRotaAddsItsPartOfEachLongBoard() async throws {
        try await NightlyHarness.with { nightly in
            #expect(try await nightly.run().0.status == 0)
            let rows = try nightly.postRows()
            let (result, requests) = try await nightly.run()
            #expect(result.status == 0, "stderr: \(result.stderr)")
            // 1 + 6 boards, plus one rota page for each board longer than a page: 137 posts (part 0–20 of 7 parts) and 31.
            #expect(requests == 1 + Self.boards + 2)
            #expect(result.stdout.contains("board \(NightlyHarness.bigBoard): incremental (nothing new), 2 requests; rota re-read posts 0–20 of 137"))
            #expect(try nightly.postRows() == rows)
        }
    }

    @Test(arguments: [(3, 1), (29, 1), (30, 2), (40, 2), (70, 3)])
    func newPostsAtTheTopCostTheirPagesAndAreAllStored(count: Int, pages: Int) async throws {
        try await NightlyHarness.with { nightly in
            #expect(try await nightly.run().0.status == 0)
            await nightly.serve(NightlyHarness.withNewPosts(count, in: nightly.dataset))
            let (result, requests) = try await nightly.run(["--verify-fraction", "0"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            // Pages overlap by one post: page j (from 0) covers positions 29·j …< 29·j + 30; reading stops on the first
            // page that reaches a stored post.
            #expect(requests == 1 + (Self.boards - 1) + pages)
            #expect(result.stdout.contains("(\(count) new, 0 changed, 0 gone)"))
            #expect(result.stdout.contains("board \(NightlyHarness.bigBoard): incremental (\(count) new at the top), \(pages) request"))
            try nightly.expectStoreHoldsTheSource()
        }
    }

    @Test func aPostInsertedInTheMiddleLeadsToAFullPassWithNothingLost() async throws {
        try await NightlyHarness.with { nightly in
            #expect(try await nightly.run().0.status == 0)
            var changed = nightly.dataset
            let board = changed.posts(inBoard: NightlyHarness.bigBoard)
            let (newer, older) = (board[60].createdDateTime, board[61].createdDateTime)
            try #require(newer.timeIntervalSince(older) >= 2)
            let inserted = NightlyHarness.post(
                id: 9_000_001, board: NightlyHarness.bigBoard, created: older.addingTimeInterval((newer.timeIntervalSince(older) / 2).rounded(.down)),
                like: changed)
            changed.posts.append(inserted)
            #expect(changed.posts(inBoard: NightlyHarness.bigBoard)[61].postId == inserted.postId)
            await nightly.serve(changed)
            let (result, requests) = try await nightly.run(["--verify-fraction", "0"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            // The board's 138 posts: pages at 0, 29, 58, 87, 116, then the first page again; the others 1 request each.
            #expect(requests == 1 + (Self.boards - 1) + 6)
            #expect(
                result.stdout.contains(
                    "board \(NightlyHarness.bigBoard): fallback full pass (the board lists 138 posts but the store holds 137), 6 requests"))
            #expect(result.stdout.contains("(1 new, 0 changed, 0 gone)"))
            try nightly.expectStoreHoldsTheSource()
        }
    }

    /// The big board with a post edited and one deleted deep down, and one inserted below the top so that `total`
    /// does not move: only re-reading those pages can find them.
    static func deepChanges(to dataset: FixtureDataset) throws -> (FixtureDataset, edited: Int, deleted: Int) {
        var changed = dataset
        let board = dataset.posts(inBoard: NightlyHarness.bigBoard)
        let edited = board[board.count - 1 - 60].postId
        let deleted = board[board.count - 1 - 40].postId
        let index = try #require(changed.posts.firstIndex { $0.postId == edited })
        changed.posts[index].contents += "\n\n(수정됨: edited deep in the board)"
        changed.posts.removeAll { $0.postId == deleted }
        let (newer, older) = (board[90].createdDateTime, board[91].createdDateTime)
        try #require(newer.timeIntervalSince(older) >= 2)
        changed.posts.append(
            NightlyHarness.post(
                id: 9_000_002, board: NightlyHarness.bigBoard, created: older.addingTimeInterval((newer.timeIntervalSince(older) / 2).rounded(.down)),
                like: dataset))
        return (changed, edited, deleted)
    }

    @Test func anEditAndADeletionDeepInABoardAreFoundWithinTheRota() async throws {
        try await NightlyHarness.with { nightly in try await Self.editAndDeletionFoundWithinTheRota(nightly) }
    }

    @Test func onPostgreSQLAnEditAndADeletionDeepInABoardAreFoundWithinTheRota() async throws {
        try await NightlyHarness.withPostgres { nightly in try await Self.editAndDeletionFoundWithinTheRota(nightly) }
    }

    /// Four runs at `--verify-fraction 1/4` find an edit and a deletion deep in the big board, not both in the first.
    static func editAndDeletionFoundWithinTheRota(_ nightly: NightlyHarness) async throws {
        #expect(try await nightly.run().0.status == 0)
        let (changed, edited, deleted) = try Self.deepChanges(to: nightly.dataset)
        await nightly.serve(changed)
        let expected = try #require(changed.posts.first { $0.postId == edited })
        var foundEdit: Int?
        var foundDeletion: Int?
        // --verify-fraction 1/4: ⌈1 / F⌉ = 4 runs re-read the whole board.
        for run in 1...4 {
            let (result, _) = try await nightly.run(["--verify-fraction", "1/4"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let live = try nightly.livePosts()
            if foundEdit == nil, live[edited] == expected { foundEdit = run }
            if foundDeletion == nil, live[deleted] == nil { foundDeletion = run }
        }
        #expect(foundEdit != nil)
        #expect(foundDeletion != nil)
        // Not all at once: the first run reads only the first part.
        #expect(foundEdit != 1 || foundDeletion != 1)
        try nightly.expectStoreHoldsTheSource()
        let parts = try nightly.rows("SELECT fromOldest FROM verified_part WHERE boardId = \(NightlyHarness.bigBoard) ORDER BY fromOldest")
        #expect(parts == [["0"], ["35"], ["70"], ["105"]])
        if nightly.postgres == nil { #expect(try nightly.integrity() == "ok") }
    }

    @Test func fullFindsEverythingAtOnce() async throws {
        try await NightlyHarness.with { nightly in try await Self.fullFindsEverything(nightly) }
    }

    @Test func onPostgreSQLFullFindsEverythingAtOnce() async throws {
        try await NightlyHarness.withPostgres { nightly in try await Self.fullFindsEverything(nightly) }
    }

    /// `--full` finds the deep edit, deletion and insertion in one run.
    static func fullFindsEverything(_ nightly: NightlyHarness) async throws {
        #expect(try await nightly.run().0.status == 0)
        let (changed, _, _) = try Self.deepChanges(to: nightly.dataset)
        await nightly.serve(changed)
        let (result, _) = try await nightly.run(["--full"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("(1 new, 1 changed, 1 gone)"))
        #expect(result.stdout.contains("board \(NightlyHarness.bigBoard): full pass (--full), 6 requests"))
        try nightly.expectStoreHoldsTheSource()
    }

    @Test func jsonLogsEndWithOneSummaryObject() async throws {
        try await NightlyHarness.with { nightly in
            #expect(try await nightly.run().0.status == 0)
            var changed = NightlyHarness.withNewPosts(40, in: nightly.dataset)
            let deleted = changed.posts(inBoard: NightlyHarness.bigBoard)[100].postId
            changed.posts.removeAll { $0.postId == deleted }
            await nightly.serve(changed)
            let (result, requests) = try await nightly.run(["--json-logs"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 1)
            let object = try #require(try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
            #expect(object["event"] as? String == "crawl summary")
            #expect(object["boards"] as? Int == Self.boards)
            #expect(object["boardsByMode"] as? [String: Int] == ["incremental": 5, "fallback": 1, "full": 0])
            #expect(object["requests"] as? Int == requests)
            #expect(object["retries"] as? Int == 0)
            #expect(object["posts"] as? [String: Int] == ["total": 251, "new": 40, "changed": 0, "gone": 1])
            // The fallback board was re-read whole (176 posts); the others' first pages (75 posts), of 251.
            #expect(object["verifiedShare"] as? Double == 1)
            #expect((object["durationSeconds"] as? Double).map { $0 >= 0 } == true)
            let boards = try #require(object["perBoard"] as? [[String: Any]])
            #expect(boards.count == Self.boards)
            #expect(boards.first { $0["boardId"] as? Int == NightlyHarness.bigBoard }?["mode"] as? String == "fallback")
            for line in result.stderr.split(separator: "\n") {
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
            }
        }
    }

    @Test func aStoreAtSchemaVersion2IsUpgradedByTheNextCrawlAndThenBuilds() async throws {
        try await NightlyHarness.with { nightly in
            #expect(try await nightly.run().0.status == 0)
            // Put the store back to schema version 2, as boardarchive before the nightly crawl wrote it.
            let queue = try DatabaseQueue(path: nightly.store)
            try await queue.write { db in
                try db.execute(
                    sql: """
                        DROP INDEX post_board_keys; DROP INDEX post_chronological_keys; DROP INDEX post_parent_keys;
                        DROP INDEX post_id_keys;
                        CREATE INDEX post_board_order ON post (boardId, (postType = 'notice') DESC, createdAt DESC, postId DESC);
                        CREATE INDEX post_chronological ON post ((postType = 'notice') DESC, createdAt, postId);
                        CREATE INDEX post_parent ON post (parentPostId);
                        DROP TABLE verified_part; ALTER TABLE board_crawl DROP COLUMN mode;
                        DROP TABLE redaction; DROP INDEX post_redaction; ALTER TABLE post DROP COLUMN redactionId;
                        ALTER TABLE post DROP COLUMN redactionMode; ALTER TABLE post DROP COLUMN redactedAt;
                        ALTER TABLE post DROP COLUMN purged;
                        DROP TABLE post_version; ALTER TABLE post DROP COLUMN editedAt; ALTER TABLE post DROP COLUMN versionCount;
                        DROP TABLE media; DROP TABLE media_source; DROP TABLE post_media; DROP TABLE archive_flag;
                        DELETE FROM grdb_migrations WHERE identifier IN ('v3-nightly', 'v4-redaction', 'v5-listing-keys', 'v6-versions', 'v7-media');
                        """)
            }
            try queue.close()
            let out = nightly.folder.appendingPathComponent("out").path
            let refused = try await CommandRunner.run(["build", "--store", nightly.store, "--out", out] + NightlyHarness.clock)
            #expect(refused.status == 73)
            #expect(refused.stderr.contains("has schema version 2, older than this boardarchive needs (7)"))
            // Pictures off: the demo's broken picture (`<img src=x>`) would be one more request to the API's host.
            let (crawled, requests) = try await nightly.run(["--verify-fraction", "0", "--media", "off"])
            #expect(crawled.status == 0, "stderr: \(crawled.stderr)")
            #expect(requests == 1 + Self.boards)
            #expect(try ArchiveStore(path: nightly.store).schemaVersion() == 7)
            let built = try await CommandRunner.run(["build", "--store", nightly.store, "--out", out] + NightlyHarness.clock)
            #expect(built.status == 0, "stderr: \(built.stderr)")
            try nightly.expectStoreHoldsTheSource()
        }
    }
}
