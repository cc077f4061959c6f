import BoardArchive
import FixtureAPI
import Foundation
import Testing

/// `boardarchive bench-data` as the benchmark suite runs it: generate, mutate, refuse bad usage.
@Suite struct BenchDataCommandTests {
    @Test func generatesThenMutatesAStore() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-data-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("bench.sqlite").path
        let fixture = folder.appendingPathComponent("bench.json").path
        let generate = ["bench-data", "--posts", "600", "--boards", "6", "--seed", "3", "--store", store]
        let first = try await CommandRunner.run(generate + ["--now", "2026-01-15T12:00:00Z", "--fixture-json", fixture])
        #expect(first.status == 0, "stderr: \(first.stderr)")
        #expect(first.stdout.contains("Wrote 600 posts over 6 boards into \(store)"))
        #expect(try FixtureDataset.load(contentsOf: URL(fileURLWithPath: fixture)).posts.count == 600)

        // An existing store is not overwritten unless --replace says so.
        let again = try await CommandRunner.run(generate)
        #expect(again.status == 73)
        #expect(again.stderr.contains("--replace"))
        #expect(try await CommandRunner.run(generate + ["--replace"]).status == 0)

        let new = try await CommandRunner.run(["bench-data", "--store", store, "--mutate", "new", "--count", "6"])
        #expect(new.status == 0, "stderr: \(new.stderr)")
        #expect(new.stdout.contains("new 6 posts (ids 1000601…1000606)"))
        let gone = try await CommandRunner.run(["bench-data", "--store", store, "--mutate", "gone", "--count", "10"])
        #expect(gone.status == 0, "stderr: \(gone.stderr)")
        #expect(try ArchiveStore(path: store).postCount() == 596)
        #expect(try ArchiveStore(path: store).redactions().count == 10)
        let edit = try await CommandRunner.run(["bench-data", "--store", store, "--mutate", "edit", "--count", "5000"])
        #expect(edit.status == 64)
        #expect(edit.stderr.contains("lower --count"))
    }

    @Test(arguments: [
        ["bench-data", "--store", "x.sqlite"],
        ["bench-data", "--store", "x.sqlite", "--mutate", "rename", "--count", "1"],
        ["bench-data", "--store", "x.sqlite", "--mutate", "new"],
        ["bench-data", "--store", "x.sqlite", "--posts", "10", "--count", "1"],
        ["bench-data", "--store", "x.sqlite", "--posts", "10", "--now", "yesterday"],
    ])
    func refusesIncompleteOrMixedArguments(arguments: [String]) async throws {
        let result = try await CommandRunner.run(arguments)
        #expect(result.status == 64, "stdout: \(result.stdout)")
    }
}
