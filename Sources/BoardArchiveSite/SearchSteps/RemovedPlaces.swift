import BoardArchiveSearch
import Foundation

/// The places that posts a redaction removed keep in keyword lists.
///
/// A removed post leaves the index, so the keyword lists would close up around it and every newer page of each
/// keyword that listed it would move by one post. Instead it keeps its place (a page shows one row fewer), as it does
/// on its board's pages: its text, which the store still holds, is matched against the keywords with the same block
/// matcher as the index (in memory; nothing of it is written). A purged post has no text left, so it keeps no place:
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

    /// Matches `documents` (the removed posts) against `keywords`.
    init(documents: [SearchDocument], keywords: [SearchKeyword], configuration: SearchIndexConfiguration) throws {
        try SearchIndexBuilder.forEachMatch(of: keywords, in: documents, configuration: configuration) { keyword, document in
            bySlug[keyword.slug, default: []].append(
                Place(
                    postId: document.postId, boardId: document.boardId,
                    created: Int(document.createdDateTime.timeIntervalSince1970.rounded(.down)), isNotice: document.isNotice))
        }
    }
}

extension SearchIndexBuilder {
    /// Calls `body` for each keyword and each of `documents` it matches, in search order per keyword (notices first,
    /// then newest first): the documents are indexed in memory and matched with the index's own block matcher, so the
    /// answer is what the written index would give. Nothing is written.
    static func forEachMatch(
        of keywords: [SearchKeyword], in documents: [SearchDocument], configuration: SearchIndexConfiguration,
        _ body: (SearchKeyword, SearchDocument) throws -> Void
    ) throws {
        guard !documents.isEmpty, !keywords.isEmpty else { return }
        let reader = try SearchIndexReader(files: try SearchIndexBuilder(configuration: configuration).makeSearchIndex(for: documents))
        // Blocks come in search order, each oldest first: reading each block's matches backwards gives search order.
        for block in blocks(of: documents, size: configuration.blockSize) {
            for keyword in keywords {
                for position in try reader.positions(matching: keyword.text, target: .all, inBlock: block.id).reversed() {
                    try body(keyword, block.documents[position])
                }
            }
        }
    }
}
