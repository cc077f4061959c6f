import BoardArchive
import Foundation
import Testing

/// `demo`, `export` and `build` as users run them.
@Suite("boardarchive demo, export and build end to end", .serialized)
struct ExportCommandTests {
    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("boardarchive-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func demoExportsTheBundledBoardAndPrintsTheFileURL() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        let result = try await CommandRunner.run(["demo", "--out", site.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let index = site.appendingPathComponent("index.html")
        #expect(result.stdout.contains("Open \(index.absoluteString)"))
        #expect(result.stdout.contains("Crawled 6 boards, 212 posts"))
        let html = try String(contentsOf: index, encoding: .utf8)
        #expect(html.contains("자유게시판"))
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("boards/28479/page-5.html").path))
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("boards/28479/page-6.html").path))
    }

    @Test func exportThenRebuildFromTheStoreGivesTheSameBytes() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try CommandRunner.Background(["fixture-api", "--port", "0"])
        defer { server.stop() }
        let store = folder.appendingPathComponent("archive.sqlite").path
        let first = folder.appendingPathComponent("first").path
        let second = folder.appendingPathComponent("second").path
        let clock = ["--now", "2026-11-22T09:00:00+09:00", "--timezone", "Asia/Seoul"]
        let export = try await CommandRunner.run(
            ["export", "--api", server.url, "--store", store, "--out", first] + clock, environment: ["BOARD_API_TOKEN": "t"])
        #expect(export.status == 0, "stderr: \(export.stderr)")
        #expect(export.stdout.contains("Crawled 6 boards"))
        // SOURCE_DATE_EPOCH 1763769600 = 2025-11-22T00:00:00Z is overridden by --now.
        let build = try await CommandRunner.run(
            ["build", "--store", store, "--out", second] + clock, environment: ["SOURCE_DATE_EPOCH": "1763769600"])
        #expect(build.status == 0, "stderr: \(build.stderr)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: first).sorted()
        #expect(files == (try FileManager.default.subpathsOfDirectory(atPath: second).sorted()))
        #expect(files.count > 200)
        for file in files {
            #expect(
                FileManager.default.contents(atPath: first + "/" + file) == FileManager.default.contents(atPath: second + "/" + file),
                "\(file) differs")
        }
    }

    @Test func buildErrorsHaveTheirExitCodes() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = try await CommandRunner.run([
            "build", "--store", folder.appendingPathComponent("nope.sqlite").path, "--out", folder.path + "/s",
        ])
        #expect(missing.status == 73)
        #expect(missing.stderr.contains("nope.sqlite"))
        let badClock = try await CommandRunner.run(["build", "--now", "yesterday"])
        #expect(badClock.status == 64)
        #expect(badClock.stderr.contains("--now must be an ISO 8601"))
        let badZone = try await CommandRunner.run(["build", "--timezone", "Mars/Olympus"])
        #expect(badZone.status == 64)
        for arguments in [["demo", "--lang", "xx"], ["demo", "--timezone", "Mars/Olympus"]] {
            let demo = try await CommandRunner.run(arguments + ["--out", folder.path + "/demo"])
            #expect(demo.status == 64, "\(arguments): \(demo.stderr)")
            #expect(demo.stderr.contains("must be"), "\(arguments): \(demo.stderr)")
            #expect(!demo.stderr.contains("CommandError"), "\(arguments): \(demo.stderr)")
        }
    }

    @Test func exportRefusesAForeignOutputFolderBeforeCrawling() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let foreign = folder.appendingPathComponent("documents")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: foreign.appendingPathComponent("notes.txt"))
        let store = folder.appendingPathComponent("archive.sqlite").path
        // Nothing listens on port 9: a crawl would fail with 69; the guard must answer first with 73.
        let export = try await CommandRunner.run(
            ["export", "--api", "http://127.0.0.1:9/api/v2", "--store", store, "--out", foreign.path], environment: ["BOARD_API_TOKEN": "t"])
        #expect(export.status == 73, "stderr: \(export.stderr)")
        #expect(export.stderr.contains("no .boardarchive marker"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: foreign.path) == ["notes.txt"])
        let demo = try await CommandRunner.run(["demo", "--out", foreign.path])
        #expect(demo.status == 73, "stderr: \(demo.stderr)")
        #expect(!demo.stdout.contains("Crawled"))
    }
}
