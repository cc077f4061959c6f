import Foundation

/// `boardarchive store copy`: moves an archive between stores (SQLite and PostgreSQL, either way), then proves the
/// copy holds what the source held.
///
/// The source is read from one snapshot, so a crawl may go on writing to it; every table is copied in key order, a
/// transaction per page of rows, with an upsert, so an interrupted copy continues with `resume` after the last row
/// the target holds. Then every row of every table is read again from both stores, in key order, and compared value
/// by value: a copy that differs anywhere (a row changed in the source between an interrupted copy and its resumption,
/// a column a store could not hold) is refused with the first difference, never reported as done.
public enum ArchiveCopy {
    /// One side of a copy.
    public enum Store {
        case sqlite(ArchiveStore)
        case postgres(PostgresArchive)

        var location: String {
            switch self {
            case .sqlite(let store): store.location
            case .postgres(let archive): archive.location
            }
        }

        func endpoint(snapshot: Bool) throws -> any CopyEndpoint {
            switch self {
            case .sqlite(let store): try SQLiteCopyEndpoint(store: store, snapshot: snapshot)
            case .postgres(let archive): try PostgresCopyEndpoint(archive: archive, snapshot: snapshot)
            }
        }
    }

    /// What a copy did and what its check found.
    public struct Report: Sendable, Equatable {
        /// Rows written, per table, in copy order.
        public var copied: [String: Int] = [:]
        /// Rows compared equal, per table.
        public var verified: [String: Int] = [:]
        /// Posts per board, as both stores hold them.
        public var postsByBoard: [Int: Int] = [:]
        /// Whether the copy went on after the rows an earlier copy had written.
        public var resumed = false
    }

    /// Rows per page read and per transaction written.
    static let pageSize = 2_000

    /// Copies `source` into `target` and compares them.
    ///
    /// - Throws: ``StoreError`` `copyTargetNotEmpty` when the target holds rows and `resume` is false (nothing written);
    ///   `copyMismatch` when the comparison finds a difference; the stores' own errors otherwise.
    public static func run(from source: Store, to target: Store, resume: Bool, progress: (String, Int) -> Void = { _, _ in }) throws -> Report {
        let reader = try source.endpoint(snapshot: true)
        let writer = try target.endpoint(snapshot: false)
        var report = Report()
        var starts: [String: [StoredValue]] = [:]
        for table in ArchiveTable.all {
            if let last = try writer.lastKey(of: table) { starts[table.name] = last }
        }
        if !starts.isEmpty {
            guard resume else {
                throw StoreError(
                    location: target.location, reason: .copyTargetNotEmpty(tables: ArchiveTable.all.map(\.name).filter { starts[$0] != nil }))
            }
            report.resumed = true
        }
        for table in ArchiveTable.all {
            var after = starts[table.name]
            var copied = 0
            while true {
                let rows = try reader.rows(of: table, after: after, limit: table.pageRows ?? pageSize)
                guard !rows.isEmpty else { break }
                try writer.write(rows, to: table)
                copied += rows.count
                progress(table.name, copied)
                after = table.keyPositions.map { rows[rows.count - 1][$0] }
                if rows.count < table.pageRows ?? pageSize { break }
            }
            report.copied[table.name] = copied
        }
        try writer.finish()
        try verify(reader, against: try target.endpoint(snapshot: true), report: &report)
        return report
    }

    /// Reads every table of both stores in key order and compares them row by row.
    static func verify(_ source: any CopyEndpoint, against target: any CopyEndpoint, report: inout Report) throws {
        for table in ArchiveTable.all {
            var after: [StoredValue]?
            var count = 0
            let board = table.name == "post" ? table.columns.firstIndex(of: "boardId") : nil
            let positions = table.keyPositions
            // A row's key as messages show it; made only for a difference, never for the rows that match.
            func key(_ row: [StoredValue]) -> String { positions.map { row[$0].description }.joined(separator: ", ") }
            while true {
                let expected = try source.rows(of: table, after: after, limit: table.pageRows ?? pageSize)
                let found = try target.rows(of: table, after: after, limit: table.pageRows ?? pageSize)
                for (index, row) in expected.enumerated() {
                    guard index < found.count else { throw mismatch(target, "\(table.name) (\(key(row))) is missing") }
                    if found[index] != row {
                        guard key(row) == key(found[index]) else {
                            // Both sides are in key order: the smaller of the two keys is the row the other store lacks.
                            throw mismatch(target, "\(table.name) (\(key(row))) is missing, or (\(key(found[index]))) is not in the source")
                        }
                        let column = zip(table.columns, zip(row, found[index])).first { $1.0 != $1.1 }?.0 ?? "?"
                        throw mismatch(target, "\(table.name) (\(key(row))) differs in \(column)")
                    }
                    if let board, case .integer(let id) = row[board] { report.postsByBoard[id, default: 0] += 1 }
                }
                if found.count > expected.count {
                    throw mismatch(target, "\(table.name) (\(key(found[expected.count]))) is not in the source")
                }
                count += expected.count
                guard expected.count == table.pageRows ?? pageSize, let last = expected.last else { break }
                after = positions.map { last[$0] }
            }
            report.verified[table.name] = count
        }
    }

    private static func mismatch(_ target: any CopyEndpoint, _ detail: String) -> StoreError {
        StoreError(location: target.location, reason: .copyMismatch(detail))
    }
}
