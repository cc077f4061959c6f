import BoardArchive
import Foundation

/// Streams a ``FixtureDataset`` file (`{"referenceDate", "boards", "posts"}`) batch by batch, so a large benchmark
/// archive never has to be held in memory as one dataset value.
final class BenchmarkFixtureWriter {
    private let url: URL
    private let handle: FileHandle
    private var wrotePost = false

    /// Creates (or empties) the file and writes everything before the first post.
    init(url: URL, referenceDate: Date, boards: [Board]) throws {
        self.url = url
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
            handle = try FileHandle(forWritingTo: url)
            let head = "{\"referenceDate\":\"\(ArchiveDate.format(referenceDate))\",\"boards\":"
            try handle.write(contentsOf: Data(head.utf8) + (try encoder.encode(boards)) + Data(",\"posts\":[".utf8))
        } catch {
            throw BenchmarkArchiveError(location: url.path, reason: .cannotWriteFixture(error.localizedDescription))
        }
    }

    /// Appends posts, each as the JSON the store keeps for it.
    func append(_ posts: [RawItem<Post>]) throws {
        guard !posts.isEmpty else { return }
        var text = wrotePost ? ",\n" : "\n"
        text += posts.map(\.json).joined(separator: ",\n")
        wrotePost = true
        try write(text)
    }

    /// Closes the posts list and the file.
    func finish() throws {
        try write("\n]}\n")
        do { try handle.close() } catch {
            throw BenchmarkArchiveError(location: url.path, reason: .cannotWriteFixture(error.localizedDescription))
        }
    }

    private func write(_ text: String) throws {
        do { try handle.write(contentsOf: Data(text.utf8)) } catch {
            throw BenchmarkArchiveError(location: url.path, reason: .cannotWriteFixture(error.localizedDescription))
        }
    }
}
