import BoardArchiveModel
import BoardArchiveRender
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

    /// Every path, in the file's order (sorted when ``isSorted``), and its digest at the same index (its *row*).
    let paths: [String]
    private let rowDigests: [BuildDigest]
    /// Path → row: one table of the paths, whose rows a build marks as it declares them (``SiteOutput``) instead of
    /// filling a second table of every path (at a million posts, filling it was a tenth of a night's rebuild).
    private let rows: ManifestRows
    /// Whether ``paths`` are in UTF-8 order: read from a file that listed them so (``load(from:)``). The next manifest is
    /// then written in this order, merged with the new paths, instead of sorting every path again.
    let isSorted: Bool
    /// How many post pages (`posts/<name>.html`, not earlier versions' `posts/<id>-v<n>.html`) the manifest lists.
    let postPageCount: Int

    init(digests: [String: BuildDigest] = [:]) {
        self.init(
            paths: Array(digests.keys), digests: Array(digests.values), rows: nil, isSorted: false,
            postPageCount: digests.keys.count { Self.isPostPage($0.utf8) })
    }

    private init(paths: [String], digests: [BuildDigest], rows: ManifestRows?, isSorted: Bool, postPageCount: Int) {
        self.paths = paths
        self.rowDigests = digests
        self.rows =
            rows
            ?? {
                var rows = ManifestRows(capacity: paths.count)
                for (row, path) in paths.enumerated() {
                    _ = ManifestRows.withBytes(of: path) { bytes in
                        rows.insert(row, hash: ManifestRows.hash(bytes)) { Self.path(paths[$0], is: bytes) }
                    }
                }
                return rows
            }()
        self.isSorted = isSorted
        self.postPageCount = postPageCount
    }

    /// How many paths the manifest lists.
    var count: Int { paths.count }
    var isEmpty: Bool { paths.isEmpty }

    /// The row of `path`, or nil when the manifest does not list it byte for byte: Swift compares strings by canonical
    /// equivalence, and a file name in another Unicode normalisation is another file.
    func row(of path: String) -> Int? {
        ManifestRows.withBytes(of: path) { bytes in rows.row(hash: ManifestRows.hash(bytes)) { Self.path(paths[$0], is: bytes) } }
    }

    /// Whether `path` is `bytes`, byte for byte.
    private static func path(_ path: String, is bytes: UnsafeRawBufferPointer) -> Bool {
        ManifestRows.withBytes(of: path) { own in
            guard own.count == bytes.count, let start = own.baseAddress, let other = bytes.baseAddress else { return own.count == bytes.count }
            return memcmp(start, other, bytes.count) == 0
        }
    }

    /// The digest of the path at `row`.
    func digest(atRow row: Int) -> BuildDigest { rowDigests[row] }

    /// The digest of `path`, or nil when the manifest does not list it (byte for byte).
    func digest(of path: String) -> BuildDigest? { row(of: path).map { rowDigests[$0] } }

    /// Path → digest, as one table (made on each call: for tests and the one-time migration of an old site's state).
    var digests: [String: BuildDigest] { Dictionary(zip(paths, rowDigests), uniquingKeysWith: { first, _ in first }) }

    /// Whether `path` is a post page's: `posts/`, a name without `/`, `.html`.
    private static func isPostPage(_ path: some BidirectionalCollection<UInt8>) -> Bool {
        path.starts(with: "posts/".utf8) && path.dropFirst(6).suffix(5).elementsEqual(".html".utf8)
            && !path.dropFirst(6).contains(UInt8(ascii: "/"))
            && !(path.dropFirst(6).contains(UInt8(ascii: "v")) && SitePaths.isVersion(String(decoding: Array(path), as: UTF8.self)))
    }

    /// Whether both list the same paths, byte for byte, with the same digests (in any order). Not ``digests``: a
    /// dictionary of strings would take a name spelled in NFC and in NFD (two files) for one.
    static func == (lhs: SiteManifest, rhs: SiteManifest) -> Bool {
        lhs.count == rhs.count && lhs.paths.indices.allSatisfy { row in rhs.digest(of: lhs.paths[row]) == lhs.rowDigests[row] }
    }

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
            var rows = ManifestRows(capacity: lineCount)
            var paths: [String] = []
            paths.reserveCapacity(lineCount)
            var digests: [BuildDigest] = []
            digests.reserveCapacity(lineCount)
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
                // A path listed twice: not a manifest this version wrote.
                let raw = UnsafeRawBufferPointer(pathBytes)
                guard rows.insert(paths.count, hash: ManifestRows.hash(raw), unless: { Self.path(paths[$0], is: raw) }) else { return nil }
                paths.append(String(decoding: pathBytes, as: UTF8.self))
                digests.append(digest)
            }
            guard !isFirst else { return nil }
            return SiteManifest(paths: paths, digests: digests, rows: rows, isSorted: isSorted, postPageCount: postPageCount)
        }
    }

    /// The manifest's bytes: the header, then `digest path` lines sorted by path.
    func encoded() -> Data {
        var data = Data()
        Self.encode(sortedEntries()) { data.append(contentsOf: $0) }
        return data
    }

    /// Writes ``encoded()`` to `url` in chunks of about 1 MB, so the whole text (about 100 MB at a million posts)
    /// is never held at once.
    func write(to url: URL) throws {
        try Self.write(sortedEntries(), to: url)
    }

    /// Writes the manifest of `digests` to `url`, sorted (a full build's, or a rebuild's from a previous manifest whose
    /// order is not known), without making a ``SiteManifest`` of them first (its table of rows).
    static func write(_ digests: [String: BuildDigest], to url: URL) throws {
        try write(Bytes.sortedByUTF8(Array(digests), key: \.key).lazy.map { ($0.key, $0.value) }, to: url)
    }

    /// Writes the manifest of the paths `declared` to `url`, sorted (a build without a previous manifest: every path is
    /// one it added), a string made for each line as it is written; the manifest's own path is left out.
    static func write(_ declared: DeclaredPaths, to url: URL) throws {
        try write(
            declared.numbersInOrder().lazy.map { (declared.path($0), declared.digests[$0]) }.filter { $0.0 != path }, to: url)
    }

    /// Writes the lines of `entries` (sorted) to `url`.
    private static func write(_ entries: some Sequence<(String, BuildDigest)>, to url: URL) throws {
        try SiteOutput.writeFile(to: url) { write in try encode(entries) { chunk in try chunk.withUnsafeBytes { try write($0) } } }
    }

    /// Writes the manifest of the build after the one this manifest (read in sorted order) describes: its lines in order
    /// but for the rows `kept` leaves out (files the build no longer makes), the digests of `changes` (rows) replaced,
    /// and the sorted `additions` merged in; no path is looked up (a night of new posts and a few edits changes a few
    /// hundred of 134,000 digests and adds a few thousand paths). False, with nothing written, when this manifest does
    /// not know its order.
    func write(
        to url: URL, keeping kept: (Int) -> Bool = { _ in true }, replacing changes: [(row: Int, digest: BuildDigest)],
        adding additions: [(path: String, digest: BuildDigest)] = []
    ) throws -> Bool {
        guard isSorted else { return false }
        var digests = rowDigests
        for change in changes { digests[change.row] = change.digest }
        let keptRows = paths.indices.lazy.filter(kept)
        let added = Bytes.sortedByUTF8(additions, key: \.path)
        try Self.write(Self.merged(keptRows.lazy.map { (self.paths[$0], digests[$0]) }, added), to: url)
        return true
    }

    /// The lines of `kept` (sorted) and of `added` (sorted, none of them in `kept`), in path order.
    private static func merged<Kept: Sequence<(String, BuildDigest)>>(
        _ kept: Kept, _ added: [(path: String, digest: BuildDigest)]
    ) -> MergedLines<Kept.Iterator> {
        MergedLines(kept: kept.makeIterator(), added: added)
    }

    /// ``merged(_:_:)``'s lines, as a concrete sequence the encoder's loop is specialised for (2 M lines at 1M posts;
    /// through `AnySequence` each line was an indirect call).
    struct MergedLines<Kept: IteratorProtocol<(String, BuildDigest)>>: Sequence, IteratorProtocol {
        private var kept: Kept
        private var pending: (String, BuildDigest)?
        private let added: [(path: String, digest: BuildDigest)]
        private var addedIndex = 0

        init(kept: Kept, added: [(path: String, digest: BuildDigest)]) {
            self.kept = kept
            self.added = added
            pending = self.kept.next()
        }

        mutating func next() -> (String, BuildDigest)? {
            if addedIndex < added.count, pending.map({ Bytes.utf8Precedes(added[addedIndex].path, $0.0) }) ?? true {
                defer { addedIndex += 1 }
                return (added[addedIndex].path, added[addedIndex].digest)
            }
            defer { pending = kept.next() }
            return pending
        }
    }

    /// The entries sorted by path.
    private func sortedEntries() -> [(String, BuildDigest)] {
        zip(paths, rowDigests).sorted(by: { Bytes.utf8Precedes($0.0, $1.0) })
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
