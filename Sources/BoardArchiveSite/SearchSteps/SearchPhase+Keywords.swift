import BoardArchiveModel
import BoardArchiveSearch
import Foundation

/// A keyword that gets pages: as configured or found, and the stem of its pages' file names.
struct SearchKeyword: Sendable, Equatable {
    var text: String
    var slug: String
}

/// The places of a keyword's list in listing order (notice blocks first, each block newest first), with what their
/// rows' digests need: its posts, and the removed posts that keep their places (``RemovedPlaces``).
struct KeywordResults {
    var keyword: SearchKeyword
    var postIds: [Int] = []
    var created: [Int] = []
    var hashes: [UInt64] = []
    var boards: [Int] = []
    /// Whether each place is a removed post's (no row).
    var removed: [Bool] = []
    /// How many of the places are notices (listed first).
    var pinned = 0

    /// How many places are removed posts'.
    var removedCount: Int { removed.count { $0 } }

    /// The posts the list shows.
    var shownCount: Int { postIds.count - removedCount }

    /// Collects the matches of `keyword` from `blocks` (in search order) and merges in the `removedPlaces` (in search
    /// order too).
    init(keyword: SearchKeyword, blocks: [SearchPhase.Block], removedPlaces: [RemovedPlaces.Place] = []) {
        self.keyword = keyword
        var places = removedPlaces.makeIterator()
        var nextRemoved = places.next()
        func append(postId: Int, created time: Int, hash: UInt64, board: Int, isNotice: Bool, isRemoved: Bool) {
            postIds.append(postId)
            created.append(time)
            hashes.append(hash)
            boards.append(board)
            removed.append(isRemoved)
            if isNotice { pinned += 1 }
        }
        func appendRemoved(_ place: RemovedPlaces.Place) {
            append(postId: place.postId, created: place.created, hash: 0, board: place.boardId, isNotice: place.isNotice, isRemoved: true)
            nextRemoved = places.next()
        }
        for block in blocks {
            for position in (block.record.matches[keyword.slug] ?? []).reversed() {
                let (postId, time) = (block.record.postIds[position], block.record.created[position])
                // Search order: notices first, then newest first, ties by the larger id.
                while let place = nextRemoved,
                    place.isNotice != block.isNotice ? place.isNotice : (place.created, place.postId) > (time, postId)
                {
                    appendRemoved(place)
                }
                append(
                    postId: postId, created: time, hash: block.record.hashes[position], board: block.record.boards[position],
                    isNotice: block.isNotice, isRemoved: false)
            }
        }
        while let place = nextRemoved { appendRemoved(place) }
    }
}

extension SearchPhase {
    /// The keywords of this build: the configured ones, then the most frequent terms, each once by normalised form.
    /// Kept from the previous build when no block and no keyword setting changed.
    /// A top keyword is found in at most ``BuildConfiguration/topKeywordCeiling(indexedPosts:)`` of the indexed posts.
    func selectKeywords(blocks: [Block], frequency fresh: [String: Int], base: BuildDigest, output: SiteOutput) throws -> [SearchKeyword] {
        let ceiling = configuration.topKeywordCeiling(indexedPosts: blocks.reduce(0) { $0 + $1.record.postIds.count })
        let digest = KeywordSelectionInput(
            topKeywords: configuration.topKeywords, ceiling: ceiling, keywords: configuration.keywords, blocks: blocks.map(\.input)
        ).digest(base: base)
        if output.previousDigest(of: Self.keywordStatePath) == digest, let data = output.previousContents(of: Self.keywordStatePath),
            let texts = try? JSONSerialization.jsonObject(with: data) as? [String]
        {
            _ = try output.keepPrevious(Self.keywordStatePath)
            return texts.map { SearchKeyword(text: $0, slug: KeywordSelector.slug(for: $0)) }
        }
        var top: [String] = []
        if configuration.topKeywords > 0 {
            var frequency = fresh
            for block in blocks where block.kept {
                guard let data = output.previousContents(of: SearchBlockRecord.termsPath(of: block.id)) else {
                    throw SearchIndexError(path: SearchBlockRecord.termsPath(of: block.id), reason: .missingFile)
                }
                SearchBlockRecord.addTerms(from: data, to: &frequency)
            }
            top = KeywordSelector.top(configuration.topKeywords, of: frequency, ceiling: ceiling).map(\.term)
        }
        var seen = Set<String>()
        var keywords: [SearchKeyword] = []
        for keyword in configuration.keywords + top {
            let normalized = TextNormalizer.normalizedQueryWords(keyword).joined(separator: " ")
            guard !normalized.isEmpty, seen.insert(normalized).inserted else { continue }
            let text = keyword.trimmingCharacters(in: .whitespacesAndNewlines)
            keywords.append(SearchKeyword(text: text, slug: KeywordSelector.slug(for: keyword)))
        }
        if try output.needsRendering(Self.keywordStatePath, digest: digest) {
            let data = try JSONSerialization.data(withJSONObject: keywords.map(\.text), options: [.sortedKeys])
            try output.write(data, to: Self.keywordStatePath)
        }
        return keywords
    }

    /// How many blocks' posts ``findMatches(of:in:documents:provisionalManifest:output:)`` holds at once (2,048 posts a block by default).
    static let blocksMatchedTogether = 4

    /// Finds, per block, the positions matching each keyword and writes the records. A block encoded in this build is
    /// matched in the text of its posts, read from the store by `documents` a few blocks at a time (``KeywordMatcher``),
    /// or takes over what its unchanged posts matched before (``CarriedMatches``); a kept block keeps its record's
    /// matches and finds a keyword it lacks (one that is new to the build) in its index files, candidates first, so a
    /// new keyword on a nightly rebuild reads a fraction of the archive instead of all of it.
    func findMatches(
        of keywords: [SearchKeyword], in blocks: inout [Block], documents: ([Int]) throws -> [SearchDocument], provisionalManifest: Data,
        output: SiteOutput
    ) throws {
        let slugs = keywords.map(\.slug)
        let work = blocks.indices.filter { index in slugs.contains { blocks[index].record.matches[$0] == nil } }
        let matcher = KeywordMatcher(keywords: keywords.map(\.text))
        var found: [[String: [Int]]] = []
        found.reserveCapacity(work.count)
        for start in stride(from: 0, to: work.count, by: Self.blocksMatchedTogether) {
            let batch = work[start..<min(work.count, start + Self.blocksMatchedTogether)].map { blocks[$0] }
            // The store is read here, one block after another; the blocks are then matched on every core.
            let texts = try batch.map { block in
                block.kept || block.carried?.covers(keywords) == true ? [] : try documents(block.record.postIds)
            }
            found += try concurrentMap(batch.count) { item in
                let block = batch[item]
                if let carried = block.carried, carried.covers(keywords) { return carried.positions(matching: keywords, matcher: matcher) }
                guard block.kept else {
                    return Dictionary(zip(slugs, matcher.positions(in: texts[item])), uniquingKeysWith: { first, _ in first })
                }
                let reader = try SearchIndexReader(load: { path in
                    path == SearchIndexBuilder.manifestPath ? provisionalManifest : output.currentContents(of: path)
                })
                var matches: [String: [Int]] = [:]
                for keyword in keywords where block.record.matches[keyword.slug] == nil {
                    matches[keyword.slug] = try reader.positions(matching: keyword.text, target: .all, inBlock: block.id)
                }
                return matches
            }
        }
        for (item, index) in work.enumerated() {
            for (slug, positions) in found[item] { blocks[index].record.matches[slug] = positions }
        }
        for index in blocks.indices {
            blocks[index].record.matches = blocks[index].record.matches.filter { slugs.contains($0.key) }
            let digest = KeywordMatchesInput(slugs: slugs.sorted()).digest(base: blocks[index].digest)
            let path = SearchBlockRecord.recordPath(of: blocks[index].id)
            if try output.needsRendering(path, digest: digest) { try output.write(blocks[index].record.encoded(), to: path) }
        }
    }
}
