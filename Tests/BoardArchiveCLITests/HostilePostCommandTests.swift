import BoardArchive
import FixtureAPI
import Foundation
import Testing

/// A post the Markdown renderer cannot take in bounded time is published as plain text, and `export` names it in one
/// warning, in the text log and in the JSON log.
@Suite("boardarchive export: a hostile post", .serialized)
struct HostilePostCommandTests {
    /// Serves two posts on board 1: an ordinary one and 100 KB of unclosed processing instructions (`<?`).
    func server(in folder: URL) throws -> CommandRunner.Background {
        let writer = Writer(displayName: "w")
        let date = ArchiveDate.parse("2026-01-01T00:00:00Z") ?? Date(timeIntervalSince1970: 0)
        let posts = [
            Post(postId: 11, title: "ordinary", boardId: 1, writer: writer, contents: "**bold**", createdDateTime: date),
            Post(postId: 12, title: "hostile", boardId: 1, writer: writer, contents: String(repeating: "<?", count: 50_000), createdDateTime: date),
        ]
        let dataset = FixtureDataset(referenceDate: date, boards: [Board(boardId: 1, displayName: "b", orderNo: 1)], posts: posts)
        let file = folder.appendingPathComponent("dataset.json")
        try JSONEncoder().encode(dataset).write(to: file)
        return try CommandRunner.Background(["fixture-api", "--port", "0", "--data", file.path, "--keep-dates"])
    }

    @Test(arguments: [false, true])
    func theWarningNamesThePostOnceInTextAndJSONLogs(json: Bool) async throws {
        let folder = try CommandRunner.temporaryFolder("boardarchive-hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        let api = try server(in: folder)
        defer { api.stop() }
        let export = try await CommandRunner.run(
            [
                "export", "--api", api.url, "--store", folder.appendingPathComponent("a.sqlite").path, "--create-store", "--out",
                folder.appendingPathComponent("site").path,
            ] + (json ? ["--json-logs"] : []),
            environment: ["BOARD_API_TOKEN": "t"])
        #expect(export.status == 0, "stderr: \(export.stderr)")
        let warnings = export.stderr.split(separator: "\n").map(String.init).filter { $0.contains("rendered as plain text") }
        #expect(warnings.count == 1, "\(export.stderr)")
        let warning = try #require(warnings.first)
        if json {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(warning.utf8)) as? [String: Any])
            #expect(object["level"] as? String == "warning" && object["board"] as? String == "1" && object["post"] as? String == "12")
            #expect((object["reason"] as? String ?? "").contains("steps"))
        } else {
            #expect(warning.hasPrefix("warning: Post rendered as plain text") && warning.contains("board=1") && warning.contains("post=12"))
            #expect(warning.contains("reason=unclosed brackets, HTML openers or autolink candidates would cost the parser about"), "\(warning)")
        }
        let page = try String(contentsOf: folder.appendingPathComponent("site/posts/12.html"), encoding: .utf8)
        #expect(page.contains("<p class=\"plain-text\">&lt;?&lt;?"))
    }
}
