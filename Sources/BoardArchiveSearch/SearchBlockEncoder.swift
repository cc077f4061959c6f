import BoardArchiveModel
import Foundation

/// Encodes one block of the search index: its posting shards, and per group of consecutive posts a metadata shard and
/// each post's head and further contents pieces.
package struct SearchBlockEncoder {
    package struct EncodedBlock {
        package var files: [String: Data]
        /// The group of each metadata and contents file (the posting files belong to the whole block).
        package var fileGroups: [String: Int] = [:]
        package var postingBuckets: Int
        /// The block's gram tokens (not its board tokens), for the block directory.
        package var tokens: [String]
    }

    var configuration: SearchIndexConfiguration

    package init(configuration: SearchIndexConfiguration) {
        self.configuration = configuration
    }

    /// Encodes `documents` (oldest first; a post's position is its index) as the files of block `blockId`, with
    /// `entries` as their posting entries when the caller has them (``SearchBlockPatch``), else made from the documents.
    /// The metadata shards, heads and contents pieces of the groups in `keptGroups` (``positions(ofGroup:count:)``) are not made: the caller
    /// keeps the previous build's, and those documents' text is not read.
    package func encode(
        _ documents: [SearchDocument], blockId: String, entries: [(token: String, lists: String)]? = nil, keptGroups: Set<Int> = []
    ) throws -> EncodedBlock {
        var files: [String: Data] = [:]
        var fileGroups: [String: Int] = [:]
        for group in 0..<groupCount(of: documents.count) where !keptGroups.contains(group) {
            let positions = positions(ofGroup: group, count: documents.count)
            var records: [SearchJSON] = []
            var contentsFiles: [String: Data] = [:]
            for position in positions {
                let pieces = contentsPieces(of: documents[position])
                let record = metaRecord(documents[position], pieces: pieces.count)
                records.append(record)
                for (piece, (text, clean)) in pieces.enumerated() {
                    let id = SearchIndexFormat.contentsShardId(
                        blockId: blockId, group: group, index: position - positions.lowerBound, piece: piece)
                    // A piece cut where a rule may join its last code point to the next one says so: a reader decides
                    // nothing on the text before such a cut.
                    let unclean: [SearchJSON] = clean ? [] : [.int(0)]
                    let payload: [SearchJSON] = (piece == 0 ? [record] : []) + [.string(text)] + unclean
                    contentsFiles["search/\(id).js"] = SearchScript.wrap(shardId: id, payload: .array(payload))
                }
            }
            files.merge(contentsFiles) { first, _ in first }
            let id = SearchRecordLayout.metaShardId(blockId: blockId, group: group)
            files["search/\(id).js"] = SearchScript.wrap(shardId: id, payload: .array(records))
            for path in contentsFiles.keys + ["search/\(id).js"] { fileGroups[path] = group }
        }
        let entries = entries ?? postingEntries(of: documents)
        let total = entries.reduce(0) { $0 + $1.token.utf8.count + $1.lists.utf8.count + 6 }
        var buckets = 1
        while buckets < 4_096 && total > buckets * configuration.postingShardTargetBytes { buckets *= 2 }
        while true {
            var groups = [[SearchJSON]](repeating: [], count: buckets)
            for entry in entries {
                let bucket = SearchTokenizer.bucket(of: entry.token, count: buckets)
                groups[bucket].append(.string(entry.token))
                groups[bucket].append(.string(entry.lists))
            }
            var postingFiles: [String: Data] = [:]
            for (bucket, group) in groups.enumerated() where !group.isEmpty {
                let id = SearchIndexFormat.postingShardId(blockId: blockId, bucket: bucket)
                postingFiles["search/\(id).js"] = SearchScript.wrap(shardId: id, payload: .array(group))
            }
            if buckets >= 65_536 || postingFiles.values.allSatisfy({ $0.count <= configuration.maximumFileBytes }) {
                files.merge(postingFiles) { first, _ in first }
                let tokens = entries.map(\.token).filter { !$0.hasPrefix(SearchTokenizer.boardTokenPrefix) }
                return EncodedBlock(files: files, fileGroups: fileGroups, postingBuckets: buckets, tokens: tokens)
            }
            buckets *= 2
        }
    }

    /// The posting entries of a block sorted by token (UTF-8 order): the token and its lists `title.contents.writer`
    /// (trailing empty lists dropped), plus one `#b:<boardId>` entry per board.
    func postingEntries(of documents: [SearchDocument]) -> [(token: String, lists: String)] {
        // A gram's lists are `slot * 3 + field`, its slot found through `slots`. Each list's first sighting in a post
        // is noted once, in the order met (positions only grow, so a list seen again in the same post is the one
        // whose last position is this one); then one counting pass lays every list's positions out together, in
        // order, in one flat array: no array per list.
        var slots = GramSlots(capacity: 16_384)
        var keys: [UInt64] = []
        var lastPosition: [Int32] = []
        var counts: [Int] = []
        var sightings: [UInt32] = []
        var postStarts: [Int] = []
        postStarts.reserveCapacity(documents.count + 1)
        var boards: [Int: [Int]] = [:]
        let fields = SearchField.allCases
        for (position, document) in documents.enumerated() {
            postStarts.append(sightings.count)
            boards[document.boardId, default: []].append(position)
            let current = Int32(position)
            for field in fields {
                TextNormalizer.normalizedUTF8(field.text(of: document)).withUnsafeBufferPointer { normalized in
                    SearchTokenizer.forEachGramKey(ofNormalizedUTF8: normalized) { key in
                        let (slot, isNew) = slots.slot(for: key)
                        if isNew {
                            // Three of each, one per field, appended one by one: an array literal here is a static
                            // object whose every use goes through `swift_once`.
                            keys.append(key)
                            for _ in 0..<3 {
                                lastPosition.append(-1)
                                counts.append(0)
                            }
                        }
                        let list = slot * 3 + field.rawValue
                        if lastPosition[list] != current {
                            lastPosition[list] = current
                            counts[list] += 1
                            sightings.append(UInt32(list))
                        }
                    }
                }
            }
        }
        postStarts.append(sightings.count)
        lastPosition = []
        // Each list's end in the flat array (its start is the previous list's end), then the positions put in place;
        // 32-bit, and the sightings let go before the entries are made (a 1M build encodes several blocks at once).
        var ends = [Int32](repeating: 0, count: counts.count)
        var total = 0
        for list in counts.indices {
            total += counts[list]
            ends[list] = Int32(total)
        }
        var next = zip(ends, counts).map { Int($0) - $1 }
        counts = []
        var positions = [Int32](repeating: 0, count: total)
        for position in documents.indices {
            for sighting in postStarts[position]..<postStarts[position + 1] {
                let list = Int(sightings[sighting])
                positions[next[list]] = Int32(position)
                next[list] += 1
            }
        }
        (sightings, postStarts, next) = ([], [], [])
        var entries: [(token: String, lists: String)] = keys.indices.map { slot in
            var encoded = (slot * 3..<slot * 3 + 3).map { list in
                PostingCodec.encode(positions[(list == 0 ? 0 : Int(ends[list - 1]))..<Int(ends[list])])
            }
            while encoded.last?.isEmpty == true { encoded.removeLast() }
            return (SearchTokenizer.token(for: keys[slot]), encoded.joined(separator: SearchIndexFormat.listSeparator))
        }
        for (boardId, positions) in boards {
            entries.append((SearchTokenizer.boardToken(boardId), PostingCodec.encode(positions)))
        }
        return Bytes.sortedByUTF8(entries, key: \.token)
    }

    /// The metadata record of a post, in ``SearchRecordLayout/Meta`` order (`created` in Unix seconds, `isReply` 0 or 1,
    /// `contentsCount` the pieces of its contents, at least 1).
    func metaRecord(_ document: SearchDocument, pieces: Int) -> SearchJSON {
        SearchRecordLayout.record { field in
            switch field {
            case .postId: .int(document.postId)
            case .boardId: .int(document.boardId)
            case .postType: .string(document.postType.rawValue)
            case .created: .int(Int(document.createdDateTime.timeIntervalSince1970.rounded(.down)))
            case .views: .int(document.viewCount)
            case .comments: .int(document.commentsCount)
            case .attachments: .int(document.attachmentsCount)
            case .isReply: .int(document.hasParent ? 1 : 0)
            case .title: .string(document.title)
            case .writer: .string(document.writer)
            case .contentsCount: .int(pieces)
            }
        }
    }

    /// The number of groups of a block of `count` posts: runs of ``SearchIndexConfiguration/metaShardSize`` consecutive
    /// posts, each with its metadata shard and its own contents shards.
    package func groupCount(of count: Int) -> Int { (count + configuration.metaShardSize - 1) / configuration.metaShardSize }

    /// The positions of group `group` in a block of `count` posts.
    package func positions(ofGroup group: Int, count: Int) -> Range<Int> {
        (group * configuration.metaShardSize)..<min(count, (group + 1) * configuration.metaShardSize)
    }

    /// The pieces of a post's raw contents, in order, each with whether its cut is clean: the whole contents when it
    /// fits ``SearchIndexConfiguration/contentsShardTargetBytes``, else pieces of about that (``pieces(of:target:limit:)``),
    /// which a reader reads one after another until what it asks is settled. One empty piece for a post without
    /// contents: every post has a head (its record and first piece), so that a row reads one file.
    ///
    /// The first piece goes in the post's *head*, `c<group>-<index>.js`, with the post's metadata record; the others in
    /// `c<group>-<index>-<k>.js` (``SearchIndexFormat/contentsShardId(blockId:group:index:piece:)``). A post whose contents
    /// changed moves no other post's files.
    func contentsPieces(of document: SearchDocument) -> [(text: String, clean: Bool)] {
        Self.pieces(of: document.contents, target: configuration.contentsShardTargetBytes, limit: configuration.maximumFileBytes - 256)
            .map { ($0.text, $0.clean) }
    }

    /// Cuts `text` into pieces of at least `target` escaped bytes each (the last may be shorter), each cut at the
    /// first place after the target between two code points that no normalisation or grapheme rule joins
    /// (``isCleanCut(between:and:)``), so that a reader may decide on the text before a cut: the pieces normalise and
    /// cluster one by one as the whole does. Where no such place comes before `limit` bytes the piece is cut there
    /// anyway, and is not `clean`.
    static func pieces(of text: String, target: Int, limit: Int) -> [(text: String, bytes: Int, clean: Bool)] {
        let whole = literalCost(of: text)
        if whole <= target { return [(text, whole, true)] }
        var text = text
        // On the UTF-8 bytes, a code point at a time: cuts fall between code points, so each piece is valid UTF-8
        // (appending code points to a String one by one was a tenth of encoding a block).
        return text.withUTF8 { bytes in
            var pieces: [(text: String, bytes: Int, clean: Bool)] = []
            var start = 0
            var cost = 0
            var previous: UInt32? = nil
            var index = 0
            while index < bytes.count {
                let (value, length) = Bytes.scalar(in: bytes, at: index)
                let scalarCost = length == 1 ? Int(asciiCosts[Int(value)]) : Unicode.Scalar(value).map(literalCost(of:)) ?? length
                if let last = previous, cost >= target, isStandalone(last) && isStandalone(value) {
                    pieces.append((String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self), cost, true))
                    start = index
                    cost = 0
                } else if cost + scalarCost > limit {
                    pieces.append((String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self), cost, false))
                    start = index
                    cost = 0
                }
                cost += scalarCost
                previous = value
                index += length
            }
            pieces.append((String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]), as: UTF8.self), cost, true))
            return pieces
        }
    }

    /// Whether text may be cut between `before` and `after`: both are printable ASCII, tab, line feed, a precomposed
    /// Hangul syllable, a CJK unified ideograph, hiragana or katakana. None of these is a combining mark, a joiner, a
    /// prepended mark, a conjoining jamo, a regional indicator or a carriage return, and none composes with or folds
    /// into its neighbour, so a grapheme cluster ends between them and normalising the two sides apart gives the
    /// normal form of the whole.
    static func isCleanCut(between before: Unicode.Scalar, and after: Unicode.Scalar) -> Bool {
        isStandalone(before) && isStandalone(after)
    }

    private static func isStandalone(_ scalar: Unicode.Scalar) -> Bool { isStandalone(scalar.value) }

    private static func isStandalone(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x20...0x7E, 0xAC00...0xD7A3, 0x4E00...0x9FFF, 0x3041...0x3096, 0x30A1...0x30FA: true
        default: false
        }
    }

    /// The bytes `text` takes inside a JSON string inside a single-quoted JavaScript literal, summed over its UTF-8.
    static func literalCost(of text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var cost = 0
            for (index, byte) in bytes.enumerated() {
                cost += Int(asciiCosts[Int(byte)])
                // U+2028 and U+2029 (E2 80 A8 and E2 80 A9) are escaped as \uXXXX: 6 bytes plus 1, not 3.
                if byte == 0xA8 || byte == 0xA9, index >= 2, bytes[index - 1] == 0x80, bytes[index - 2] == 0xE2 { cost += 4 }
            }
            return cost
        }
    }

    /// The cost of each byte on its own: ``literalCost(of:)-(Unicode.Scalar)`` for ASCII, 1 for the bytes of longer
    /// sequences (a table: this runs over every byte of every post's contents).
    private static let asciiCosts: [UInt8] = (0..<256).map { byte in byte < 0x80 ? UInt8(literalCost(of: Unicode.Scalar(UInt8(byte)))) : 1 }

    /// The bytes one code point takes inside a JSON string inside a single-quoted JavaScript literal.
    static func literalCost(of scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x22, 0x0A, 0x0D, 0x09: return 3
        case 0x5C: return 4
        case 0x27: return 2
        case 0x00..<0x20, 0x7F, 0x2028, 0x2029: return 7
        default: return scalar.utf8.count
        }
    }
}
