import BoardArchive
import Foundation
import GRDB
import Synchronization
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// How a build reads the post table: every statement over an index, none reading the whole table.
///
/// The post table holds every body twice (the text and the raw JSON): a statement that scans it instead of an index
/// reads the whole store (350 MB at 100,000 posts), which a rebuild must never do. SQLite picks the plan, and a plan
/// can change with the wording of a statement (`ORDER BY postId` makes the table's own order look cheaper than a
/// partial index), so the plans are checked on what the build really runs.
@Suite("Store query plans")
struct StoreQueryPlanTests {
    /// The statements a connection ran: SQL → the first run's SQL with its arguments.
    final class StatementLog: Sendable {
        let statements = Mutex<[String: String]>([:])
    }

    /// A store whose connection records every statement it runs.
    static func tracedStore() throws -> (ArchiveStore, StatementLog) {
        let log = StatementLog()
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.trace(options: .statement) { event in
                guard case .statement(let statement) = event else { return }
                let sql = statement.sql
                let expanded = statement.expandedSQL
                log.statements.withLock { if $0[sql] == nil { $0[sql] = expanded } }
            }
        }
        let queue = try DatabaseQueue(configuration: configuration)
        try ArchiveStore.migrator.migrate(queue)
        let store = ArchiveStore(writer: queue, location: ":memory:")
        try store.record(boards: SiteFixture.boards, at: SiteFixture.now)
        try store.record(posts: SiteFixture.posts, at: SiteFixture.now)
        return (store, log)
    }

    /// The lines of SQLite's plan of `sql` that read the post table without an index.
    static func tableScans(of sql: String, in store: ArchiveStore) throws -> [String] {
        try store.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
        }.filter { $0.hasPrefix("SCAN post") && !$0.contains("INDEX") }
    }

    @Test("no statement of a full build or of a rebuild (nothing changed, an edit, the next day) scans the post table")
    func buildsReadOverIndexes() async throws {
        let (store, log) = try Self.tracedStore()
        let root = try SiteFixture.temporaryDirectory()
        let output = root.appendingPathComponent("site")
        typealias Inputs = IncrementalBuildTests.Inputs
        try await IncrementalBuildTests.build(store, Inputs(), into: output)
        try await IncrementalBuildTests.build(store, Inputs(), into: output)
        var nextDay = Inputs()
        nextDay.now = SiteFixture.now.addingTimeInterval(86_400)
        try await IncrementalBuildTests.build(store, nextDay, into: output)
        var post = try #require(try store.post(id: 150))
        post.title += " (고침)"
        try store.record(posts: [post], at: SiteFixture.now)
        try await IncrementalBuildTests.build(store, nextDay, into: output)
        let recorded = log.statements.withLock { $0 }
        let reads = recorded.filter { $0.key.hasPrefix("SELECT") && $0.key.contains("FROM post") }
        // The build's reads of posts: keys by board and by date, rows and bodies by id, replies, the removed posts.
        #expect(reads.count >= 8, "\(reads.keys.sorted())")
        #expect(reads.keys.contains { $0.contains("redactionMode = 'remove'") && $0.contains("ORDER BY") }, "the removed posts are read")
        for (sql, expanded) in reads.sorted(by: { $0.key < $1.key }) {
            let scans = try Self.tableScans(of: expanded, in: store)
            #expect(scans.isEmpty, "\(sql): \(scans)")
        }
    }

    /// A page of keys on PostgreSQL, with every parameter written as a literal (as the server plans it: the values are
    /// known when an unnamed statement is planned).
    static func postgresPageQuery(board: Int?, segment: KeyStream.Segment, after: KeyStream.Position?) -> String {
        var (sql, parameters) = KeyStream.pageQuery(board: board, segment: segment, after: after, limit: 1_024, dialect: .postgres)
        // From the last parameter down, so that `$1` does not replace the start of `$10`.
        for (index, parameter) in parameters.enumerated().reversed() {
            let literal: String
            switch parameter {
            case .integer(let value): literal = String(value)
            case .flag(let value): literal = value ? "TRUE" : "FALSE"
            }
            sql = sql.replacingOccurrences(of: "$\(index + 1)", with: literal)
        }
        return sql
    }

    @Test("PostgreSQL reads every page of keys in an index's order, with no sort")
    func postgresKeyPagesSeekWithoutSorting() throws {
        let store = try TestStore(.postgres)
        defer { store.remove() }
        let archive = try #require(store.database as? PostgresArchive)
        try archive.record(boards: SiteFixture.boards, at: SiteFixture.now)
        try archive.record(posts: SiteFixture.posts, at: SiteFixture.now)
        try archive.execute("ANALYZE post")
        // A table this small is cheaper to sort than to seek; with sorts and scans priced out, the plan sorts only
        // when no index gives the order (the server then still sorts, at that price).
        try archive.execute("SET enable_seqscan = off")
        try archive.execute("SET enable_sort = off")
        for board in [nil, SiteFixture.boards[0].boardId] {
            for segment in KeyStream.boardOrder + KeyStream.chronologicalOrder {
                for after in [nil, (createdAt: Int64(1_715_000_000), postId: 150)] as [KeyStream.Position?] {
                    let sql = Self.postgresPageQuery(board: board, segment: segment, after: after)
                    let plan = try archive.rows("EXPLAIN " + sql) { try $0.decode(String.self) }.joined(separator: "\n")
                    #expect(!plan.contains("Sort"), "\(sql)\n\(plan)")
                    #expect(plan.contains("Index Only Scan") && plan.contains(" using post_"), "\(sql)\n\(plan)")
                }
            }
        }
    }
}
