import BoardArchiveModel

/// One normalised query word and the tokens that find its candidates.
struct SearchQueryPlan: Equatable {
    /// The normalised word.
    var word: String
    /// The tokens whose posting lists are intersected (unigram or bigrams).
    var tokens: [String]
    /// Whether the posting lists answer the word exactly, so no text needs to be checked.
    var exact: Bool

    /// The plans of a raw query: one per distinct normalised word, in query order.
    static func plans(for query: String) -> [SearchQueryPlan] {
        TextNormalizer.normalizedQueryWords(query).map { word in
            SearchQueryPlan(
                word: word, tokens: SearchTokenizer.gramKeys(ofWord: word).map(SearchTokenizer.token(for:)),
                exact: SearchTokenizer.isExact(normalizedWord: word))
        }
    }
}

extension SearchIndexReader {
    /// Matches the query against one block: candidates from the posting lists, then verification in the text.
    struct BlockMatcher {
        let reader: SearchIndexReader
        let blockIndex: Int
        let plans: [SearchQueryPlan]
        let fields: [SearchField]
        /// Per word, per field (`SearchField.rawValue`), the candidate positions.
        let candidateSets: [[Set<Int>]]
        /// The positions that may match every word, newest first.
        let candidates: [Int]
        /// Per token read, its positions in the target's fields (what ``SearchIndexReader/readTokens(of:seen:)`` rates).
        let tokenCounts: [String: Int]

        init(reader: SearchIndexReader, block: Block, plans: [SearchQueryPlan], target: SearchTarget, boardId: Int?) throws {
            self.reader = reader
            self.plans = plans
            fields = target.fields
            guard let blockIndex = reader.blocks.firstIndex(where: { $0.id == block.id }) else {
                preconditionFailure("block \(block.id) is not in the manifest")
            }
            self.blockIndex = blockIndex
            var boardPositions: Set<Int>? = nil
            if let boardId {
                boardPositions = Set(try reader.postingLists(of: SearchTokenizer.boardToken(boardId), blockIndex: blockIndex)[0])
            }
            var sets: [[Set<Int>]] = []
            var combined: Set<Int>? = boardPositions
            var counts: [String: Int] = [:]
            for plan in plans {
                var perField = [Set<Int>](repeating: [], count: 3)
                let lists = try plan.tokens.map { try reader.postingLists(of: $0, blockIndex: blockIndex) }
                for (token, list) in zip(plan.tokens, lists) { counts[token] = fields.reduce(0) { $0 + list[$1.rawValue].count } }
                for field in fields {
                    var set: Set<Int>? = nil
                    for list in lists {
                        set = set.map { $0.intersection(list[field.rawValue]) } ?? Set(list[field.rawValue])
                        if set?.isEmpty == true { break }
                    }
                    perField[field.rawValue] = set ?? []
                }
                sets.append(perField)
                let union = fields.reduce(into: Set<Int>()) { $0.formUnion(perField[$1.rawValue]) }
                combined = combined.map { $0.intersection(union) } ?? union
            }
            candidateSets = sets
            candidates = (combined ?? []).sorted(by: >)
            tokenCounts = counts
        }

        /// Whether the post at `position` matches every word: `nil` when not, else whether its contents may hold a word.
        func matches(_ position: Int) throws -> Bool? {
            for (index, plan) in plans.enumerated() {
                var matched = false
                for field in fields where candidateSets[index][field.rawValue].contains(position) {
                    let holds = {
                        if field == .contents { return try reader.contentsHold(blockIndex: blockIndex, position: position, word: plan.word) }
                        let text = try reader.normalizedText(
                            of: field, blockIndex: blockIndex, position: position, viaHead: isContentsCandidate(position))
                        return TextNormalizer.scalarsContain(text, plan.word)
                    }
                    if try plan.exact || holds() {
                        matched = true
                        break
                    }
                }
                if !matched { return nil }
            }
            // A word found in its contents makes it a contents candidate too: that field was among its candidates.
            return isContentsCandidate(position)
        }

        /// Whether a word may be in the contents of the post at `position` (its contents are among the target's fields
        /// and hold every gram of the word): then verifying or showing it reads its head, which holds its metadata record
        /// too, and not its group's metadata shard (`inContents` in `search.js`).
        func isContentsCandidate(_ position: Int) -> Bool {
            fields.contains(.contents) && candidateSets.contains { $0[SearchField.contents.rawValue].contains(position) }
        }
    }
}
