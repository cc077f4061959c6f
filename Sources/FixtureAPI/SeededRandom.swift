/// A small, fast, deterministic random number generator (SplitMix64).
///
/// Used wherever the fixture must make "random" choices that a test can reproduce: fault
/// injection and the generated dataset. Not for anything security-related.
struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is fully determined by `seed`.
    init(seed: UInt64) {
        state = seed
    }

    /// Creates a generator for one named decision, so the outcome depends only on the inputs and not on request order.
    init(seed: UInt64, key: String, index: Int) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in key.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        state = seed ^ hash ^ (UInt64(truncatingIfNeeded: index) &* 0x9e37_79b9_7f4a_7c15)
        _ = next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A uniformly distributed value in `0..<1`.
    mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// `true` with probability `rate` (clamped to `0...1`); a rate of 0 never draws.
    mutating func chance(_ rate: Double) -> Bool {
        guard rate > 0 else { return false }
        return nextUnit() < rate
    }
}
