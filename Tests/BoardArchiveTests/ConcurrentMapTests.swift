import BoardArchive
import Foundation
import Synchronization
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The build's parallel map: results in index order, every index run once, the lowest failing index's error, and maps
/// inside maps (a board's pages inside the map over boards).
@Suite("Concurrent map")
struct ConcurrentMapTests {
    struct Failure: Error, Equatable {
        let index: Int
    }

    final class Counter: Sendable {
        let runs = Mutex<[Int: Int]>([:])
        func record(_ index: Int) { runs.withLock { $0[index, default: 0] += 1 } }
    }

    @Test("results come back in index order, each index run exactly once", arguments: [0, 1, 2, 7, 1_000])
    func resultsInOrder(count: Int) throws {
        let counter = Counter()
        let results = try concurrentMap(count) { index in
            counter.record(index)
            return index * 3
        }
        #expect(results == (0..<count).map { $0 * 3 })
        let runs = counter.runs.withLock { $0 }
        #expect(runs.count == count)
        #expect(runs.values.allSatisfy { $0 == 1 })
    }

    @Test("every index runs even when some fail, and the error of the lowest failing index is thrown")
    func lowestFailureWins() {
        let counter = Counter()
        #expect(throws: Failure(index: 13)) {
            try concurrentMap(200) { index in
                counter.record(index)
                if index % 50 == 13 || index == 199 { throw Failure(index: index) }
                return index
            }
        }
        #expect(counter.runs.withLock { $0.count } == 200)
    }

    @Test("maps inside maps give every result, in order")
    func nestedMaps() throws {
        for _ in 0..<3 {
            let outer = try concurrentMap(20) { board in
                try concurrentMap(board * 7 + 1) { page in board * 1_000 + page }
            }
            for (board, pages) in outer.enumerated() { #expect(pages == (0..<(board * 7 + 1)).map { board * 1_000 + $0 }) }
        }
    }
}
