import BoardArchiveSearch
import Foundation

/// What a re-encoded block takes over from the previous build's record of it, so that a few changed posts do not
/// send every keyword through the whole block again.
///
/// Whether a post matches a keyword depends on the post's own text only (its normalised fields: ``KeywordMatcher``).
/// So a post whose id and content hash are unchanged, in a block encoded with the same digest base (templates,
/// strings, settings), matches the same keywords as before: its memberships carry over to its new position. The other posts, the *fresh* ones, are matched in their text (``KeywordMatcher``), as
/// every block is that carries nothing: a block with more than a quarter of fresh posts, or a keyword the previous
/// record has no matches for, is matched whole in the text of its posts.
struct CarriedMatches {
    /// Keyword slug → positions (in the new block) of unchanged posts that matched, ascending.
    var matches: [String: [Int]]
    /// The posts that are new to the block or changed, with their positions.
    var fresh: [(position: Int, document: SearchDocument)]

    /// The carried matches of block `record` (just encoded from `documents`) from `previous`, the previous build's
    /// record of the block; nil when nothing can carry over.
    init?(record: SearchBlockRecord, documents: [SearchDocument], previous: SearchBlockRecord?) {
        guard let previous, let base = record.base, previous.base == base, !previous.matches.isEmpty else { return nil }
        var previousPosition: [Int: Int] = [:]
        previousPosition.reserveCapacity(previous.postIds.count)
        for (position, postId) in previous.postIds.enumerated() { previousPosition[postId] = position }
        var moved = [Int?](repeating: nil, count: previous.postIds.count)
        var fresh: [(position: Int, document: SearchDocument)] = []
        for (position, document) in documents.enumerated() {
            if let old = previousPosition[document.postId], previous.hashes[old] == record.hashes[position] {
                moved[old] = position
            } else {
                fresh.append((position, document))
            }
        }
        guard fresh.count * 4 <= documents.count else { return nil }
        matches = previous.matches.mapValues { positions in
            positions.compactMap { $0 < moved.count ? moved[$0] : nil }.sorted()
        }
        self.fresh = fresh
    }

    /// Whether every one of `keywords` has carried matches (a keyword the previous build did not have has none).
    func covers(_ keywords: [SearchKeyword]) -> Bool { keywords.allSatisfy { matches[$0.slug] != nil } }

    /// The positions of the block matching each of `keywords` (which it must ``covers(_:)``), ascending: the carried ones
    /// and those of the fresh posts, matched in their text by `matcher` (made for `keywords`, in their order).
    func positions(matching keywords: [SearchKeyword], matcher: KeywordMatcher) -> [String: [Int]] {
        var result = matches
        let found = matcher.positions(in: fresh.map(\.document))
        for (keyword, positions) in zip(keywords, found) {
            result[keyword.slug, default: []] += positions.map { fresh[$0].position }
        }
        return Dictionary(uniqueKeysWithValues: keywords.map { ($0.slug, (result[$0.slug] ?? []).sorted()) })
    }
}
