import Foundation

/// The build's record of what each output file was made from: `.boardarchive-manifest` in the output folder.
///
/// One line per file, sorted by path: the file's ``BuildDigest`` (32 hex digits), a space, its path relative to the
/// site root. The next build renders only the files whose digest changed and removes the files it no longer lists.
/// The manifest is published with the site it describes (in the same commit), so it never describes another site.
struct SiteManifest: Sendable, Equatable {
    /// The manifest's file name in the output folder.
    static let fileName = ".boardarchive-manifest"
    /// The first line; a manifest with another first line is ignored (the next build renders everything).
    static let header = "boardarchive-manifest 1"

    /// Path → digest.
    var digests: [String: BuildDigest]

    init(digests: [String: BuildDigest] = [:]) {
        self.digests = digests
    }

    /// Reads the manifest of the site in `directory`; nil when there is none or it is not one this version wrote.
    static func load(from directory: URL) -> SiteManifest? {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(fileName).path) else { return nil }
        // Lines are cut on the raw bytes: `String.split` walks grapheme clusters, and `Data`'s own iterator costs a
        // call a byte; either was a large part of a rebuild with nothing changed.
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> SiteManifest? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let newline = UInt8(ascii: "\n")
            var lineCount = 0
            for byte in bytes where byte == newline { lineCount += 1 }
            var digests: [String: BuildDigest] = [:]
            digests.reserveCapacity(lineCount)
            var start = 0
            var isFirst = true
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != newline { end += 1 }
                defer { start = end + 1 }
                guard end > start else { continue }
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if isFirst {
                    guard line.elementsEqual(header.utf8) else { return nil }
                    isFirst = false
                    continue
                }
                // `<32 hex digits> <path>`
                guard line.count > 33, line[32] == UInt8(ascii: " "), let digest = BuildDigest(hexBytes: line[0..<32]) else { return nil }
                digests[String(decoding: UnsafeBufferPointer(rebasing: line[33...]), as: UTF8.self)] = digest
            }
            return isFirst ? nil : SiteManifest(digests: digests)
        }
    }

    /// The manifest's bytes: the header, then `digest path` lines sorted by path.
    func encoded() -> Data {
        var data = Data()
        encode { data.append(contentsOf: $0) }
        return data
    }

    /// Writes ``encoded()`` to `url` in chunks of about 1 MB, so the whole text (about 100 MB at a million posts)
    /// is never held at once.
    func write(to url: URL) throws {
        try SiteOutput.writeFile(to: url) { write in try encode { chunk in try chunk.withUnsafeBytes { try write($0) } } }
    }

    /// Hands the manifest's bytes to `sink` in chunks, in order.
    private func encode(_ sink: ([UInt8]) throws -> Void) rethrows {
        var chunk: [UInt8] = Array((Self.header + "\n").utf8)
        chunk.reserveCapacity(1 << 20)
        // The entries are sorted once, with their digests, instead of looking every path up again.
        for (path, digest) in digests.sorted(by: { $0.key < $1.key }) {
            digest.appendHex(to: &chunk)
            chunk.append(UInt8(ascii: " "))
            chunk.append(contentsOf: path.utf8)
            chunk.append(UInt8(ascii: "\n"))
            if chunk.count >= 1 << 20 {
                try sink(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        if !chunk.isEmpty { try sink(chunk) }
    }
}
