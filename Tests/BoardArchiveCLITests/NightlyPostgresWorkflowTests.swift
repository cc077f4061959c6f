import Foundation
import Testing
import Yams

/// `examples/github-actions/nightly-postgres.yml`: the store is a PostgreSQL URL from a variable with its password from
/// a secret, never cached; its boardarchive commands run here against the fixture API and the test server.
@Suite("The example nightly workflow on PostgreSQL", .serialized)
struct NightlyPostgresWorkflowTests {
    typealias Recipe = NightlyWorkflowTests

    static func workflow() throws -> Node {
        let text = try String(contentsOf: Recipe.examples.appendingPathComponent("nightly-postgres.yml"), encoding: .utf8)
        return try #require(try Yams.compose(yaml: text))
    }

    static func steps() throws -> [Node] {
        Array(try #require(Recipe.value(Recipe.value(Recipe.value(try workflow(), "jobs"), "archive"), "steps")?.sequence))
    }

    @Test func theStoreURLAndPasswordComeFromTheSettingsAndNothingIsCached() throws {
        let env = Recipe.value(Recipe.value(Recipe.value(try Self.workflow(), "jobs"), "archive"), "env")
        #expect(Recipe.value(env, "BOARDARCHIVE_STORE")?.string == "${{ vars.ARCHIVE_STORE_URL }}")
        #expect(Recipe.value(env, "PGPASSWORD")?.string == "${{ secrets.ARCHIVE_DB_PASSWORD }}")
        let steps = try Self.steps()
        let cached = steps.compactMap { Recipe.value(Recipe.value($0, "with"), "path")?.string }
        #expect(
            cached == [".boardarchive", ".boardarchive/.build", "site"],
            "the tool checked out and its build cached, the site uploaded, no store: \(cached)")
        let text = try String(contentsOf: Recipe.examples.appendingPathComponent("nightly-postgres.yml"), encoding: .utf8)
        #expect(!text.contains("--store") && !text.contains("PGPASSWORD=") && !text.contains("password-file"), "no secret on a command line")
    }

    /// The `boardarchive` lines of the run steps with their `if:` (a night started by hand skips the store check).
    static func commands() throws -> [(line: String, onlyScheduled: Bool)] {
        try steps().flatMap { step -> [(String, Bool)] in
            let onlyScheduled = Recipe.value(step, "if")?.string == "${{ !inputs.new_archive }}"
            let lines = (Recipe.value(step, "run")?.string ?? "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            return lines.filter { $0.hasPrefix("boardarchive ") }.map { ($0, onlyScheduled) }
        }
    }

    @Test func itsCommandsRunAgainstTheFixtureAPIAndAnEmptyDatabaseFailsTheNight() async throws {
        guard let pg = PostgresCLIServer.server() else { return }
        let folder = try CommandRunner.temporaryFolder("boardarchive-nightly-pg")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: Recipe.examples.appendingPathComponent("boardarchive.yaml"), to: folder.appendingPathComponent("boardarchive.yaml"))
        let server = try CommandRunner.Background(["fixture-api", "--port", "0"])
        defer { server.stop() }
        let token = "nightly-secret-token-0a9d"
        let commands = try Self.commands()
        #expect(commands.map(\.line) == ["boardarchive store check", "boardarchive --version", "boardarchive export"])
        try await PostgresCLIServer.withFreshDatabase { url in
            var environment = ["BOARD_API_TOKEN": token, "BOARDARCHIVE_API_URL": server.url, "BOARDARCHIVE_STORE": url, "PGPASSWORD": pg.password]
            environment["PGPASSFILE"] = "/dev/null"
            func night(byHand: Bool) async throws -> (stdout: String, refusal: CommandRunner.Result?) {
                environment["BOARDARCHIVE_STORE_CREATE"] = byHand ? "true" : "false"
                var stdout = ""
                for command in commands where !(byHand && command.onlyScheduled) {
                    let result = try await CommandRunner.run(
                        command.line.split(separator: " ").dropFirst().map(String.init), environment: environment, in: folder)
                    for text in [result.stdout, result.stderr] { #expect(!text.contains(token) && !text.contains(pg.password)) }
                    if result.status != 0 { return (stdout, result) }
                    stdout += result.stdout
                }
                return (stdout, nil)
            }
            // A scheduled night before the archive exists fails at the store check (exit 73) and creates nothing.
            let early = try await night(byHand: false)
            #expect(early.refusal?.status == 73, "\(early.refusal?.stderr ?? early.stdout)")
            #expect(early.refusal?.stderr.contains("is empty or is not a boardarchive store") == true)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("site").path))
            let first = try await night(byHand: true)
            #expect(first.refusal == nil, "night 1: \(first.refusal?.stderr ?? "")")
            #expect(first.stdout.contains("Crawled 6 boards, 212 posts (212 new"), "\(first.stdout)")
            let second = try await night(byHand: false)
            #expect(second.refusal == nil, "night 2: \(second.refusal?.stderr ?? "")")
            #expect(second.stdout.contains("PostgreSQL store") && second.stdout.contains("212 posts (0 new, 0 changed, 0 gone)"), "\(second.stdout)")
            // The variable names another, empty database (a wrong URL): the night fails loudly, the site stays.
            let site = try Data(contentsOf: folder.appendingPathComponent("site/index.html"))
            try await PostgresCLIServer.withFreshDatabase { empty in
                environment["BOARDARCHIVE_STORE"] = empty
                let wrong = try await night(byHand: false)
                #expect(wrong.refusal?.status == 73, "\(wrong.refusal?.stderr ?? wrong.stdout)")
            }
            #expect(try Data(contentsOf: folder.appendingPathComponent("site/index.html")) == site)
        }
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            let data = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path) ?? Data()
            #expect(data.range(of: Data(pg.password.utf8)) == nil && data.range(of: Data(token.utf8)) == nil, "no secret in \(path)")
        }
    }
}
