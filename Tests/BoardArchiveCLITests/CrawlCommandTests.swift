import BoardArchive
import FixtureAPI
import Foundation
import GRDB
import Testing

/// `boardarchive crawl` against `boardarchive fixture-api`, two real processes talking HTTP on 127.0.0.1.
@Suite("boardarchive crawl end to end", .serialized)
struct CrawlCommandTests {
    static let token = "e2e-SECRET-token-91b2"

    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("boardarchive-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func crawlStoresExactlyTheDataset() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try CommandRunner.Background(["fixture-api", "--port", "0"])
        defer { server.stop() }
        let store = folder.appendingPathComponent("archive.sqlite").path
        let result = try await CommandRunner.run(["crawl", "--api", server.url, "--store", store], environment: ["BOARD_API_TOKEN": Self.token])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("Crawled 6 boards, 212 posts (212 new, 0 changed, 0 gone)"))

        // The store holds the bundled demo, shifted in time by one constant amount.
        let demo = try FixtureDataset.bundledDemo()
        let archive = try ArchiveStore(path: store)
        #expect(try archive.postCount() == demo.posts.count)
        #expect(try archive.boards().map(\.boardId).sorted() == demo.boards.map(\.boardId).sorted())
        var shifts: Set<Double> = []
        for expected in demo.posts {
            var stored = try #require(try archive.post(id: expected.postId))
            shifts.insert(stored.createdDateTime.timeIntervalSince(expected.createdDateTime))
            stored.createdDateTime = expected.createdDateTime
            #expect(stored == expected)
        }
        #expect(shifts.count == 1)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
            #expect(bytes.range(of: Data(Self.token.utf8)) == nil)
        }
        #expect(!result.stdout.contains(Self.token) && !result.stderr.contains(Self.token))
    }

    @Test func aTokenFileWorksAndARefusedTokenExitsWith77() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try CommandRunner.Background(
            ["fixture-api", "--port", "0", "--token-env", "FIXTURE_TOKEN"], environment: ["FIXTURE_TOKEN": Self.token])
        defer { server.stop() }
        let tokenFile = folder.appendingPathComponent("token")
        try Data((Self.token + "\n").utf8).write(to: tokenFile)
        let store = folder.appendingPathComponent("a.sqlite").path
        let good = try await CommandRunner.run(["crawl", "--api", server.url, "--store", store, "--token-file", tokenFile.path])
        #expect(good.status == 0, "stderr: \(good.stderr)")

        let wrong = try await CommandRunner.run(
            ["crawl", "--api", server.url, "--store", store], environment: ["BOARD_API_TOKEN": "wrong-token-value"])
        #expect(wrong.status == 77)
        #expect(wrong.stderr.contains("401"))
        #expect(!wrong.stderr.contains("wrong-token-value"))
    }

    @Test func missingTokenAndBadUsageHaveTheirExitCodes() async throws {
        let missing = try await CommandRunner.run([
            "crawl", "--api", "http://127.0.0.1:9/api/v2", "--store", "/tmp/unused-\(UUID().uuidString).sqlite",
        ])
        #expect(missing.status == 77)
        #expect(missing.stderr.contains("BOARD_API_TOKEN"))
        let usage = try await CommandRunner.run(["crawl", "--api", "ftp://example.com"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("--api must be an http(s) URL"))
        let help = try await CommandRunner.run(["crawl", "--help"])
        let helpText = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")  // the help is wrapped
        #expect(helpText.contains("65 the API sent data that breaks the contract, or a board still disagreed with its total after re-verification;"))
        let tinyPages = try await CommandRunner.run(["crawl", "--api", "http://127.0.0.1:9/api/v2", "--page-size", "1"])
        #expect(tinyPages.status == 64)
        #expect(tinyPages.stderr.contains("--page-size must be between 2 and 1000 (pages overlap by one post), not 1."))
        let unreachable = try await CommandRunner.run(
            ["crawl", "--api", "http://127.0.0.1:9/api/v2", "--store", "/tmp/unused-\(UUID().uuidString).sqlite", "--retries", "2"],
            environment: ["BOARD_API_TOKEN": Self.token])
        #expect(unreachable.status == 69)
        #expect(unreachable.stderr.contains("GET /boards got no response after 2 attempts"))
        #expect(unreachable.stderr.contains("(connection refused at http://127.0.0.1:9/api/v2/boards)"))
    }

    @Test func aStoreFromANewerBoardArchiveExitsWith73() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("archive.sqlite").path
        _ = try ArchiveStore(path: store)
        let queue = try DatabaseQueue(path: store)
        try await queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-from-the-future')") }
        try queue.close()
        let result = try await CommandRunner.run(
            ["crawl", "--api", "http://127.0.0.1:9/api/v2", "--store", store], environment: ["BOARD_API_TOKEN": Self.token])
        #expect(result.status == 73)
        #expect(result.stderr.contains("has schema version 8, newer than this boardarchive supports (7); upgrade boardarchive"))
    }

    @Test func theFixtureErrorBurstStatusMustBeAServerError() async throws {
        let refused = try await CommandRunner.run(["fixture-api", "--error-burst", "1", "--error-burst-status", "404"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--error-burst-status must be a server error status between 500 and 599, got 404."))
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try CommandRunner.Background(["fixture-api", "--port", "0", "--error-burst", "1", "--error-burst-status", "500"])
        defer { server.stop() }
        let result = try await CommandRunner.run(
            ["crawl", "--api", server.url, "--store", folder.appendingPathComponent("a.sqlite").path, "--log-level", "warning"],
            environment: ["BOARD_API_TOKEN": Self.token])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("HTTP 500") && !result.stderr.contains("HTTP 503"))
    }
}
