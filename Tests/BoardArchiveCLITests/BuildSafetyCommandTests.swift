import BoardArchive
import FixtureAPI
import Foundation
import GRDB
import Testing

/// What `build` refuses, end to end: a store that is empty or not an archive, a store it would have to write to, a
/// site that would lose most of its posts, templates that include each other in a loop. Each refusal exits 73 and
/// leaves the published site and the store byte for byte as they were.
@Suite("boardarchive build refuses what would lose an archive", .serialized)
struct BuildSafetyCommandTests {
    /// A demo site and its store in a fresh folder, removed by the caller.
    static func demo() async throws -> (folder: URL, site: URL, store: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("boardarchive-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let site = folder.appendingPathComponent("site")
        let store = folder.appendingPathComponent("archive.sqlite").path
        let result = try await CommandRunner.run(["demo", "--out", site.path, "--store", store])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return (folder, site, store)
    }

    @Test func anEmptyOrSchemaLessStoreIsRefusedAndNeitherTheSiteNorTheStoreIsTouched() async throws {
        let (folder, site, _) = try await Self.demo()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try CommandRunner.files(under: site)
        #expect(before.keys.contains { $0.hasPrefix("posts/") })
        let bad = folder.appendingPathComponent("bad", isDirectory: true)
        try FileManager.default.createDirectory(at: bad, withIntermediateDirectories: true)
        let other = bad.appendingPathComponent("other.sqlite").path
        try await DatabaseQueue(path: other).write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
        try Data().write(to: bad.appendingPathComponent("empty.sqlite"))
        try Data("not a database at all\n".utf8).write(to: bad.appendingPathComponent("text.sqlite"))
        let badFiles = try CommandRunner.files(under: bad)
        for name in ["empty.sqlite", "other.sqlite", "text.sqlite"] {
            let result = try await CommandRunner.run(["build", "--store", bad.appendingPathComponent(name).path, "--out", site.path])
            #expect(result.status == 73, "\(name): \(result.stderr)")
            #expect(result.stderr.contains("is empty or is not a boardarchive store"), "\(name): \(result.stderr)")
            #expect(try CommandRunner.files(under: site) == before, "\(name): the site changed")
            #expect(try CommandRunner.files(under: bad) == badFiles, "\(name): build wrote to the store or beside it")
        }
    }

    @Test func buildOpensTheStoreReadOnly() async throws {
        let (folder, site, store) = try await Self.demo()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try #require(FileManager.default.contents(atPath: store))
        // A store the build may not write to at all still builds.
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store)
        let result = try await CommandRunner.run(["build", "--store", store, "--out", site.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(FileManager.default.contents(atPath: store) == bytes)
        // A store at an older schema is not migrated by build.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store)
        let queue = try DatabaseQueue(path: store)
        try await queue.write { db in try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v7-media'") }
        try queue.close()
        let old = try #require(FileManager.default.contents(atPath: store))
        let older = try await CommandRunner.run(["build", "--store", store, "--out", site.path])
        #expect(older.status == 73)
        #expect(older.stderr.contains("has schema version 6, older than this boardarchive needs (7)"))
        #expect(FileManager.default.contents(atPath: store) == old)
    }

    @Test func aBuildThatWouldRemoveMoreThanHalfThePostsIsRefusedUnlessAllowed() async throws {
        let (folder, site, store) = try await Self.demo()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try CommandRunner.files(under: site)
        let pages = before.keys.filter { $0.hasPrefix("posts/") && $0.hasSuffix(".html") }.count
        #expect(pages == 212)
        // A copy of the site: keeping exactly half of its posts is allowed.
        let copy = folder.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: site, to: copy)
        let archive = try ArchiveStore(path: store)
        let ids = try archive.postIDs()
        try archive.deletePosts(ids: Array(ids.prefix(106)))
        let half = try await CommandRunner.run(["build", "--store", store, "--out", copy.path])
        #expect(half.status == 0, "stderr: \(half.stderr)")
        #expect(try CommandRunner.files(under: copy).keys.filter { $0.hasPrefix("posts/") }.count == 106)
        // One post fewer than half is refused, and the site stays as it was.
        try archive.deletePosts(ids: [ids[106]])
        let refused = try await CommandRunner.run(["build", "--store", store, "--out", site.path])
        #expect(refused.status == 73)
        #expect(refused.stderr.contains("has 212 post pages but this store would publish only 105"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--allow-shrink"))
        #expect(try CommandRunner.files(under: site) == before)
        // The pages are counted in the site's manifest; a site copied elsewhere without its state has them counted in
        // its folder.
        let bare = folder.appendingPathComponent("bare")
        try FileManager.default.copyItem(at: site, to: bare)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("bare.boardarchive-state").path))
        let refusedBare = try await CommandRunner.run(["build", "--store", store, "--out", bare.path])
        #expect(refusedBare.status == 73)
        #expect(refusedBare.stderr.contains("has 212 post pages but this store would publish only 105"), "\(refusedBare.stderr)")
        let allowed = try await CommandRunner.run(["build", "--store", store, "--out", site.path, "--allow-shrink"])
        #expect(allowed.status == 0, "stderr: \(allowed.stderr)")
        #expect(try CommandRunner.files(under: site).keys.filter { $0.hasPrefix("posts/") }.count == 105)
    }

    @Test func onPostgreSQLTheSameStoresAreRefusedTheSameWay() async throws {
        guard let server = PostgresCLIServer.server() else { return }
        try await PostgresCLIServer.withFreshDatabase { url in
            try await PostgresCLIServer.withFreshDatabase { empty in
                let folder = try CommandRunner.temporaryFolder("boardarchive-pg-refusals")
                defer { try? FileManager.default.removeItem(at: folder) }
                let environment = ["PGPASSWORD": server.password, "PGPASSFILE": "/dev/null"]
                let database = String(url.split(separator: "/").last ?? "")
                let site = folder.appendingPathComponent("site")
                let demo = try await CommandRunner.run(["demo", "--out", site.path, "--store", url], environment: environment)
                #expect(demo.status == 0, "stderr: \(demo.stderr)")
                let before = try CommandRunner.files(under: site)
                #expect(before.keys.filter { $0.hasPrefix("posts/") && $0.hasSuffix(".html") }.count == 212)
                func build(_ store: String, _ extra: [String] = []) async throws -> CommandRunner.Result {
                    try await CommandRunner.run(["build", "--store", store, "--out", site.path] + extra, environment: environment)
                }
                // A database without the archive's tables.
                let none = try await build(empty)
                #expect(none.status == 73 && none.stderr.contains("is empty or is not a boardarchive store"), "\(none.stderr)")
                #expect(try CommandRunner.files(under: site) == before)
                // An older schema is refused, not migrated.
                _ = try PostgresCLIServer.psql(server, "DELETE FROM boardarchive_migration WHERE identifier = 'v7-media'", database: database)
                let older = try await build(url)
                #expect(older.status == 73, "\(older.stderr)")
                #expect(older.stderr.contains("has schema version 6, older than this boardarchive needs (7)"), "\(older.stderr)")
                #expect(try PostgresCLIServer.psql(server, "SELECT COUNT(*) FROM boardarchive_migration", database: database) == "6")
                _ = try PostgresCLIServer.psql(
                    server, "INSERT INTO boardarchive_migration VALUES (7, 'v7-media', 0)", database: database)
                // A store that would publish fewer than half the site's posts.
                _ = try PostgresCLIServer.psql(
                    server, "DELETE FROM post WHERE postId IN (SELECT postId FROM post ORDER BY postId LIMIT 107)", database: database)
                let refused = try await build(url)
                #expect(refused.status == 73)
                #expect(refused.stderr.contains("has 212 post pages but this store would publish only 105"), "\(refused.stderr)")
                #expect(try CommandRunner.files(under: site) == before)
                let allowed = try await build(url, ["--allow-shrink"])
                #expect(allowed.status == 0, "stderr: \(allowed.stderr)")
                #expect(try CommandRunner.files(under: site).keys.filter { $0.hasPrefix("posts/") }.count == 105)
            }
        }
    }

    @Test func templatesThatIncludeEachOtherInALoopExit73NamingTheChain() async throws {
        let (folder, site, store) = try await Self.demo()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try CommandRunner.files(under: site)
        let templates = folder.appendingPathComponent("templates")
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(at: repository.appendingPathComponent("templates"), to: templates)
        let badges = templates.appendingPathComponent("partials/badges.mustache")
        try (try String(contentsOf: badges, encoding: .utf8) + "{{> partials/post-row}}\n").write(to: badges, atomically: true, encoding: .utf8)
        let result = try await CommandRunner.run(["build", "--store", store, "--out", site.path, "--templates", templates.path])
        #expect(result.status == 73, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("partials/badges.mustache:"), "\(result.stderr)")
        #expect(result.stderr.contains(" → partials/post-row.mustache:2 → partials/badges.mustache"), "\(result.stderr)")
        #expect(try CommandRunner.files(under: site) == before)
    }
}
