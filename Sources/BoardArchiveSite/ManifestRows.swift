import BoardArchiveModel

/// Path → row of a ``SiteManifest``, by the path's UTF-8 bytes: an open-addressing table of row numbers, each slot with
/// 32 bits of its path's hash beside the row, so that a probe compares bytes only when the hash bits agree.
///
/// Instead of `[String: Int]`: at 1M posts a manifest holds 2 M paths, loaded at the start of every rebuild and looked
/// up once per page, and a dictionary of strings hashes each with SipHash, retains its keys and compares them by
/// canonical equivalence; this table hashes eight bytes at a time and compares bytes (a file name in another Unicode
/// normalisation is another file). Half the slots stay empty.
struct ManifestRows: Sendable {
    /// `hash bits << 32 | row + 1`; 0 is an empty slot.
    private var slots: [UInt64]
    private let mask: Int
    /// How many rows the table was made for, and holds.
    let capacity: Int
    private(set) var count = 0

    /// A table of no rows, to stand in for one moved out while it changes (``DeclaredPaths``).
    static let empty = ManifestRows(capacity: 0)

    /// An empty table for up to `capacity` rows.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
        self.capacity = capacity
    }

    /// Runs `body` on the UTF-8 bytes of `path` (in place for a native string): what the table's users hash and compare.
    static func withBytes<T>(of path: String, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        if let result = path.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        return Array(path.utf8).withUnsafeBytes(body)
    }

    /// The hash of a path's bytes: read as ``Bytes/forEachWord(of:_:)`` reads them, each word mixed by a multiply and an
    /// xor-shift.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9e37_79b9_7f4a_7c15 ^ UInt64(bytes.count)
        Bytes.forEachWord(of: bytes) { word in
            hash = (hash ^ word) &* 0xff51_afd7_ed55_8ccd
            hash ^= hash >> 32
        }
        hash = hash &* 0xc4ce_b9fe_1a85_ec53
        return hash ^ (hash >> 29)
    }

    /// The row of the path of hash `hash` for which `isPath` holds, or nil.
    func row(hash: UInt64, where isPath: (Int) -> Bool) -> Int? {
        let tag = hash >> 32
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            if entry >> 32 == tag, isPath(Int(entry & 0xFFFF_FFFF) - 1) { return Int(entry & 0xFFFF_FFFF) - 1 }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `row` for a path of hash `hash`; false, with nothing added, when a row for which `isPath` holds is there.
    mutating func insert(_ row: Int, hash: UInt64, unless isPath: (Int) -> Bool) -> Bool {
        precondition(row < Int(UInt32.max), "a manifest holds fewer than 4 G paths")
        // Half the slots stay empty, so that a probe ends soon (and always ends).
        precondition(count < capacity, "a table of manifest rows holds at most the rows it was made for")
        let tag = hash >> 32
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 {
                slots[slot] = tag << 32 | UInt64(row + 1)
                count += 1
                return true
            }
            if entry >> 32 == tag, isPath(Int(entry & 0xFFFF_FFFF) - 1) { return false }
            slot = (slot + 1) & mask
        }
    }
}
