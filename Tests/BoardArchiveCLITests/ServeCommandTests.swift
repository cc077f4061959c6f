import Foundation
import Testing

/// `boardarchive serve` over real HTTP on a free port of 127.0.0.1.
@Suite("boardarchive serve", .serialized)
struct ServeCommandTests {
    /// A site folder with one file of each kind, a sub-folder, and links pointing inside and outside; beside it, a
    /// secret file the server must never send.
    func makeSite() throws -> (folder: URL, site: URL) {
        let folder = try CommandRunner.temporaryFolder("boardarchive-serve")
        let site = folder.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site.appendingPathComponent("boards/7"), withIntermediateDirectories: true)
        let files: [String: String] = [
            "index.html": "<!doctype html><title>home</title>", "assets.css": "body{}", "search.js": "var x=1;", "data.json": "{}",
            "feed.xml": "<feed/>", "logo.svg": "<svg/>", "robots.txt": "User-agent: *", "boards/7/index.html": "<p>board 7</p>",
            "이름 있는 파일.txt": "한글",
        ]
        for (path, text) in files { try Data(text.utf8).write(to: site.appendingPathComponent(path)) }
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: site.appendingPathComponent("shot.png"))
        try Data("secret".utf8).write(to: folder.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: site.appendingPathComponent("escape.txt").path, withDestinationPath: "../secret.txt")
        try FileManager.default.createSymbolicLink(atPath: site.appendingPathComponent("outside").path, withDestinationPath: folder.path)
        try FileManager.default.createSymbolicLink(atPath: site.appendingPathComponent("alias.css").path, withDestinationPath: "assets.css")
        return (folder, site)
    }

    func port(of server: CommandRunner.Background) throws -> Int {
        try #require(Int(server.url.split(separator: ":").last?.filter(\.isNumber) ?? ""))
    }

    @Test func servesEachKindWithItsContentType() async throws {
        let (folder, site) = try makeSite()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try CommandRunner.Background(["serve", site.path, "--port", "0"])
        defer { server.stop() }
        #expect(server.url.hasPrefix("http://127.0.0.1:") && server.url.hasSuffix("/"))
        let port = try port(of: server)
        let expected: [(String, String, String)] = [
            ("/index.html", "text/html; charset=utf-8", "<!doctype html><title>home</title>"), ("/assets.css", "text/css; charset=utf-8", "body{}"),
            ("/search.js", "text/javascript; charset=utf-8", "var x=1;"), ("/data.json", "application/json", "{}"),
            ("/feed.xml", "application/xml", "<feed/>"), ("/logo.svg", "image/svg+xml", "<svg/>"),
            ("/robots.txt", "text/plain; charset=utf-8", "User-agent: *"), ("/", "text/html; charset=utf-8", "<!doctype html><title>home</title>"),
            ("/boards/7/", "text/html; charset=utf-8", "<p>board 7</p>"), ("/alias.css", "text/css; charset=utf-8", "body{}"),
            ("/%EC%9D%B4%EB%A6%84%20%EC%9E%88%EB%8A%94%20%ED%8C%8C%EC%9D%BC.txt", "text/plain; charset=utf-8", "한글"),
            ("/index.html?q=%EC%84%9C%EC%9A%B8", "text/html; charset=utf-8", "<!doctype html><title>home</title>"),
        ]
        for (target, type, body) in expected {
            let answer = try RawHTTP.request(target, port: port)
            #expect(answer.status == 200, "\(target)")
            #expect(answer.headers["content-type"] == type, "\(target)")
            #expect(String(decoding: answer.body, as: UTF8.self) == body, "\(target)")
        }
        let png = try RawHTTP.request("/shot.png", port: port)
        #expect(png.headers["content-type"] == "image/png" && png.body == Data([0x89, 0x50, 0x4E, 0x47]))
        let head = try RawHTTP.request("/index.html", port: port, method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)
        let folderWithoutSlash = try RawHTTP.request("/boards/7", port: port)
        #expect(folderWithoutSlash.status == 301 && folderWithoutSlash.headers["location"] == "/boards/7/")
    }

    @Test func refusesPathsOutsideTheFolderAndAnswers404ForMissingFiles() async throws {
        let (folder, site) = try makeSite()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try CommandRunner.Background(["serve", site.path, "--port", "0"])
        defer { server.stop() }
        let port = try port(of: server)
        for target in [
            "/../secret.txt", "/boards/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/boards/%2e%2e/%2e%2e/secret.txt",
            "/escape.txt", "/outside/secret.txt", "/outside/", "/index.html%00.png",
        ] {
            let answer = try RawHTTP.request(target, port: port)
            #expect(answer.status == 403, "\(target): \(answer.status)")
            #expect(!String(decoding: answer.body, as: UTF8.self).contains("secret"), "\(target)")
        }
        let missing = try RawHTTP.request("/posts/999.html", port: port)
        #expect(missing.status == 404)
        #expect(missing.headers["content-type"] == "text/plain; charset=utf-8")
        let post = try RawHTTP.request("/index.html", port: port, method: "POST")
        #expect(post.status == 405)
    }

    @Test func theFolderDefaultsToBuildOutAndAMissingFolderIsAnError() async throws {
        let (folder, _) = try makeSite()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("build:\n  out: site\n".utf8).write(to: folder.appendingPathComponent("boardarchive.yaml"))
        let missing = try await CommandRunner.run(["serve", folder.appendingPathComponent("nope").path, "--port", "0"])
        #expect(missing.status == 73)
        #expect(missing.stderr.contains("nope is not a folder; build the site first"))
        let server = try CommandRunner.Background(["serve", "--port", "0", "--config", folder.appendingPathComponent("boardarchive.yaml").path])
        defer { server.stop() }
        let answer = try RawHTTP.request("/robots.txt", port: try port(of: server))
        #expect(answer.status == 200 && String(decoding: answer.body, as: UTF8.self) == "User-agent: *")
    }
}
