import Foundation
import Testing

/// `build --config FILE`: settings from a JSON file, paths relative to it, flags winning, mistakes refused.
@Suite("boardarchive build --config", .serialized)
struct BuildConfigCommandTests {
    /// A folder holding a demo store (`archive.sqlite`), made once by `boardarchive demo`.
    static func demoStore() async throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("boardarchive-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let demo = try await CommandRunner.run([
            "demo", "--out", folder.appendingPathComponent("demo-site").path, "--store", folder.appendingPathComponent("archive.sqlite").path,
        ])
        #expect(demo.status == 0, "stderr: \(demo.stderr)")
        return folder
    }

    func write(_ json: String, to folder: URL, name: String = "boardarchive.json") throws -> String {
        let url = folder.appendingPathComponent("config").appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(json.utf8).write(to: url)
        return url.path
    }

    @Test func settingsComeFromTheFileWithPathsRelativeToItAndFlagsWin() async throws {
        let folder = try await Self.demoStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("archive.sqlite").path
        let config = try write(#"{"out": "public", "lang": "en", "keywords": ["서울"], "topKeywords": 0, "timezone": "Asia/Seoul"}"#, to: folder)
        let build = try await CommandRunner.run(["build", "--config", config, "--store", store])
        #expect(build.status == 0, "stderr: \(build.stderr)")
        let site = folder.appendingPathComponent("config/public")
        let home = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(home.contains("<html lang=\"en\">"))
        let keywords = try String(contentsOf: site.appendingPathComponent("keywords/index.html"), encoding: .utf8)
        #expect(keywords.contains("서울"))
        #expect(keywords.components(separatedBy: "class=\"keyword-entry").count - 1 == 1, "only the configured keyword: \(keywords)")
        // Flags win: --lang ko over "en", --top-keywords 3 over 0, --keyword adds to the file's keywords.
        let again = try await CommandRunner.run([
            "build", "--config", config, "--store", store, "--lang", "ko", "--top-keywords", "3", "--keyword", "회의",
        ])
        #expect(again.status == 0, "stderr: \(again.stderr)")
        let korean = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(korean.contains("<html lang=\"ko\">"))
        let more = try String(contentsOf: site.appendingPathComponent("keywords/index.html"), encoding: .utf8)
        #expect(more.contains("서울") && more.contains("회의"))
        #expect(more.components(separatedBy: "class=\"keyword-entry").count - 1 >= 4)
    }

    @Test(arguments: [
        (#"{"keyword": ["서울"]}"#, "unknown key \"keyword\""),
        (#"{"topKeywords": "many"}"#, "\"topKeywords\" must be"),
        (#"{"keywords": "서울"}"#, "\"keywords\" must be a list of strings"),
        (#"{"lang": "fr"}"#, "\"lang\" in "), (#"{"timezone": "Mars/Olympus"}"#, "\"timezone\" in "),
        (#"{"keywords": [" "]}"#, "\"keywords\" in "), (#"{"topKeywords": -1}"#, "\"topKeywords\" in "),
        (#"["서울"]"#, "is not a JSON object"),
    ])
    func mistakesAreUsageErrorsNamingTheFile(json: String, message: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("boardarchive-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = try write(json, to: folder)
        let build = try await CommandRunner.run(["build", "--config", config, "--store", folder.appendingPathComponent("none.sqlite").path])
        #expect(build.status == 64, "stderr: \(build.stderr)")
        #expect(build.stderr.contains(message), "stderr: \(build.stderr)")
        let missing = try await CommandRunner.run(["build", "--config", folder.appendingPathComponent("nope.json").path])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("nope.json cannot be read"))
    }
}
