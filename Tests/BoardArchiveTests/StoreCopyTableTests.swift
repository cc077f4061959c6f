import BoardArchive
import Foundation
import GRDB
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// `store copy` moves the tables it lists, column by column: the list must be every table and every column of both
/// schemas, or a column a migration adds would be left behind while the copy still compared equal.
@Suite("store copy: the tables it moves")
struct StoreCopyTableTests {
    @Test func theListIsEveryTableAndColumnOfTheSQLiteSchema() throws {
        let store = try ArchiveStore.inMemory()
        let (tables, columns) = try store.reading.read { db in
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('grdb_migrations', 'sqlite_sequence')")
            var columns: [String: [String]] = [:]
            for table in tables { columns[table] = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]) }
            return (tables, columns)
        }
        #expect(Set(tables) == Set(ArchiveTable.all.map(\.name)))
        for table in ArchiveTable.all { #expect(columns[table.name] == table.columns, "\(table.name)") }
    }

    @Test func theListIsEveryTableAndColumnOfThePostgreSQLSchema() throws {
        guard let server = PostgresTestServer.current() else { return }
        try server.withFreshDatabase { connector in
            let archive = try PostgresArchive.open(connector, creating: true)
            defer { archive.close() }
            let rows = try archive.rows(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' "
                    + "AND table_name <> '\(PostgresArchive.migrationTable)' ORDER BY table_name, ordinal_position"
            ) { try $0.decode((String, String).self) }
            let columns = Dictionary(grouping: rows, by: \.0).mapValues { $0.map(\.1) }
            #expect(Set(columns.keys) == Set(ArchiveTable.all.map(\.name)))
            // PostgreSQL folds unquoted names to lower case.
            for table in ArchiveTable.all { #expect(columns[table.name] == table.columns.map { $0.lowercased() }, "\(table.name)") }
        }
    }
}
