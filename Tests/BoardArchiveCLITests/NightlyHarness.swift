import BoardArchive
import FixtureAPI
import Foundation
import GRDB
import Testing

/// The real `boardarchive` binary against an in-process fixture API on 127.0.0.1:0 whose data a test changes between
/// runs; requests are counted at the server.
final class NightlyHarness {
    static let token = "nightly-SECRET-token-5c1d"
    /// The board of 137 posts in the bundled demo.
    static let bigBoard = 28_479
    static let clock = ["--now", "2026-11-22T09:00:00+09:00", "--timezone", "Asia/Seoul"]

    let folder: URL
    let server: FixtureServer
    private(set) var dataset: FixtureDataset
    var store: String { folder.appendingPathComponent("archive.sqlite").path }
    /// The store the commands are given instead of ``store`` (a `postgres://` URL), when set.
    var storeURL: String?
    /// The PostgreSQL test server and database of ``storeURL`` (see ``usePostgres(_:on:)``): reads go through `psql`.
    private(set) var postgres: (server: (url: String, password: String, passwordFile: String), database: String)?
    var site: String { folder.appendingPathComponent("site").path }

    init(faults: FixtureFaults = .none) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("boardarchive-nightly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        dataset = try FixtureDataset.bundledDemo()
        server = try await FixtureServer.start(FixtureServerConfiguration(dataset: dataset, faults: faults, token: Self.token))
    }

    /// Runs `body` with a fresh harness, then stops the server and removes the folder, on every path.
    static func with(faults: FixtureFaults = .none, _ body: (NightlyHarness) async throws -> Void) async throws {
        let harness = try await NightlyHarness(faults: faults)
        do {
            try await body(harness)
            await harness.finish()
        } catch {
            await harness.finish()
            throw error
        }
    }

    /// Runs `body` with a fresh harness whose store is a fresh database of the PostgreSQL test server
    /// (``usePostgres(_:on:)``), dropped afterwards; records an issue when there is no test server.
    static func withPostgres(faults: FixtureFaults = .none, _ body: (NightlyHarness) async throws -> Void) async throws {
        guard let server = PostgresCLIServer.server() else { return }
        try await PostgresCLIServer.withFreshDatabase { url in
            try await with(faults: faults) { nightly in
                nightly.usePostgres(url, on: server)
                try await body(nightly)
            }
        }
    }

    /// Stops the server and removes the folder.
    func finish() async {
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Keeps the store in the PostgreSQL database `url` of `server`: commands get its URL and password, and ``rows(_:)``
    /// and ``livePosts()`` read it there.
    func usePostgres(_ url: String, on server: (url: String, password: String, passwordFile: String)) {
        storeURL = url
        postgres = (server, String(url.split(separator: "/").last ?? ""))
    }

    /// The variables a command needs to reach the store (a PostgreSQL store's password).
    var storeEnvironment: [String: String] {
        guard let postgres else { return [:] }
        return ["PGPASSWORD": postgres.server.password, "PGPASSFILE": "/dev/null"]
    }

    /// Serves `dataset` from now on.
    func serve(_ dataset: FixtureDataset) async {
        self.dataset = dataset
        await server.replaceDataset(with: dataset)
    }

    /// Runs `boardarchive <command> --api … --store …` plus `arguments` on a thread of its own (the fixture server
    /// answers on this process's threads meanwhile) and returns the result with the requests the server received.
    func run(_ arguments: [String] = [], command: String = "crawl", environment: [String: String] = [:], api: URL? = nil) async throws -> (
        CommandRunner.Result, requests: Int
    ) {
        let before = await server.requestCount
        let full = commandLine(arguments, command: command, api: api)
        let env = environment.merging(["BOARD_API_TOKEN": Self.token].merging(storeEnvironment) { $1 }) { mine, _ in mine }
        let result = try await CommandRunner.run(full, environment: env)
        return (result, await server.requestCount - before)
    }

    /// Starts `boardarchive <command> --api … --store …` plus `arguments` in the background.
    func start(_ arguments: [String] = [], command: String = "crawl", environment: [String: String] = [:]) throws -> RunningCommand {
        try RunningCommand(
            commandLine(arguments, command: command),
            environment: environment.merging(["BOARD_API_TOKEN": Self.token].merging(storeEnvironment) { $1 }) { mine, _ in mine })
    }

    private func commandLine(_ arguments: [String], command: String, api: URL? = nil) -> [String] {
        [command, "--api", (api ?? server.baseURL).absoluteString, "--store", storeURL ?? store] + arguments
            + (command == "export" ? ["--out", site] + Self.clock : [])
    }

    /// The rows of `sql` on the store, each as text.
    func rows(_ sql: String) throws -> [[String]] {
        if let postgres {
            let text = try PostgresCLIServer.psql(postgres.server, sql, database: postgres.database)
            return text.isEmpty ? [] : text.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        }
        let queue = try DatabaseQueue(path: store)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map { String.fromDatabaseValue($0) ?? $0.description } }
        }
    }

    /// `PRAGMA integrity_check` of the store: `ok` when sound.
    func integrity() throws -> String {
        try rows("PRAGMA integrity_check").first?.first ?? ""
    }

    /// Every post row as the build and a reader see it (the seen-times and run ids left out).
    func postRows() throws -> [String] {
        let queue = try DatabaseQueue(path: store)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT postId, boardId, contentHash, raw, goneSince IS NOT NULL AS gone, firstSeen FROM post ORDER BY postId")
                .map { "\($0)" }
        }
    }

    /// The live (not gone) posts of the store, by id, as JSON text of the stored post. A PostgreSQL store is read from
    /// a `store copy` of it into a SQLite file (the copy compares every row of both).
    func livePosts() throws -> [Int: Post] {
        var path = store
        if let storeURL, postgres != nil {
            path = folder.appendingPathComponent("copy-\(UUID().uuidString).sqlite").path
            let copied = try CommandRunner.runBlocking(["store", "copy", "--from", storeURL, "--to", path], environment: storeEnvironment)
            #expect(copied.status == 0, "stderr: \(copied.stderr)")
        }
        let archive = try ArchiveStore(path: path)
        var all: [Post] = []
        try archive.forEachPost { all.append($0) }
        var posts: [Int: Post] = [:]
        for post in all where try archive.history(ofPost: post.postId)?.goneSince == nil { posts[post.postId] = post }
        return posts
    }

    /// Expects the store's live posts to be exactly the served dataset, field for field.
    func expectStoreHoldsTheSource(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let live = try livePosts()
        #expect(live.count == dataset.posts.count, sourceLocation: sourceLocation)
        for post in dataset.posts where live[post.postId] != post {
            Issue.record("post \(post.postId) differs or is missing", sourceLocation: sourceLocation)
        }
    }

    /// Every file of the site with its bytes and modification time.
    func siteSnapshot() throws -> [String: (Data, Date)] {
        var files: [String: (Data, Date)] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: site) {
            let full = site + "/" + path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let attributes = try FileManager.default.attributesOfItem(atPath: full)
            files[path] = (try Data(contentsOf: URL(fileURLWithPath: full)), attributes[.modificationDate] as? Date ?? .distantPast)
        }
        return files
    }

    /// Expects the site to be byte- and mtime-identical to `before`.
    func expectSiteUnchanged(since before: [String: (Data, Date)], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let after = try siteSnapshot()
        #expect(after.keys.sorted() == before.keys.sorted(), sourceLocation: sourceLocation)
        for (path, old) in before {
            guard let new = after[path] else { continue }
            #expect(new.0 == old.0 && new.1 == old.1, "\(path) was rewritten", sourceLocation: sourceLocation)
        }
    }

    /// The demo's big board with `count` new posts above its newest one.
    static func withNewPosts(_ count: Int, in dataset: FixtureDataset, board: Int = bigBoard) -> FixtureDataset {
        dataset.addingNewPosts(count, toBoard: board)
    }

    /// A post of `board`, shaped like the board's others.
    static func post(id: Int, board: Int, created: Date, like dataset: FixtureDataset) -> Post {
        let name = dataset.boards.first { $0.boardId == board }?.displayName
        return Post(
            postId: id, title: "밤새 올라온 글 \(id)", boardId: board, boardDisplayName: name, writer: Writer(displayName: "야간"),
            contents: "새 글 \(id)", createdDateTime: created)
    }
}
