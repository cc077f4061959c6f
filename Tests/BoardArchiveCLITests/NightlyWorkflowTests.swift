import Foundation
import Testing
import Yams

/// `examples/github-actions/nightly.yml`: parsed and checked (schedule, store cache, the token only through the
/// environment, Pages), and its boardarchive commands run here against the fixture API, two nights in a row.
@Suite("The example nightly workflow", .serialized)
struct NightlyWorkflowTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples/github-actions")

    /// The value of `key` in a mapping node (keys compared as written, so `on` stays `on`).
    static func value(_ node: Node?, _ key: String) -> Node? {
        guard case .mapping(let mapping)? = node else { return nil }
        return mapping.first { $0.key.scalar?.string == key }?.value
    }

    static func workflow() throws -> Node {
        let text = try String(contentsOf: examples.appendingPathComponent("nightly.yml"), encoding: .utf8)
        return try #require(try Yams.compose(yaml: text))
    }

    static func steps(of job: String) throws -> [Node] {
        let steps = value(value(value(try workflow(), "jobs"), job), "steps")
        return Array(try #require(steps?.sequence))
    }

    /// The shell lines of every `run:` step, in order.
    static func runLines() throws -> [String] {
        try steps(of: "archive").compactMap { value($0, "run")?.string }.flatMap { $0.split(separator: "\n").map(String.init) }
    }

    @Test func runsEveryNightAndCanBeStartedByHand() throws {
        let on = Self.value(try Self.workflow(), "on")
        let cron = try #require(Self.value(Self.value(on, "schedule")?.sequence?.first, "cron")?.string)
        #expect(cron.split(separator: " ").count == 5, "\(cron)")
        #expect(cron.hasSuffix("* * *"), "daily: \(cron)")
        #expect(Self.value(on, "workflow_dispatch") != nil)
        #expect(Self.value(Self.value(try Self.workflow(), "concurrency"), "cancel-in-progress")?.bool == false, "never two runs on one store")
    }

    @Test func theStoreIsRestoredBeforeTheExportAndSavedAfterItEvenOnFailure() throws {
        let steps = try Self.steps(of: "archive")
        let uses = steps.map { Self.value($0, "uses")?.string ?? "" }
        let restore = try #require(uses.firstIndex { $0.hasPrefix("actions/cache/restore@") })
        let save = try #require(uses.firstIndex { $0.hasPrefix("actions/cache/save@") })
        let export = try #require(steps.firstIndex { Self.value($0, "run")?.string?.contains("boardarchive export") == true })
        #expect(restore < export && export < save)
        for index in [restore, save] {
            #expect(Self.value(Self.value(steps[index], "with"), "path")?.string == "archive.sqlite*", "the store and its WAL files")
        }
        #expect(Self.value(Self.value(steps[restore], "with"), "restore-keys")?.string == "archive-store-")
        #expect(Self.value(steps[save], "if")?.string == "always()", "a crawl stopped halfway stored its pages; the next night resumes")
        let config = try String(contentsOf: Self.examples.appendingPathComponent("boardarchive.yaml"), encoding: .utf8)
        #expect(config.contains("\nstore: archive.sqlite\n"))
    }

    @Test func theTokenComesFromASecretThroughTheEnvironmentOnly() throws {
        let text = try String(contentsOf: Self.examples.appendingPathComponent("nightly.yml"), encoding: .utf8)
        let env = Self.value(Self.value(Self.value(try Self.workflow(), "jobs"), "archive"), "env")
        #expect(Self.value(env, "BOARD_API_TOKEN")?.string == "${{ secrets.BOARD_API_TOKEN }}")
        #expect(text.components(separatedBy: "secrets.").count - 1 == 1, "the secret is named once, in the job's environment")
        for line in try Self.runLines() {
            #expect(
                !line.contains("secrets") && !line.contains("TOKEN") && !line.contains("--token"), "a command line never carries the token: \(line)")
        }
        let config = try String(contentsOf: Self.examples.appendingPathComponent("boardarchive.yaml"), encoding: .utf8)
        #expect(config.contains("token-env: BOARD_API_TOKEN"))
    }

    @Test func theSiteIsDeployedToPages() throws {
        let workflow = try Self.workflow()
        let upload = try Self.steps(of: "archive").first { Self.value($0, "uses")?.string?.hasPrefix("actions/upload-pages-artifact@") == true }
        #expect(Self.value(Self.value(upload, "with"), "path")?.string == "site")
        let deploy = try Self.steps(of: "deploy")
        #expect(deploy.contains { Self.value($0, "uses")?.string?.hasPrefix("actions/deploy-pages@") == true })
        #expect(Self.value(Self.value(Self.value(workflow, "jobs"), "deploy"), "needs")?.string == "archive")
        let permissions = Self.value(workflow, "permissions")
        #expect(Self.value(permissions, "pages")?.string == "write" && Self.value(permissions, "id-token")?.string == "write")
    }

    /// The `boardarchive` lines of the `run:` steps, run in a folder holding the example `boardarchive.yaml`, with the
    /// job's environment (the secret and the variable replaced by a test token and the fixture API's URL).
    @Test func itsCommandsRunAgainstTheFixtureAPITwoNightsInARow() async throws {
        let folder = try CommandRunner.temporaryFolder("boardarchive-nightly")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: Self.examples.appendingPathComponent("boardarchive.yaml"), to: folder.appendingPathComponent("boardarchive.yaml"))
        let server = try CommandRunner.Background(["fixture-api", "--port", "0"])
        defer { server.stop() }
        let token = "nightly-secret-token-5f1e"
        let jobEnv = Self.value(Self.value(Self.value(try Self.workflow(), "jobs"), "archive"), "env")
        var environment: [String: String] = [:]
        for (key, value) in jobEnv?.mapping ?? [:] {
            guard let name = key.string, let text = value.string else { continue }
            environment[name] = text.replacingOccurrences(of: "${{ secrets.BOARD_API_TOKEN }}", with: token)
                .replacingOccurrences(of: "${{ vars.BOARD_API_URL }}", with: server.url)
        }
        #expect(environment["BOARDARCHIVE_API_URL"] == server.url)
        let commands = try Self.runLines().map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("boardarchive ") }
        #expect(commands.contains("boardarchive export"))
        var outputs: [String] = []
        for night in 1...2 {
            var stdout = ""
            for command in commands {
                #expect(!command.contains("\"") && !command.contains("'") && !command.contains("$"), "plain words only: \(command)")
                let arguments = command.split(separator: " ").dropFirst().map(String.init)
                let result = try await CommandRunner.run(arguments, environment: environment, in: folder)
                #expect(result.status == 0, "night \(night), \(command): \(result.stderr)")
                #expect(!result.stdout.contains(token) && !result.stderr.contains(token))
                stdout += result.stdout
            }
            outputs.append(stdout)
        }
        #expect(outputs[0].contains("Crawled 6 boards, 212 posts (212 new"), "\(outputs[0])")
        #expect(outputs[1].contains("212 posts (0 new, 0 changed, 0 gone)"), "the second night is incremental: \(outputs[1])")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("site/index.html").path))
        let home = try String(contentsOf: folder.appendingPathComponent("site/index.html"), encoding: .utf8)
        #expect(home.contains("<html lang=\"ko\">"))
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            let data = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path) ?? Data()
            #expect(data.range(of: Data(token.utf8)) == nil, "the token is written nowhere: \(path)")
        }
    }
}
