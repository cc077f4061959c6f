import BoardArchive
import Foundation
import Testing

/// What the commands print: progress lines in CI, a live line on a terminal, `--quiet`, `--version`.
@Suite("boardarchive output: progress, --quiet, --version", .serialized)
struct OutputCommandTests {
    /// A fixture API slow enough (100 ms a request, one board at a time) that a crawl lasts over a second.
    func slowServer() throws -> CommandRunner.Background {
        try CommandRunner.Background(["fixture-api", "--port", "0", "--latency-ms", "100"])
    }

    @Test func withoutATerminalProgressIsPlainLinesAtTheConfiguredInterval() async throws {
        let folder = try CommandRunner.temporaryFolder("boardarchive-output")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try slowServer()
        defer { server.stop() }
        let export = try await CommandRunner.run(
            [
                "export", "--api", server.url, "--concurrency", "1", "--media", "off", "--store", folder.appendingPathComponent("a.sqlite").path,
                "--out",
                folder.appendingPathComponent("site").path,
            ],
            environment: ["BOARD_API_TOKEN": "t", "BOARDARCHIVE_LOG_PROGRESS_INTERVAL": "0.05"])
        #expect(export.status == 0, "stderr: \(export.stderr)")
        #expect(!export.stderr.contains("\u{1B}"), "no escape codes when standard error is a pipe")
        let lines = export.stderr.split(separator: "\n").map(String.init)
        let crawl = lines.filter { $0.hasPrefix("progress: crawl ") }
        #expect(crawl.count >= 2, "\(export.stderr)")
        let pattern =
            #"^progress: crawl (\d/6 boards|listing boards), \d+ pages, \d+ posts, \d+\.\d requests/s, 0 retries, \d+ s(, \d{1,3} %)?(, ETA \d+ s)?$"#
        for line in crawl { #expect(line.range(of: pattern, options: .regularExpression) != nil, "\(line)") }
        #expect(lines.contains { $0.hasPrefix("progress: build ") && $0.contains("files rendered") }, "\(export.stderr)")
        #expect(lines.allSatisfy { $0.hasPrefix("progress: ") }, "nothing else on stderr: \(export.stderr)")
        #expect(export.stdout.contains("Crawled 6 boards, 212 posts"))
        // The default interval (5 s) writes no line during this short a crawl's build from the store.
        let build = try await CommandRunner.run(
            ["build", "--store", folder.appendingPathComponent("a.sqlite").path, "--out", folder.appendingPathComponent("site").path])
        #expect(build.status == 0)
        #expect(build.stderr.isEmpty, "\(build.stderr)")
    }

    @Test func withJSONLogsProgressIsOneJSONObjectPerLine() async throws {
        let folder = try CommandRunner.temporaryFolder("boardarchive-output")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try slowServer()
        defer { server.stop() }
        let crawl = try await CommandRunner.run(
            ["crawl", "--api", server.url, "--concurrency", "1", "--store", folder.appendingPathComponent("a.sqlite").path, "--json-logs"],
            environment: ["BOARD_API_TOKEN": "t", "BOARDARCHIVE_LOG_PROGRESS_INTERVAL": "0.05"])
        #expect(crawl.status == 0, "stderr: \(crawl.stderr)")
        let objects = try crawl.stderr.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        let progress = objects.filter { $0["event"] as? String == "progress" }
        #expect(progress.count >= 2)
        #expect(progress.allSatisfy { $0["stage"] as? String == "crawl" && $0["requests"] is Int && [0, 6].contains($0["boards"] as? Int) })
        #expect(progress.contains { $0["boards"] as? Int == 6 && ($0["posts"] as? Int ?? 0) > 0 })
    }

    @Test func quietPrintsNothingButErrors() async throws {
        let folder = try CommandRunner.temporaryFolder("boardarchive-output")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try CommandRunner.Background(["fixture-api", "--port", "0"])
        defer { server.stop() }
        let store = folder.appendingPathComponent("a.sqlite").path
        let quiet = try await CommandRunner.run(
            ["export", "--quiet", "--api", server.url, "--store", store, "--out", folder.appendingPathComponent("site").path],
            environment: ["BOARD_API_TOKEN": "t", "BOARDARCHIVE_LOG_PROGRESS_INTERVAL": "0.01"])
        #expect(quiet.status == 0, "stderr: \(quiet.stderr)")
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "stdout: \(quiet.stdout) stderr: \(quiet.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("site/index.html").path))
        let failing = try await CommandRunner.run(["crawl", "-q", "--api", server.url, "--store", store])
        #expect(failing.status == 77)
        #expect(failing.stdout.isEmpty)
        #expect(failing.stderr.hasPrefix("error: ") && failing.stderr.contains("BOARD_API_TOKEN"), "\(failing.stderr)")
        let both = try await CommandRunner.run(["build", "--quiet", "--verbose"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("Pass --quiet or --verbose, not both."))
    }

    @Test func versionPrintsTheVersion() async throws {
        let result = try await CommandRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == BoardArchiveVersion.string + "\n")
    }

    /// A terminal, through util-linux `script`: the line is redrawn in place, coloured unless `NO_COLOR`.
    @Test(arguments: [false, true])
    func onATerminalTheLineIsRedrawnInPlace(noColour: Bool) async throws {
        let script = try #require(["/usr/bin/script", "/bin/script"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let folder = try CommandRunner.temporaryFolder("boardarchive-output")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try slowServer()
        defer { server.stop() }
        let command = [
            CommandRunner.executable.path, "crawl", "--api", server.url, "--concurrency", "1", "--store",
            folder.appendingPathComponent("a.sqlite").path,
        ]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = ["-qec", command.joined(separator: " "), "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["BOARD_API_TOKEN"] = "t"
        environment["TERM"] = "xterm"
        environment["NO_COLOR"] = noColour ? "1" : nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("\r\u{1B}[2K"), "redrawn in place: \(text.debugDescription)")
        #expect(text.contains("4/6 boards") || text.contains("5/6 boards"))
        #expect(text.contains("\u{1B}[36") == !noColour, "colour only without NO_COLOR: \(text.debugDescription)")
        #expect(!text.contains("progress: "))
        #expect(text.contains("\u{1B}[2KCrawled 6 boards"), "the line is cleared before the summary")
    }
}
