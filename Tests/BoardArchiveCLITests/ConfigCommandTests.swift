import Foundation
import Testing
import Yams

/// `boardarchive.yaml`, `BOARDARCHIVE_…` and flags through the real command: precedence, mistakes with file and line,
/// and `init`.
@Suite("boardarchive configuration", .serialized)
struct ConfigCommandTests {
    /// A folder holding a demo store (`archive.sqlite`), made by `boardarchive demo`.
    static func demoStore() async throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("boardarchive-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let demo = try await CommandRunner.run([
            "demo", "--out", folder.appendingPathComponent("demo-site").path, "--store", folder.appendingPathComponent("archive.sqlite").path,
        ])
        #expect(demo.status == 0, "stderr: \(demo.stderr)")
        return folder
    }

    func write(_ yaml: String, to folder: URL, name: String = "boardarchive.yaml") throws -> String {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(yaml.utf8).write(to: url)
        return url.path
    }

    /// The `lang` attribute of the home page built into `folder/site`.
    func language(of site: URL) throws -> String? {
        let home = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        return home.range(of: #"<html lang="[a-z]+""#, options: .regularExpression).map { String(home[$0].dropFirst(12).dropLast()) }
    }

    @Test func aFlagBeatsTheEnvironmentWhichBeatsTheFileWhichBeatsTheDefault() async throws {
        let folder = try await Self.demoStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ["--now", "2026-11-22T09:00:00+09:00"]
        // Defaults: no file in the working folder: ko, into ./site, the store ./archive.sqlite.
        let plain = try await CommandRunner.run(["build"] + clock, in: folder)
        #expect(plain.status == 0, "stderr: \(plain.stderr)")
        #expect(try language(of: folder.appendingPathComponent("site")) == "ko")
        // The file, discovered in the working folder, beats the defaults; its relative paths are relative to it.
        _ = try write("build:\n  out: from-file\n  lang: en\n  top-keywords: 0\n", to: folder)
        let file = try await CommandRunner.run(["build"] + clock, in: folder)
        #expect(file.status == 0, "stderr: \(file.stderr)")
        #expect(try language(of: folder.appendingPathComponent("from-file")) == "en")
        let keywords = try String(contentsOf: folder.appendingPathComponent("from-file/keywords/index.html"), encoding: .utf8)
        #expect(!keywords.contains("class=\"keyword-entry"), "top-keywords 0 from the file: \(keywords)")
        // The environment beats the file.
        let env = ["BOARDARCHIVE_BUILD_OUT": "from-env", "BOARDARCHIVE_BUILD_LANG": "ko"]
        let environment = try await CommandRunner.run(["build"] + clock, environment: env, in: folder)
        #expect(environment.status == 0, "stderr: \(environment.stderr)")
        #expect(try language(of: folder.appendingPathComponent("from-env")) == "ko")
        // A flag beats the environment.
        let flags = try await CommandRunner.run(["build", "--out", "from-flag", "--lang", "en"] + clock, environment: env, in: folder)
        #expect(flags.status == 0, "stderr: \(flags.stderr)")
        #expect(try language(of: folder.appendingPathComponent("from-flag")) == "en")
        // --keyword adds to the file's keywords.
        _ = try write("build:\n  out: kw\n  keywords: [서울]\n  top-keywords: 0\n", to: folder)
        let added = try await CommandRunner.run(["build", "--keyword", "회의"] + clock, in: folder)
        #expect(added.status == 0, "stderr: \(added.stderr)")
        let both = try String(contentsOf: folder.appendingPathComponent("kw/keywords/index.html"), encoding: .utf8)
        #expect(both.contains("서울") && both.contains("회의"))
        #expect(both.components(separatedBy: "class=\"keyword-entry").count - 1 == 2)
    }

    @Test func crawlSettingsComeFromTheFileWithTheTokenOnlyInTheEnvironment() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("boardarchive-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try CommandRunner.Background(["fixture-api", "--port", "0"])
        defer { server.stop() }
        let config = try write("api:\n  url: \(server.url)\n  token-env: NIGHTLY_TOKEN\nstore: nightly.sqlite\ncrawl:\n  page-size: 7\n", to: folder)
        let crawl = try await CommandRunner.run(["crawl", "--config", config], environment: ["NIGHTLY_TOKEN": "s3"])
        #expect(crawl.status == 0, "stderr: \(crawl.stderr)")
        #expect(crawl.stdout.contains("Crawled 6 boards, 212 posts"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("nightly.sqlite").path), "store relative to the file")
        // 212 posts in pages of 7 take more requests than the default 30 would.
        let requests = crawl.stdout.range(of: #"\d+ requests"#, options: .regularExpression).map { Int(crawl.stdout[$0].prefix { $0.isNumber }) ?? 0 }
        #expect((requests ?? 0) > 30, "\(crawl.stdout)")
        let missing = try await CommandRunner.run(["crawl", "--config", config])
        #expect(missing.status == 77)
        #expect(missing.stderr.contains("NIGHTLY_TOKEN"))
    }

    @Test(arguments: [
        ("crawl:\n  concurency: 4\n", "boardarchive.yaml:2: crawl.concurency is not a setting; did you mean crawl.concurrency?"),
        ("build:\n  lang: en\n\n  top-keywords: many\n", "boardarchive.yaml:4: build.top-keywords must be between 0 and 10000, not many."),
        ("crawl:\n  page-size: 1\n", "boardarchive.yaml:2: crawl.page-size must be between 2 and 1000 (pages overlap by one post), not 1."),
        ("build:\n  keywords: [서울, \"\"]\n", "boardarchive.yaml:2: build.keywords must be a list of non-empty strings"),
        (
            "build:\n  timezone: Mars/Olympus\n",
            "boardarchive.yaml:2: build.timezone must be an IANA time zone such as Asia/Seoul, not \"Mars/Olympus\"."
        ),
        ("api:\n  url: ftp://example.com\n", "boardarchive.yaml:2: api.url must be an http(s) URL"),
        ("api:\n  token: abc\n", "boardarchive.yaml:2: api.token is not a setting: the token never goes into the configuration file"),
        ("nightly:\n  full: maybe\n", "boardarchive.yaml:2: nightly.full must be true or false, not \"maybe\"."),
        ("store: a.sqlite\nstore: b.sqlite\n", "boardarchive.yaml:1: store is set twice in one section; keep one."),
        ("crawl:\n  retries: 3\ncrawl.retries: 4\n", "boardarchive.yaml:3: crawl.retries is set twice (first on line 2); keep one."),
        ("build:\n  out: [a, b\n", "boardarchive.yaml:3: not a YAML configuration file"),
        ("- build\n", "boardarchive.yaml:1: not a YAML configuration file: expected a mapping of settings"),
        ("colour: blue\n", "boardarchive.yaml:1: colour is not a setting; `boardarchive init --force` writes a starter file"),
    ])
    func mistakesInTheFileNameTheKeyTheFileAndTheLine(yaml: String, message: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("boardarchive-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = try write(yaml, to: folder)
        let build = try await CommandRunner.run(["build", "--config", config, "--store", folder.appendingPathComponent("none.sqlite").path])
        #expect(build.status == 64, "stderr: \(build.stderr)")
        #expect(build.stderr.contains(folder.path + "/" + message), "stderr: \(build.stderr)")
        #expect(build.stderr.split(separator: "\n").count == 1, "one line, no usage dump: \(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("none.sqlite").path))
    }

    @Test(arguments: [
        (["BOARDARCHIVE_CRAWL_RETRIES": "0"], "BOARDARCHIVE_CRAWL_RETRIES must be between 1 and 100, not 0."),
        (["BOARDARCHIVE_CRAWL_RETRYS": "3"], "BOARDARCHIVE_CRAWL_RETRYS is set but is not a setting; did you mean BOARDARCHIVE_CRAWL_RETRIES?"),
        (["BOARDARCHIVE_API_URL": "https://user:pw@example.com/api"], "BOARDARCHIVE_API_URL must be a URL without credentials"),
        (["BOARDARCHIVE_CONFIG": "/nonexistent/boardarchive.yaml"], "/nonexistent/boardarchive.yaml cannot be read"),
        (["BOARDARCHIVE_CONFIG": "/tmp/settings.json"], "/tmp/settings.json is a JSON build settings file, which boardarchive no longer reads"),
    ])
    func mistakesInTheEnvironmentNameTheVariable(environment: [String: String], message: String) async throws {
        let crawl = try await CommandRunner.run(["crawl", "--store", "/tmp/unused-\(UUID().uuidString).sqlite"], environment: environment)
        #expect(crawl.status == 64, "stderr: \(crawl.stderr)")
        #expect(crawl.stderr.contains(message), "stderr: \(crawl.stderr)")
        #expect(!crawl.stderr.contains("pw@"), "credentials are never repeated")
    }

    @Test func withoutAnAPIURLTheErrorSaysWhereToGiveOne() async throws {
        // The test and benchmark hooks are not settings, and are not refused as unknown variables.
        let hooks = ["BOARD_API_TOKEN": "t", "BOARDARCHIVE_SEARCH_SITE": "/tmp/x", "BOARDARCHIVE_TEST_ANYTHING": "1"]
        let crawl = try await CommandRunner.run(["crawl"], environment: hooks)
        #expect(crawl.status == 64)
        #expect(crawl.stderr.contains("No value for api.url: pass --api, set BOARDARCHIVE_API_URL, set api.url in boardarchive.yaml"))
        let both = try await CommandRunner.run(["crawl", "--api", "http://127.0.0.1:9/api/v2", "--token-env", "X", "--token-file", "/tmp/t"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--token-file and --token-env are both given at the same level; keep one."), "\(both.stderr)")
    }

    /// The settings table and the commands' flags agree: every flag the starter file names is one `export` takes.
    @Test func everyFlagTheStarterFileNamesIsARealFlag() async throws {
        let folder = try CommandRunner.temporaryFolder("boardarchive-config")
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try await CommandRunner.run(["init"], in: folder)
        #expect(written.status == 0)
        let text = try String(contentsOf: folder.appendingPathComponent("boardarchive.yaml"), encoding: .utf8)
        let flags = text.components(separatedBy: "(--").dropFirst().compactMap { part in
            part.range(of: #"^[a-z-]+, BOARDARCHIVE_"#, options: .regularExpression).map { String(part[$0].prefix { $0 != "," }) }
        }
        #expect(flags.count >= 18, "\(flags)")
        let help = try await CommandRunner.run(["export", "--help"])
        // An on/off flag shows as `--create-store/--no-create-store`.
        for flag in flags {
            #expect(
                help.stdout.contains("--\(flag) ") || help.stdout.contains("--\(flag)\n") || help.stdout.contains("--\(flag)/--no-\(flag)"),
                "--\(flag)")
        }
    }

    @Test func initWritesAStarterFileThatParsesAndBuildsLikeTheDefaults() async throws {
        let folder = try await Self.demoStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await CommandRunner.run(["init"], in: folder)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        let path = folder.appendingPathComponent("boardarchive.yaml")
        let text = try String(contentsOf: path, encoding: .utf8)
        // It is YAML with the documented sections, every setting explained, and no token.
        let parsed = try #require(try Yams.load(yaml: text) as? [String: Any])
        #expect(Set(parsed.keys) == ["api", "store", "store.create", "store.password-env", "crawl", "media", "nightly", "build", "log"])
        let crawl = try #require(parsed["crawl"] as? [String: Any])
        #expect(crawl["page-size"] as? Int == 30 && crawl["concurrency"] as? Int == 4)
        #expect(text.contains("# url: https://") && text.contains("BOARDARCHIVE_CRAWL_MAX_RPS") && text.contains("--verify-fraction"))
        // Round trip: emitted again by Yams and re-read, the same settings.
        let again = try #require(try Yams.load(yaml: try Yams.dump(object: parsed)) as? [String: Any])
        #expect(NSDictionary(dictionary: again).isEqual(to: parsed))
        // A build with the starter file (discovered in the working folder) equals a build without one.
        let clock = ["--now", "2026-11-22T09:00:00+09:00", "--timezone", "Asia/Seoul"]
        let withFile = try await CommandRunner.run(["build", "--out", "with"] + clock, in: folder)
        #expect(withFile.status == 0, "stderr: \(withFile.stderr)")
        try FileManager.default.moveItem(at: path, to: folder.appendingPathComponent("kept.yaml"))
        let without = try await CommandRunner.run(["build", "--out", "without"] + clock, in: folder)
        #expect(without.status == 0, "stderr: \(without.stderr)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.appendingPathComponent("with").path).sorted()
        #expect(files.count > 200)
        #expect(files == (try FileManager.default.subpathsOfDirectory(atPath: folder.appendingPathComponent("without").path).sorted()))
        for file in files where file.hasSuffix(".html") {
            #expect(
                FileManager.default.contents(atPath: folder.appendingPathComponent("with/" + file).path)
                    == FileManager.default.contents(atPath: folder.appendingPathComponent("without/" + file).path), "\(file)")
        }
        // init refuses to overwrite without --force.
        try FileManager.default.moveItem(at: folder.appendingPathComponent("kept.yaml"), to: path)
        try Data("store: mine.sqlite\n".utf8).write(to: path)
        let refused = try await CommandRunner.run(["init"], in: folder)
        #expect(refused.status == 73)
        #expect(refused.stderr.contains("already exists; edit it, or pass --force"))
        #expect(try String(contentsOf: path, encoding: .utf8) == "store: mine.sqlite\n")
        let forced = try await CommandRunner.run(["init", "--force"], in: folder)
        #expect(forced.status == 0)
        #expect(try String(contentsOf: path, encoding: .utf8) == text)
    }
}
