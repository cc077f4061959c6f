import BoardArchiveModel
import Foundation

/// The build's record of what each output file was made from: `manifest` in the state folder (``BuildState``).
///
/// One line per file, sorted by path (UTF-8 order): the file's ``BuildDigest`` (32 hex digits), a space, its logical path
/// (relative to the site root, or under ``BuildState/prefix`` for a state file). The next build renders only the files
/// whose digest changed and removes the files it no longer lists. The manifest is published with the site it describes
/// (in the same commit), so it never describes another site.
struct SiteManifest: Sendable, Equatable {
    /// The manifest's file name in the state folder.
    static let fileName = "manifest"
    /// The manifest's logical path in a build.
    static let path = BuildState.prefix + fileName
    /// The first line; a manifest with another first line is ignored (the next build renders everything). 2: the state
    /// folder beside the site (logical state paths under ``BuildState/prefix``).
    static let header = "boardarchive-manifest 2"
    /// The first line of the manifests kept inside the site (``BuildState/legacyManifest``), read once to migrate them.
    static let legacyHeader = "boardarchive-manifest 1"

    /// Path → digest.
    let digests: [String: BuildDigest]
    /// How many post pages (`posts/<name>.html`) the manifest lists.
    let postPageCount: Int
    /// The paths in sorted order, when the manifest was read from a file that listed them so (``load(from:)``): the
    /// next manifest is written in this order, merged with the new paths, instead of sorting every path again.
    private(set) var sortedPaths: [String]?
    /// The digests of ``sortedPaths``, in the same order.
    private(set) var sortedDigests: [BuildDigest] = []

    init(digests: [String: BuildDigest] = [:]) {
        self.init(digests: digests, postPageCount: digests.keys.count { Self.isPostPage($0.utf8) })
    }

    private init(digests: [String: BuildDigest], postPageCount: Int) {
        self.digests = digests
        self.postPageCount = postPageCount
    }

    /// Whether `path` is a post page's: `posts/`, a name without `/`, `.html`.
    private static func isPostPage(_ path: some BidirectionalCollection<UInt8>) -> Bool {
        path.starts(with: "posts/".utf8) && path.dropFirst(6).suffix(5).elementsEqual(".html".utf8)
            && !path.dropFirst(6).contains(UInt8(ascii: "/"))
    }

    static func == (lhs: SiteManifest, rhs: SiteManifest) -> Bool { lhs.digests == rhs.digests }

    /// Reads the manifest of the state folder `directory`; nil when there is none or it is not one this version wrote.
    static func load(from directory: URL) -> SiteManifest? {
        load(file: directory.appendingPathComponent(fileName), header: header)
    }

    /// Reads the manifest file `url` whose first line is `header`; nil when there is none or it has another first line.
    static func load(file url: URL, header: String) -> SiteManifest? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        // Lines are cut on the raw bytes: `String.split` walks grapheme clusters, and `Data`'s own iterator costs a
        // call a byte; either was a large part of a rebuild with nothing changed.
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> SiteManifest? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let newline = UInt8(ascii: "\n")
            var lineCount = 0
            for byte in bytes where byte == newline { lineCount += 1 }
            var digests: [String: BuildDigest] = [:]
            digests.reserveCapacity(lineCount)
            var paths: [String] = []
            paths.reserveCapacity(lineCount)
            var sortedDigests: [BuildDigest] = []
            sortedDigests.reserveCapacity(lineCount)
            // Counted on the bytes: counting them in the table of paths was 2 % of a night's rebuild.
            var postPageCount = 0
            // Whether the paths come in UTF-8 order, compared on the bytes of the previous line (no string copied).
            var isSorted = true
            var previousPath = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
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
                guard line.count > 33, line[32] == UInt8(ascii: " "), let digest = BuildDigest(hex: UnsafeBufferPointer(rebasing: line[0..<32]))
                else { return nil }
                let pathBytes = UnsafeBufferPointer(rebasing: line[33...])
                if isSorted, !paths.isEmpty, !Bytes.precedes(previousPath, pathBytes) { isSorted = false }
                previousPath = pathBytes
                if Self.isPostPage(pathBytes) { postPageCount += 1 }
                let path = String(decoding: pathBytes, as: UTF8.self)
                digests[path] = digest
                paths.append(path)
                sortedDigests.append(digest)
            }
            guard !isFirst else { return nil }
            var manifest = SiteManifest(digests: digests, postPageCount: postPageCount)
            manifest.sortedPaths = isSorted ? paths : nil
            manifest.sortedDigests = isSorted ? sortedDigests : []
            return manifest
        }
    }

    /// The manifest's bytes: the header, then `digest path` lines sorted by path.
    func encoded() -> Data {
        var data = Data()
        Self.encode(sortedEntries(previous: nil).lazy.map { ($0.key, $0.value) }) { data.append(contentsOf: $0) }
        return data
    }

    /// Writes ``encoded()`` to `url` in chunks of about 1 MB, so the whole text (about 100 MB at a million posts)
    /// is never held at once. The paths of `previous` that it still lists keep their sorted order, so only the new
    /// paths are sorted (sorting all of them was most of publishing a rebuild).
    func write(to url: URL, previous: SiteManifest? = nil) throws {
        try Self.write(sortedEntries(previous: previous).lazy.map { ($0.key, $0.value) }, to: url)
    }

    /// Writes the lines of `entries` (sorted) to `url`.
    private static func write(_ entries: some Sequence<(String, BuildDigest)>, to url: URL) throws {
        try SiteOutput.writeFile(to: url) { write in try encode(entries) { chunk in try chunk.withUnsafeBytes { try write($0) } } }
    }

    /// Writes the manifest of a build that made every path of this one (a manifest ``load(from:)`` read) and `additions`
    /// besides, with the digests of `changes` (paths of this manifest) replaced: its lines in order, merged with the
    /// sorted additions, without looking any path up (a night of new posts and a few edits changes a few hundred of
    /// 134,000 digests and adds a few thousand paths). False, with nothing written, when this manifest does not know its
    /// order or a change is not one of its paths.
    func write(
        to url: URL, replacing changes: [(path: String, digest: BuildDigest)], adding additions: [(path: String, digest: BuildDigest)] = []
    ) throws -> Bool {
        guard let paths = sortedPaths, sortedDigests.count == paths.count else { return false }
        var digests = sortedDigests
        var next = 0
        for change in changes.sorted(by: { Bytes.utf8Precedes($0.path, $1.path) }) {
            while next < paths.count, Bytes.utf8Precedes(paths[next], change.path) { next += 1 }
            // A change this manifest does not list: the caller writes the manifest in full.
            guard next < paths.count, paths[next] == change.path else { return false }
            digests[next] = change.digest
        }
        let added = additions.sorted(by: { Bytes.utf8Precedes($0.path, $1.path) })
        try Self.write(Self.merged(paths: paths, digests: digests, added: added), to: url)
        return true
    }

    /// The lines of `paths` (sorted, with `digests`) and of `added` (sorted, none of them in `paths`), in path order.
    private static func merged(
        paths: [String], digests: [BuildDigest], added: [(path: String, digest: BuildDigest)]
    ) -> AnySequence<(String, BuildDigest)> {
        var (next, nextAdded) = (0, 0)
        return AnySequence {
            AnyIterator { () -> (String, BuildDigest)? in
                if nextAdded < added.count, next == paths.count || Bytes.utf8Precedes(added[nextAdded].path, paths[next]) {
                    defer { nextAdded += 1 }
                    return (added[nextAdded].path, added[nextAdded].digest)
                }
                guard next < paths.count else { return nil }
                defer { next += 1 }
                return (paths[next], digests[next])
            }
        }
    }

    /// The entries sorted by path: `previous`'s sorted paths still listed, merged with the others sorted.
    private func sortedEntries(previous: SiteManifest?) -> [(key: String, value: BuildDigest)] {
        guard let previous, let old = previous.sortedPaths else { return digests.sorted(by: { Bytes.utf8Precedes($0.key, $1.key) }) }
        var kept: [(key: String, value: BuildDigest)] = []
        kept.reserveCapacity(digests.count)
        for path in old { if let digest = digests[path] { kept.append((path, digest)) } }
        guard kept.count < digests.count else { return kept }
        let added = digests.filter { previous.digests[$0.key] == nil }.sorted(by: { Bytes.utf8Precedes($0.key, $1.key) })
        var entries: [(key: String, value: BuildDigest)] = []
        entries.reserveCapacity(digests.count)
        var next = added.startIndex
        for entry in kept {
            while next < added.endIndex, Bytes.utf8Precedes(added[next].key, entry.key) {
                entries.append(added[next])
                next += 1
            }
            entries.append(entry)
        }
        entries.append(contentsOf: added[next...])
        return entries
    }

    /// Hands the bytes of a manifest of `entries` (sorted) to `sink` in chunks, in order.
    private static func encode(_ entries: some Sequence<(String, BuildDigest)>, _ sink: ([UInt8]) throws -> Void) rethrows {
        var chunk: [UInt8] = Array((header + "\n").utf8)
        chunk.reserveCapacity(1 << 20)
        for (path, digest) in entries {
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
