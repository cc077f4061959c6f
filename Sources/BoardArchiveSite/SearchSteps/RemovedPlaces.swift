import BoardArchiveSearch
import Foundation

/// The places that posts a redaction removed keep in keyword lists.
///
/// A removed post leaves the index, so the keyword lists would close up around it and every newer page of each
/// keyword that listed it would move by one post. Instead it keeps its place (a page shows one row fewer), as it does
/// on its board's pages: its text, which the store still holds, is matched against the keywords as the posts of the
/// index are (nothing of it is written). A purged post has no text left, so it keeps no place:
/// the lists of the keywords that held it close up.
struct RemovedPlaces {
    /// A removed post's place in a keyword list.
    struct Place: Equatable {
        var postId: Int
        var boardId: Int
        /// Seconds since 1970, rounded down, as the search records keep them.
        var created: Int
        var isNotice: Bool
    }

    /// The places, per keyword slug, in search order (notices first, each group newest first, ties by id).
    private(set) var bySlug: [String: [Place]] = [:]

    /// Matches `documents` (the removed posts) against `keywords` in their text, as the build matches the posts of its
    /// search blocks (``KeywordMatcher``).
    init(documents: [SearchDocument], keywords: [SearchKeyword]) {
        guard !documents.isEmpty, !keywords.isEmpty else { return }
        let ordered = documents.sorted(by: SearchDocument.listingPrecedes)
        let found = KeywordMatcher(keywords: keywords.map(\.text)).positions(in: ordered)
        for (keyword, positions) in zip(keywords, found) where !positions.isEmpty {
            bySlug[keyword.slug] = positions.map { position in
                let document = ordered[position]
                return Place(
                    postId: document.postId, boardId: document.boardId,
                    created: Int(document.createdDateTime.timeIntervalSince1970.rounded(.down)), isNotice: document.isNotice)
            }
        }
    }
}
