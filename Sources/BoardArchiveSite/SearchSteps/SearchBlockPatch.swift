import BoardArchiveModel
import BoardArchiveSearch
import Foundation

/// Re-encodes a block from the previous build's files when only a few of its posts changed.
///
/// What a block's encoding costs is its posting lists: every post's fields normalised and cut into grams, and its
/// terms counted. When the previous build made the block from the same posts in the same places (some edited since,
/// and for the newest block some more posts after them), the lists are the previous build's with the changed posts'
/// old grams taken out and their new grams put in, and the term counts are the previous counts with the changed posts'
/// old terms taken out and their new terms put in. The old text comes back from the previous metadata and contents
/// shards, the lists from the previous posting shards. ``SearchBlockEncoder`` then writes every file of the block from
/// these entries as it writes a block encoded from scratch, so the bytes are the same (the incremental build tests
/// compare rebuilt sites with clean builds file by file).
struct SearchBlockPatch: Sendable {
    /// The previous build's record of the block.
    let previous: SearchBlockRecord
    /// Positions whose post is new to the block or changed (content hash differs), ascending.
    let changed: [Int]

    /// The patch of a block of `posts` (with content hashes `hashes`) from `previous`; nil when the block is to be
    /// encoded from scratch: other posts or boards in the previous places, another digest base, or more than a quarter
    /// of the block changed.
    init?(postIds: [Int], boards: [Int], hashes: [UInt64], previous: SearchBlockRecord?, base: BuildDigest) {
        guard let previous, previous.base == base, previous.postIds.count <= postIds.count, previous.hashes.count == previous.postIds.count,
            postIds.starts(with: previous.postIds), boards.starts(with: previous.boards)
        else { return nil }
        let changed = hashes.indices.filter { $0 >= previous.hashes.count || previous.hashes[$0] != hashes[$0] }
        guard !changed.isEmpty, changed.count * 4 <= postIds.count else { return nil }
        self.previous = previous
        self.changed = changed
    }

    /// The previous text of a changed post: what its grams and terms were made from.
    private struct OldText {
        var title: String
        var writer: String
        var contents: String
    }

    /// The block's posting entries for `documents` (the block's posts, by position), sorted by token as
    /// ``SearchBlockEncoder/postingEntries(of:)`` makes them, and its term counts; nil when a previous file is missing or
    /// not what this build writes (the block is then encoded from scratch).
    func patched(documents: [SearchDocument], configuration: SearchIndexConfiguration, output: SiteOutput) -> (
        entries: [(token: String, lists: String)], terms: [String: Int]
    )? {
        var shards = ShardCache(output: output)
        guard let oldTexts = oldTexts(metaShardSize: configuration.metaShardSize, shards: &shards),
            let termsData = output.previousContents(of: SearchBlockRecord.termsPath(of: previous.id))
        else { return nil }
        var isChanged = [Bool](repeating: false, count: documents.count)
        for position in changed { isChanged[position] = true }
        // A gram's lists change only where a changed post gained or lost it in a field: the grams in the symmetric
        // difference of the post's old and new grams, field by field (an edit that appends a line touches a few dozen
        // grams, not the thousands the post holds). Its new grams, per field, say where it goes back in.
        var newKeys: [[Set<UInt64>]] = []
        var affected = Set<UInt64>()
        for position in changed {
            let old =
                oldTexts[position].map { text in
                    [text.title, text.contents, text.writer].map { Self.gramKeys(of: $0) }
                } ?? [[], [], []]
            let new = SearchField.allCases.map { Self.gramKeys(of: $0.text(of: documents[position])) }
            for field in SearchField.allCases { affected.formUnion(old[field.rawValue].symmetricDifference(new[field.rawValue])) }
            newKeys.append(new)
        }
        guard let previousEntries = previousEntries(shards: shards, affected: affected) else { return nil }
        var entries = previousEntries.entries
        let affectedLists = previousEntries.affected
        for key in affected {
            var lists = PostingCodec.decodeLists(affectedLists[key] ?? "")
            for field in SearchField.allCases {
                var positions = lists[field.rawValue].filter { $0 >= isChanged.count || !isChanged[$0] }
                for (index, position) in changed.enumerated() where newKeys[index][field.rawValue].contains(key) { positions.append(position) }
                lists[field.rawValue] = positions.sorted()
            }
            var encoded = lists.map(PostingCodec.encode)
            while encoded.last?.isEmpty == true { encoded.removeLast() }
            if !encoded.isEmpty { entries.append((SearchTokenizer.token(for: key), encoded.joined(separator: SearchIndexFormat.listSeparator))) }
        }
        // Board entries are made again from the documents: posts appended to the block extend them.
        var boards: [Int: [Int]] = [:]
        for (position, document) in documents.enumerated() { boards[document.boardId, default: []].append(position) }
        for (boardId, positions) in boards { entries.append((SearchTokenizer.boardToken(boardId), PostingCodec.encode(positions))) }
        // Terms: previous counts minus the changed posts' old terms plus their new ones.
        var terms: [String: Int] = [:]
        SearchBlockRecord.addTerms(from: termsData, to: &terms)
        let oldDocuments = changed.compactMap { position in
            oldTexts[position].map { text in
                var document = documents[position]
                (document.title, document.writer, document.contents) = (text.title, text.writer, text.contents)
                return document
            }
        }
        for (term, count) in KeywordSelector.frequency(of: oldDocuments) {
            // An old term the previous counts do not hold: the files are not what the record says.
            guard let previousCount = terms[term], previousCount >= count else { return nil }
            terms[term] = previousCount - count
        }
        for (term, count) in KeywordSelector.frequency(of: changed.map { documents[$0] }) { terms[term, default: 0] += count }
        terms = terms.filter { $0.value > 0 }
        return (Bytes.sortedByUTF8(entries, key: \.token), terms)
    }

    /// The gram keys of a field's text.
    private static func gramKeys(of text: String) -> Set<UInt64> {
        var keys = Set<UInt64>()
        SearchTokenizer.addGramKeys(ofNormalized: TextNormalizer.normalize(text), to: &keys)
        return keys
    }

    /// The old text of every changed post the previous block held, by position; nil when a shard cannot be read.
    private func oldTexts(metaShardSize: Int, shards: inout ShardCache) -> [Int: OldText]? {
        typealias Meta = SearchRecordLayout.Meta
        var texts: [Int: OldText] = [:]
        for position in changed where position < previous.postIds.count {
            // The post's head: `[record, first piece]` (a third element for a piece cut where no clean place came).
            func path(piece: Int) -> String {
                let (group, index) = position.quotientAndRemainder(dividingBy: metaShardSize)
                return "search/" + SearchRecordLayout.contentsShardId(blockId: previous.id, group: group, index: index, piece: piece) + ".js"
            }
            guard let head = shards.json(path(piece: 0)) as? [Any], head.count >= 2, let record = head[0] as? [Any],
                var contents = head[1] as? String
            else { return nil }
            // Any sign that the files are not the previous build's record of this block sends it to a full encoding.
            guard record.count == Meta.allCases.count, record[Meta.postId.rawValue] as? Int == previous.postIds[position],
                let title = record[Meta.title.rawValue] as? String,
                let writer = record[Meta.writer.rawValue] as? String, let count = record[Meta.contentsCount.rawValue] as? Int, count >= 1
            else { return nil }
            for piece in 1..<count {
                // `[text]`, or `[text, 0]` for a piece cut where no clean place came.
                guard let payload = shards.json(path(piece: piece)) as? [Any], let text = payload.first as? String else { return nil }
                contents += text
            }
            texts[position] = OldText(title: title, writer: writer, contents: contents)
        }
        return texts
    }

    /// The previous posting entries of the block but its board entries: those of the grams not in `affected` as they
    /// were (in shard order), and the lists of those in `affected` by gram key; nil when a shard cannot be read or holds
    /// a token that is not a gram. Keys are computed from the tokens, so no token is hashed as a string (Swift hashes
    /// non-ASCII strings through their normalisation, which was a third of a patch).
    private func previousEntries(shards: ShardCache, affected: Set<UInt64>) -> (
        entries: [(token: String, lists: String)], affected: [UInt64: String]
    )? {
        let prefix = "search/\(previous.id)/p"
        var entries: [(token: String, lists: String)] = []
        var affectedLists: [UInt64: String] = [:]
        for path in previous.files where path.hasPrefix(prefix) {
            // Read once each, so not kept in the cache.
            guard let strings = shards.read(path) as? [String], strings.count % 2 == 0 else { return nil }
            entries.reserveCapacity(entries.count + strings.count / 2)
            for index in stride(from: 0, to: strings.count, by: 2) where !strings[index].hasPrefix(SearchTokenizer.boardTokenPrefix) {
                guard let key = SearchTokenizer.key(ofToken: strings[index]) else { return nil }
                if affected.contains(key) {
                    affectedLists[key] = strings[index + 1]
                } else {
                    entries.append((strings[index], strings[index + 1]))
                }
            }
        }
        return (entries, affectedLists)
    }

    /// The previous build's index files, parsed once each.
    private struct ShardCache {
        let output: SiteOutput
        var parsed: [String: Any] = [:]

        mutating func json(_ path: String) -> Any? {
            if let cached = parsed[path] { return cached }
            let value = read(path)
            parsed[path] = value
            return value
        }

        /// The JSON of `path` in the previous site, read as the index reader reads it; nil when it cannot be.
        func read(_ path: String) -> Any? {
            try? SearchIndexReader.parse(path: path, load: output.previousContents(of:)).json
        }
    }
}
