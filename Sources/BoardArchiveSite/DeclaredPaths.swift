import BoardArchiveModel
import Foundation

/// Paths with their digests, held as bytes: the paths a build declares that the previous manifest does not list (every
/// path of a full build). Their UTF-8 bytes lie end to end in one buffer, numbered in the order they came, and a
/// ``ManifestRows`` table finds a path's number by its bytes.
///
/// Instead of `[String: BuildDigest]`: a path of more than 15 bytes (every search index file's) is a string of its own
/// on the heap, and with the table's entry, the set of paths written and the list of those staged, a full build held
/// about 145 bytes a path; at 1M posts on one board, 2 M paths. Here a path costs its bytes, a 4-byte end, its 16-byte
/// digest and 16-32 bytes of table.
struct DeclaredPaths: Sendable {
    private var bytes: [UInt8] = []
    /// Where each path's bytes end in ``bytes`` (a path starts where the one before it ends).
    private var ends: [UInt32] = []
    /// Each path's digest, by number.
    private(set) var digests: [BuildDigest] = []
    private var rows = ManifestRows(capacity: 1024)

    /// How many paths are held.
    var count: Int { ends.count }
    var isEmpty: Bool { ends.isEmpty }

    /// The number of `path`, or nil when it is not held (byte for byte).
    func number(of path: String) -> Int? {
        ManifestRows.withBytes(of: path) { bytes in rows.row(hash: ManifestRows.hash(bytes)) { self.holds(bytes, at: $0) } }
    }

    /// Adds `path` with `digest` and returns its number; nil, with nothing added, when `path` is held already.
    mutating func insert(_ path: String, digest: BuildDigest) -> Int? {
        if rows.count == rows.capacity { grow() }
        let number = count
        // The table is moved out while it changes, so that the check reads the paths without a second access to `self`.
        var table = ManifestRows.empty
        swap(&table, &rows)
        defer { swap(&table, &rows) }
        let added = ManifestRows.withBytes(of: path) { bytes in
            table.insert(number, hash: ManifestRows.hash(bytes)) { self.holds(bytes, at: $0) }
        }
        guard added else { return nil }
        ManifestRows.withBytes(of: path) { self.bytes.append(contentsOf: $0) }
        precondition(self.bytes.count <= Int(UInt32.max), "a build's paths hold fewer than 4 GB")
        ends.append(UInt32(self.bytes.count))
        digests.append(digest)
        return number
    }

    /// The path numbered `number`.
    func path(_ number: Int) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range(of: number)]), as: UTF8.self) }
    }

    /// The numbers of every path, in the UTF-8 order of the paths (the manifest's): on eight-byte prefixes first, the
    /// whole paths where those tie, as ``Bytes/sortedByUTF8(_:key:)`` sorts, without a string made.
    func numbersInOrder() -> [Int] {
        let prefixes = (0..<count).map { number in
            bytes.withUnsafeBufferPointer { flat in
                var prefix: UInt64 = 0
                for (index, byte) in flat[range(of: number)].prefix(8).enumerated() { prefix |= UInt64(byte) << UInt64(56 - 8 * index) }
                return prefix
            }
        }
        return bytes.withUnsafeBufferPointer { flat in
            (0..<count).sorted { lhs, rhs in
                if prefixes[lhs] != prefixes[rhs] { return prefixes[lhs] < prefixes[rhs] }
                return Bytes.precedes(UnsafeBufferPointer(rebasing: flat[range(of: lhs)]), UnsafeBufferPointer(rebasing: flat[range(of: rhs)]))
            }
        }
    }

    private func range(of number: Int) -> Range<Int> {
        (number == 0 ? 0 : Int(ends[number - 1]))..<Int(ends[number])
    }

    /// Whether the path numbered `number` is `other`, byte for byte.
    private func holds(_ other: UnsafeRawBufferPointer, at number: Int) -> Bool {
        let range = range(of: number)
        guard range.count == other.count else { return false }
        return bytes.withUnsafeBytes { own in
            guard let start = own.baseAddress, let otherStart = other.baseAddress else { return true }
            return memcmp(start + range.lowerBound, otherStart, range.count) == 0
        }
    }

    /// A table twice as large, every path's number entered again (each path is held once, so none is compared).
    private mutating func grow() {
        var larger = ManifestRows(capacity: rows.capacity * 2)
        bytes.withUnsafeBytes { flat in
            for number in 0..<count {
                let range = range(of: number)
                _ = larger.insert(number, hash: ManifestRows.hash(UnsafeRawBufferPointer(rebasing: flat[range]))) { _ in false }
            }
        }
        rows = larger
    }
}
