import BoardArchiveModel

/// Counts, for each term, how many documents hold it, keyed by the term's bytes in one arena: the search blocks step
/// counts every word of every post (``KeywordSelector/frequency(of:)``), and an array and a set entry per word showed
/// in the profile (6 % of a 100k build's samples).
struct TermTable {
    private struct Entry {
        var start: Int
        var length: Int
        var hash: UInt64
        var documents: Int
        var lastDocument: Int
    }

    private var arena: [UInt8] = []
    private var entries: [Entry] = []
    /// Open addressing: an index into `entries`, or -1.
    private var slots = [Int](repeating: -1, count: 1024)

    /// Counts `term` once for `document` (documents are counted in increasing order).
    mutating func count(_ term: UnsafeBufferPointer<UInt8>, inDocument document: Int) {
        let hash = Bytes.fnv1a(term)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            let index = slots[slot]
            if entries[index].hash == hash, entries[index].length == term.count, holds(entries[index], term) {
                if entries[index].lastDocument != document {
                    entries[index].documents += 1
                    entries[index].lastDocument = document
                }
                return
            }
            slot = (slot + 1) & mask
        }
        slots[slot] = entries.count
        entries.append(Entry(start: arena.count, length: term.count, hash: hash, documents: 1, lastDocument: document))
        arena.append(contentsOf: term)
        if entries.count * 2 > slots.count { grow() }
    }

    /// Every term with the number of documents holding it.
    var counts: [String: Int] {
        var counts: [String: Int] = [:]
        counts.reserveCapacity(entries.count)
        for entry in entries {
            counts[String(decoding: arena[entry.start..<(entry.start + entry.length)], as: UTF8.self), default: 0] += entry.documents
        }
        return counts
    }

    private func holds(_ entry: Entry, _ term: UnsafeBufferPointer<UInt8>) -> Bool {
        arena.withUnsafeBufferPointer { bytes in
            for offset in 0..<term.count where bytes[entry.start + offset] != term[offset] { return false }
            return true
        }
    }

    private mutating func grow() {
        slots = [Int](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = index
        }
    }
}
