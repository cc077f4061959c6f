/// Gram key → slot number for one block's posting lists, by open addressing over a power-of-two table.
///
/// The posting lists look a key up for every gram of every post of a block; Swift's `Dictionary` hashes each `UInt64`
/// with SipHash, which was about 8 % of the search blocks step's samples. A multiplicative mix is enough here: keys
/// come from the block's own text, and a bad spread costs time, never a wrong answer.
struct GramSlots {
    private var keys: [UInt64]
    /// The slot of the key at the same index, or -1 for an empty entry.
    private var slots: [Int32]
    private(set) var count = 0

    init(capacity: Int = 1024) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        keys = [UInt64](repeating: 0, count: size)
        slots = [Int32](repeating: -1, count: size)
    }

    /// The slot of `key`, given the next slot number (`count`) when the key is new.
    mutating func slot(for key: UInt64) -> (slot: Int, isNew: Bool) {
        var index = Self.home(of: key, mask: keys.count - 1)
        while slots[index] >= 0 {
            if keys[index] == key { return (Int(slots[index]), false) }
            index = (index + 1) & (keys.count - 1)
        }
        keys[index] = key
        slots[index] = Int32(count)
        count += 1
        if count * 2 > keys.count { grow() }
        return (count - 1, true)
    }

    private static func home(of key: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldSlots = slots
        keys = [UInt64](repeating: 0, count: oldKeys.count * 2)
        slots = [Int32](repeating: -1, count: oldKeys.count * 2)
        let mask = keys.count - 1
        for (key, slot) in zip(oldKeys, oldSlots) where slot >= 0 {
            var index = Self.home(of: key, mask: mask)
            while slots[index] >= 0 { index = (index + 1) & mask }
            keys[index] = key
            slots[index] = slot
        }
    }
}
