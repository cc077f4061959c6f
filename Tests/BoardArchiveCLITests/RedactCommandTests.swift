import BoardArchive
import FixtureAPI
import Foundation
import Testing

/// `boardarchive redact` end to end: two real processes (fixture API and boardarchive) talking HTTP on 127.0.0.1,
/// a real store file and a real site.
@Suite("boardarchive redact end to end", .serialized)
struct RedactCommandTests {
    static let clock = ["--now", "2026-11-22T09:00:00+09:00", "--timezone", "Asia/Seoul"]
    static let token = ["BOARD_API_TOKEN": "t"]

    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("boardarchive-redact-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("usage errors exit 64, unknown posts, boards, writers and redactions exit 66, each with one sentence")
    func refusals() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try CommandRunner.Background(["fixture-api", "--port", "0"])
        defer { server.stop() }
        let store = folder.appendingPathComponent("archive.sqlite").path
        let crawl = try await CommandRunner.run(["crawl", "--api", server.url, "--store", store], environment: Self.token)
        #expect(crawl.status == 0, "stderr: \(crawl.stderr)")
        let cases: [([String], Int32, String)] = [
            (["redact"], 64, "redact needs exactly one of --post ID, --writer NAME, --board ID, --list or --undo N; 0 were given."),
            (["redact", "--post", "1", "--board", "2", "--reason", "x"], 64, "2 were given."),
            (["redact", "--post", "1591476"], 64, "A redaction needs --reason TEXT"),
            (["redact", "--post", "1591476", "--mode", "anonymize", "--reason", "x"], 64, "--mode anonymize applies only to --writer"),
            (["redact", "--post", "42", "--reason", "x"], 66, "holds no post 42; check the id"),
            (["redact", "--board", "42", "--reason", "x"], 66, "holds no board 42"),
            (["redact", "--writer", "아무도 아닌 사람", "--reason", "x"], 66, "has a writer named \"아무도 아닌 사람\""),
            (["redact", "--undo", "7"], 66, "has no redaction 7; run boardarchive redact --list"),
        ]
        for (arguments, status, message) in cases {
            let result = try await CommandRunner.run(arguments + ["--store", store])
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") || $0.hasPrefix("Error:") }.count == 1)
        }
        let list = try await CommandRunner.run(["redact", "--list", "--store", store])
        #expect(list.status == 0 && list.stdout == "No redactions.\n")
    }
}
