import BoardArchiveModel

/// Every term of the archive with the number of posts it is found in, most frequent first, as bytes: what the
/// top keywords' ceiling (``KeywordSelector/top(_:of:ceiling:)``) reads to see how far a term reaches.
struct TermCounts {
    private var terms: [(bytes: [UInt8], posts: Int)]

    /// The terms of `frequency`, most frequent first (ties by bytes, so that the order is deterministic).
    init(_ frequency: [String: Int]) {
        terms = frequency.map { (Array($0.key.utf8), $0.value) }.sorted { lhs, rhs in
            lhs.posts != rhs.posts ? lhs.posts > rhs.posts : lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
        }
    }

    /// The posts of `term` plus those of every other term whose bytes contain its bytes (UTF-8 is self-synchronising,
    /// so a byte match is a match of whole code points); counting stops once it passes `limit`.
    func reach(of term: [UInt8], upTo limit: Int) -> Int {
        var total = 0
        for (bytes, posts) in terms where bytes.count >= term.count && Bytes.firstIndex(of: term, in: bytes) != nil {
            total += posts
            if total > limit { return total }
        }
        return total
    }
}
