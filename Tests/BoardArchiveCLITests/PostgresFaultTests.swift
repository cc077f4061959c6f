import FixtureAPI
import Foundation
import Testing

/// A PostgreSQL server that goes away under a running command, on a private server of the test's own (the shared
/// test server stays up for the other suites).
@Suite("PostgreSQL faults end to end", .serialized)
struct PostgresFaultTests {
    /// The repository, where scripts/postgres-server.sh lives.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `scripts/postgres-server.sh COMMAND ENVFILE` to its end (output to /dev/null) and returns its exit status.
    ///
    /// Spawned and reaped directly: the server it starts outlives it holding its standard streams, and Foundation's
    /// `Process` was seen to leave the script's exit unnoticed (a zombie) in this case.
    static func server(_ command: String, _ envfile: String) async throws -> Int32 {
        await withCheckedContinuation { continuation in
            Thread {
                let script = repository.appendingPathComponent("scripts/postgres-server.sh").path
                var arguments: [UnsafeMutablePointer<CChar>?] = [strdup(script), strdup(command), strdup(envfile), nil]
                defer { for argument in arguments { free(argument) } }
                var actions = posix_spawn_file_actions_t()
                posix_spawn_file_actions_init(&actions)
                defer { posix_spawn_file_actions_destroy(&actions) }
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
                var pid: pid_t = 0
                guard posix_spawn(&pid, script, &actions, nil, &arguments, environ) == 0 else { return continuation.resume(returning: -1) }
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1, errno == EINTR {}
                continuation.resume(returning: (status >> 8) & 0xFF)
            }.start()
        }
    }

    /// Starts a private server (`scripts/postgres-server.sh COMMAND`, `start` or `start-tls`) with its env file in a new
    /// folder named after `prefix`, runs `body` with the env file and the folder, and stops the server and removes the
    /// folder on every path.
    static func withPrivateServer(
        _ prefix: String, command: String = "start", _ body: (_ envfile: String, _ folder: URL) async throws -> Void
    ) async throws {
        let folder = try CommandRunner.temporaryFolder(prefix)
        defer { try? FileManager.default.removeItem(at: folder) }
        let envfile = folder.appendingPathComponent("pg.env").path
        #expect(try await server(command, envfile) == 0)
        do {
            try await body(envfile, folder)
        } catch {
            _ = try? await server("stop", envfile)
            throw error
        }
        #expect(try await server("stop", envfile) == 0)
    }

    /// The variables a started server wrote, by name.
    static func variables(_ envfile: String) throws -> [String: String] {
        var variables: [String: String] = [:]
        for line in try String(contentsOfFile: envfile, encoding: .utf8).split(separator: "\n") {
            let parts = line.replacingOccurrences(of: "export ", with: "").split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { variables[parts[0]] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        }
        return variables
    }

    @Test func aServerRestartInTheMiddleOfABuildIsOneSentenceAndThePreviousSiteStays() async throws {
        try await Self.withPrivateServer("boardarchive-pg-fault") { envfile, folder in
            try await Self.buildThroughARestart(envfile: envfile, folder: folder)
        }
    }

    /// The body of the test above, on a started server.
    static func buildThroughARestart(envfile: String, folder: URL) async throws {
        let variables = try Self.variables(envfile)
        let url = try #require(variables["BOARDARCHIVE_TEST_POSTGRES_URL"])
        let password = try String(contentsOfFile: try #require(variables["BOARDARCHIVE_TEST_POSTGRES_PASSWORD_FILE"]), encoding: .utf8)
        let environment = ["PGPASSWORD": password, "PGPASSFILE": "/dev/null"]
        // An archive large enough that its build takes seconds, moved into PostgreSQL.
        let store = folder.appendingPathComponent("bench.sqlite").path
        let generated = try await CommandRunner.run(["bench-data", "--posts", "8000", "--boards", "4", "--seed", "3", "--store", store])
        #expect(generated.status == 0, "stderr: \(generated.stderr)")
        let copied = try await CommandRunner.run(["store", "copy", "--from", store, "--to", url], environment: environment)
        #expect(copied.status == 0, "stderr: \(copied.stderr)")
        let site = folder.appendingPathComponent("site").path
        let clock = ["--now", "2026-01-15T12:00:00Z", "--timezone", "Asia/Seoul", "--top-keywords", "0"]
        let first = try await CommandRunner.run(["build", "--store", url, "--out", site] + clock, environment: environment)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        let before = try CommandRunner.files(under: URL(fileURLWithPath: site))
        // Every page is made again in English; the server restarts (connections dropped) while that build reads.
        let build = try RunningCommand(["build", "--store", url, "--out", site, "--lang", "en"] + clock, environment: environment)
        try await Task.sleep(for: .milliseconds(1_500))
        #expect(build.process.isRunning, "the build was still reading when the server restarted")
        #expect(try await Self.server("restart", envfile) == 0)
        // A lost connection must end the build, never leave it waiting: a minute is far more than it needs.
        for _ in 0..<600 where build.process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        if build.process.isRunning {
            build.send(SIGKILL)
            Issue.record("the build still waited a minute after the server restarted")
        }
        let failed = await build.wait()
        #expect(failed.status == 73, "stderr: \(failed.stderr)")
        let errors = failed.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
        #expect(errors.count == 1 && errors[0].contains(url) && errors[0].contains("cannot be reached"), "\(failed.stderr)")
        #expect(!failed.stderr.contains(password.trimmingCharacters(in: .newlines)))
        #expect(try CommandRunner.files(under: URL(fileURLWithPath: site)) == before, "the previous site is left as it was")
        // The server is back: the same build now succeeds.
        let again = try await CommandRunner.run(["build", "--store", url, "--out", site, "--lang", "en"] + clock, environment: environment)
        #expect(again.status == 0, "stderr: \(again.stderr)")
    }

    @Test func aServerRestartInTheMiddleOfACrawlReconnectsAndLosesNothing() async throws {
        try await Self.withPrivateServer("boardarchive-pg-crawl-fault") { envfile, _ in
            try await Self.crawlThroughARestart(envfile: envfile)
        }
    }

    /// The body of the test above, on a started server.
    static func crawlThroughARestart(envfile: String) async throws {
        let variables = try Self.variables(envfile)
        let url = try #require(variables["BOARDARCHIVE_TEST_POSTGRES_URL"])
        let passwordFile = try #require(variables["BOARDARCHIVE_TEST_POSTGRES_PASSWORD_FILE"])
        let password = try String(contentsOfFile: passwordFile, encoding: .utf8).trimmingCharacters(in: .newlines)
        let environment = ["PGPASSWORD": password, "PGPASSFILE": "/dev/null"]
        try await NightlyHarness.with(faults: FixtureFaults(latency: 100)) { nightly in
            nightly.storeURL = url
            let crawl = try nightly.start(["--page-size", "5", "--concurrency", "2", "--verify-fraction", "0"], environment: environment)
            while await nightly.server.requestCount < 8, crawl.process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
            #expect(crawl.process.isRunning, "the crawl was still going when the server restarted")
            #expect(try await Self.server("restart", envfile) == 0)
            let result = await crawl.wait()
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stderr.contains("Lost the connection to the PostgreSQL store; reconnecting"), "\(result.stderr)")
            #expect(result.stderr.contains("Reconnected to the PostgreSQL store"), "\(result.stderr)")
            #expect(!result.stderr.contains(password) && !result.stdout.contains(password))
            let counts = try PostgresCLIServer.psql((url, password, passwordFile), "SELECT COUNT(*), COUNT(DISTINCT postId) FROM post")
            #expect(counts == "\(nightly.dataset.posts.count)|\(nightly.dataset.posts.count)", "every post stored, once")
            let runs = try PostgresCLIServer.psql((url, password, passwordFile), "SELECT string_agg(status, ',') FROM crawl_run")
            #expect(runs == "completed")
        }
    }
}
