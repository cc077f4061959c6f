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
        #expect(config.contains("\nstore: archive.sqlite\n") && config.contains("\nstore.create: false\n"))
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

    @Test func onlyAVerifiedCompleteBackupIsRestoredAndTheGitHubTokenReachesOnlyTheStepsThatNeedIt() throws {
        let steps = try Self.steps(of: "archive")
        let env = Self.value(Self.value(Self.value(try Self.workflow(), "jobs"), "archive"), "env")
        #expect(Self.value(env, "GH_TOKEN") == nil, "the crawl and build never see the repository's token")
        for step in steps {
            let run = Self.value(step, "run")?.string ?? ""
            let token = Self.value(Self.value(step, "env"), "GH_TOKEN")?.string
            #expect((token != nil) == run.contains("gh release"), "GH_TOKEN exactly where gh runs: \(run.prefix(60))")
            if run.contains("gh release") { #expect(Self.value(step, "shell")?.string == "bash", "bash -eo pipefail for pipelines") }
        }
        let restore = try #require(steps.compactMap { Self.value($0, "run")?.string }.first { $0.contains("gh release download") })
        let lines = restore.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let verify = try #require(lines.firstIndex { $0.contains("sha256sum --check") })
        let check = try #require(lines.firstIndex { $0.contains("boardarchive store check --store store-backup/restored.sqlite") })
        let move = try #require(lines.firstIndex { $0.contains("mv store-backup/restored.sqlite archive.sqlite") })
        #expect(verify < check && check <= move, "the parts match their manifest and the file is checked before it becomes the store")
        #expect(!restore.contains("> archive.sqlite"), "never decompressed straight into the store's path")
        let backup = try #require(steps.compactMap { Self.value($0, "run")?.string }.first { $0.contains("gh release upload") })
        let uploads = backup.split(separator: "\n").filter { $0.contains("gh release upload") }
        #expect(uploads.count == 2 && uploads.last?.contains(".sha256") == true, "the manifest is uploaded last")
        #expect(backup.contains("tail -n 3") && backup.contains("$GITHUB_RUN_ATTEMPT"))
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
    /// job's environment (the secret and the variable replaced by a test token and the fixture API's URL): a first night
    /// started by hand as a new archive, a scheduled second night, a third night whose cache was evicted (refused, the
    /// site untouched), and a fourth from the restored backup.
    @Test func itsCommandsRunAgainstTheFixtureAPIFourNightsInARow() async throws {
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
        #expect(commands.contains("boardarchive store backup --to store-backup/archive.sqlite"))
        let newArchive = "${{ inputs.new_archive && 'true' || 'false' }}"
        #expect(environment["BOARDARCHIVE_STORE_CREATE"] == newArchive)
        /// Runs the night's commands (the first night by hand with "new archive" ticked); the output, or the refusal.
        func night(_ number: Int, byHand: Bool) async throws -> (stdout: String, refusal: CommandRunner.Result?) {
            environment["BOARDARCHIVE_STORE_CREATE"] = byHand ? "true" : "false"
            var stdout = ""
            for command in commands {
                #expect(!command.contains("\"") && !command.contains("'") && !command.contains("$"), "plain words only: \(command)")
                let arguments = command.split(separator: " ").dropFirst().map(String.init)
                let result = try await CommandRunner.run(arguments, environment: environment, in: folder)
                #expect(!result.stdout.contains(token) && !result.stderr.contains(token))
                if result.status != 0 { return (stdout, result) }
                stdout += result.stdout
            }
            return (stdout, nil)
        }
        let first = try await night(1, byHand: true)
        #expect(first.refusal == nil, "night 1: \(first.refusal?.stderr ?? "")")
        #expect(first.stdout.contains("Crawled 6 boards, 212 posts (212 new"), "\(first.stdout)")
        let second = try await night(2, byHand: false)
        #expect(second.refusal == nil, "night 2: \(second.refusal?.stderr ?? "")")
        #expect(second.stdout.contains("212 posts (0 new, 0 changed, 0 gone)"), "the second night is incremental: \(second.stdout)")
        #expect(second.stdout.contains("212 posts") && second.stdout.contains("integrity_check ok"), "the backup: \(second.stdout)")
        // The cache was evicted: no store. The scheduled night fails loudly and publishes nothing.
        let site = try String(contentsOf: folder.appendingPathComponent("site/index.html"), encoding: .utf8)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(at: folder.appendingPathComponent("archive.sqlite" + suffix)) }
        let third = try await night(3, byHand: false)
        #expect(third.refusal?.status == 73, "night 3: \(third.refusal?.stderr ?? third.stdout)")
        #expect(third.refusal?.stderr.contains("archive.sqlite does not exist, so nothing was crawled, changed or published") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("archive.sqlite").path))
        #expect(try String(contentsOf: folder.appendingPathComponent("site/index.html"), encoding: .utf8) == site)
        // The restore step puts the backup back; the next night goes on incrementally from it.
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent("store-backup/archive.sqlite"), to: folder.appendingPathComponent("archive.sqlite"))
        let fourth = try await night(4, byHand: false)
        #expect(fourth.refusal == nil, "night 4: \(fourth.refusal?.stderr ?? "")")
        #expect(fourth.stdout.contains("212 posts (0 new, 0 changed, 0 gone)"), "\(fourth.stdout)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("site/index.html").path))
        let home = try String(contentsOf: folder.appendingPathComponent("site/index.html"), encoding: .utf8)
        #expect(home.contains("<html lang=\"ko\">"))
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            let data = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path) ?? Data()
            #expect(data.range(of: Data(token.utf8)) == nil, "the token is written nowhere: \(path)")
        }
    }
}
