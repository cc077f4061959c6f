import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The two stores every conformance test runs against: SQLite (in memory) and the real PostgreSQL server of the test
/// run (a fresh database per test).
enum StoreBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }
}

/// A store of one backend for one test; `remove()` drops a PostgreSQL test database (call it in a `defer`).
final class TestStore: @unchecked Sendable {
    let database: any ArchiveDatabase & ArchiveSource
    private let cleanup: () -> Void

    /// A SQLite store lives in memory, or in the file at `sqlitePath` when one is given (the test removes the file).
    init(
        _ backend: StoreBackend, sqlitePath: String? = nil, reconnectWindow: Duration = .seconds(20),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        switch backend {
        case .sqlite:
            database = try sqlitePath.map { try ArchiveStore(path: $0) } ?? ArchiveStore.inMemory()
            cleanup = {}
        case .postgres:
            guard let server = PostgresTestServer.current(sourceLocation: sourceLocation) else { throw NoPostgresServer() }
            let (connector, drop) = try server.makeFreshDatabase()
            let archive = try PostgresArchive.open(connector, creating: true, reconnectWindow: reconnectWindow)
            database = archive
            cleanup = {
                archive.close()
                drop()
            }
        }
    }

    /// Another connection to the same PostgreSQL database (a second machine), or the same SQLite store.
    func secondConnection() throws -> any ArchiveDatabase & ArchiveSource {
        guard let archive = database as? PostgresArchive else { return database }
        return try PostgresArchive.open(archive.connector, creating: false)
    }

    func remove() { cleanup() }

    struct NoPostgresServer: Error {}
}

extension PostgresTestServer {
    /// A new, empty database on the server and the function that drops it.
    func makeFreshDatabase() throws -> (PostgresConnector, drop: () -> Void) {
        let name = "ba_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased())"
        let admin = try PostgresArchive.connectOnly(connector())
        try admin.execute("CREATE DATABASE \(name)")
        return (
            connector(database: name),
            {
                try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
                admin.close()
            }
        )
    }
}

extension TestStore {
    /// A store of one backend holding `boards` and `posts` (by default the site fixture's), recorded at the fixture's
    /// clock, as ``SiteFixture/store(boards:posts:)`` makes a SQLite one.
    static func holding(
        _ backend: StoreBackend, boards: [Board] = SiteFixture.boards, posts: [Post] = SiteFixture.posts,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> TestStore {
        let store = try TestStore(backend, sourceLocation: sourceLocation)
        do {
            try store.database.record(boards: boards, at: SiteFixture.now)
            try store.database.record(posts: posts, at: SiteFixture.now)
        } catch {
            store.remove()
            throw error
        }
        return store
    }
}

/// Reads of published posts that both stores answer, through their snapshots: what `ArchiveStore.post(id:)`,
/// `posts(inBoard:)` and `forEachPost` read on SQLite alone.
extension ArchiveSource {
    /// The published post with this id (nil when the store holds none, or a redaction removed it).
    func publishedPost(id: Int) throws -> Post? {
        try snapshot(pseudonyms: nil).posts(ids: [id])[id]
    }

    /// A board's published posts in board order (notices first, newest first, ties by `postId` descending).
    func publishedPosts(inBoard boardId: Int) throws -> [Post] {
        let snapshot = try snapshot(pseudonyms: nil)
        let stream = snapshot.listingKeys(ofBoard: boardId)
        var ids: [Int] = []
        while let key = try stream.next() {
            if key.removedAt == nil { ids.append(key.postId) }
        }
        let posts = try snapshot.posts(ids: ids)
        return ids.compactMap { posts[$0] }
    }
}

extension ArchiveSource where Self: ArchiveDatabase {
    /// Every published post of the store, whatever its board, by id.
    func publishedPosts() throws -> [Int: Post] {
        let ids = try readOnly { try $0.integers("SELECT postId FROM post ORDER BY postId") }
        let snapshot = try snapshot(pseudonyms: nil)
        var posts: [Int: Post] = [:]
        for start in stride(from: 0, to: ids.count, by: 500) {
            posts.merge(try snapshot.posts(ids: Array(ids[start..<min(start + 500, ids.count)])), uniquingKeysWith: { first, _ in first })
        }
        return posts
    }
}
