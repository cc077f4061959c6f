import Foundation

/// Step 1 of the search phase: cuts the archive into index blocks as it streams, keeps the blocks the previous
/// build made from the same posts, and encodes the others on every core.
struct SearchBlockPass {
    let configuration: SearchIndexConfiguration
    /// Board id → name, for the boards being built (posts of other boards are not indexed).
    let names: [Int: String]
    let anonymousLabel: String
    let digestBase: BuildDigest
    let output: SiteOutput

    /// The blocks, in build order (notice blocks oldest first, then the others oldest first).
    private(set) var blocks: [SearchPhase.Block] = []
    /// How many blocks were kept.
    private(set) var keptCount = 0
    /// The tokens of the blocks encoded in this build.
    var directory = SearchDirectory()
    /// The term counts of the blocks encoded in this build (kept blocks' counts are read only when needed).
    private(set) var frequency: [String: Int] = [:]
    /// Boards with at least one indexed post.
    private(set) var boardsWithPosts: Set<Int> = []
    /// The posts a redaction removed from the boards being built, as documents of the text the store still holds:
    /// never encoded into the index, only matched against the keywords (see ``RemovedPlaces``).
    private(set) var removedDocuments: [SearchDocument] = []

    /// How many of the encoded blocks were patched from the previous build's files (``SearchBlockPatch``).
    private(set) var patchedCount = 0

    private var pending: [(id: String, digest: BuildDigest, posts: [ListingKey], previous: SearchBlockRecord?)] = []

    init(configuration: SearchIndexConfiguration, names: [Int: String], anonymousLabel: String, digestBase: BuildDigest, output: SiteOutput) {
        self.configuration = configuration
        self.names = names
        self.anonymousLabel = anonymousLabel
        self.digestBase = digestBase
        self.output = output
    }

    /// Streams the posts' keys from `cursor` (notices, then the others, each oldest first) into blocks.
    mutating func run(_ cursor: ListingKeyCursor) throws {
        var current: [ListingKey] = []
        // Places in the current block: its posts plus the posts a redaction removed, which keep their places so that
        // no block after them changes (a removal re-encodes only the block that held the post).
        var places = 0
        var group = true
        var number = 0
        var removedIds: [Int] = []
        while let key = try cursor.next() {
            guard names[key.boardId] != nil else { continue }
            if key.isNotice != group {
                if !current.isEmpty { try add(current, id: "t\(number)", lookup: cursor.lookup) }
                current = []
                places = 0
                group = key.isNotice
                number = 0
            }
            if key.removedAt == nil {
                boardsWithPosts.insert(key.boardId)
                current.append(key)
            } else {
                removedIds.append(key.postId)
            }
            places += 1
            if places == configuration.blockSize {
                if !current.isEmpty { try add(current, id: (group ? "t" : "n") + "\(number)", lookup: cursor.lookup) }
                current = []
                places = 0
                number += 1
            }
        }
        if !current.isEmpty { try add(current, id: (group ? "t" : "n") + "\(number)", lookup: cursor.lookup) }
        try encodePending(lookup: cursor.lookup)
        try readRemoved(ids: removedIds, lookup: cursor.lookup)
    }

    /// Keeps every block of `ids` (build order) as the previous build recorded it, without streaming the archive: the
    /// shortcut for a store whose posts and boards are what they were. False, with nothing kept, when a record or
    /// file is missing; the caller then streams as usual.
    mutating func keepAll(ids: [String], removedIds: [Int], lookup: ListingLookup) throws -> Bool {
        // The records are read and parsed on every core (about a fifth of a rebuild with nothing changed at 100k).
        let output = self.output
        let loaded = try concurrentMap(ids.count) { index -> (record: SearchBlockRecord, digest: BuildDigest)? in
            guard let digest = output.previousDigest(of: SearchBlockRecord.termsPath(of: ids[index])),
                let record = Self.previousRecord(of: ids[index], in: output), Self.hasPreviousFiles(record, in: output)
            else { return nil }
            return (record, digest)
        }
        let records = loaded.compactMap { $0 }
        guard records.count == ids.count else { return false }
        for (record, digest) in records {
            try keep(record, digest: digest)
            boardsWithPosts.formUnion(record.boards.filter { names[$0] != nil })
        }
        try readRemoved(ids: removedIds, lookup: lookup)
        return true
    }

    /// The previous build's record of block `id`, or nil.
    private static func previousRecord(of id: String, in output: SiteOutput) -> SearchBlockRecord? {
        output.previousContents(of: SearchBlockRecord.recordPath(of: id)).flatMap { SearchBlockRecord(id: id, data: $0) }
    }

    /// Whether every index file of `record` is in the previous build's manifest.
    private static func hasPreviousFiles(_ record: SearchBlockRecord, in output: SiteOutput) -> Bool {
        record.files.allSatisfy { output.previousDigest(of: $0) != nil }
    }

    /// Keeps the block of `record` (its index files and terms) as the previous build made it.
    private mutating func keep(_ record: SearchBlockRecord, digest: BuildDigest) throws {
        for path in record.files { _ = try output.keepPrevious(path) }
        _ = try output.keepPrevious(SearchBlockRecord.termsPath(of: record.id))
        blocks.append(SearchPhase.Block(id: record.id, digest: digest, record: record, kept: true))
        keptCount += 1
    }

    /// The removed posts of the boards being built, as documents of the text the store still holds.
    private mutating func readRemoved(ids: [Int], lookup: ListingLookup) throws {
        let removed = try lookup.removedPosts(ids: ids)
        removedDocuments = ids.compactMap { removed[$0] }.filter { names[$0.boardId] != nil }.map {
            SearchDocument(post: $0, boardName: names[$0.boardId] ?? "", anonymousLabel: anonymousLabel)
        }
    }

    /// The digest of a block: its id and, per post, id, content hash and board name.
    private func digest(of posts: [ListingKey], id: String) -> BuildDigest {
        var digest = digestBase
        digest.add(id)
        for key in posts {
            digest.add(key.postId)
            digest.add(key.contentHash)
            digest.add(names[key.boardId] ?? "")
        }
        return digest
    }

    /// Keeps the block when the previous build made it from the same posts, else queues it for encoding.
    private mutating func add(_ posts: [ListingKey], id: String, lookup: ListingLookup) throws {
        let digest = digest(of: posts, id: id)
        let previous = Self.previousRecord(of: id, in: output)
        if output.previousDigest(of: SearchBlockRecord.termsPath(of: id)) == digest, let previous, previous.postIds == posts.map(\.postId),
            Self.hasPreviousFiles(previous, in: output)
        {
            try keep(previous, digest: digest)
            return
        }
        pending.append((id, digest, posts, previous))
        if pending.count >= max(2, ProcessInfo.processInfo.activeProcessorCount) { try encodePending(lookup: lookup) }
    }

    /// Reads the bodies of the queued blocks and encodes them in parallel.
    private mutating func encodePending(lookup: ListingLookup) throws {
        guard !pending.isEmpty else { return }
        let posts = try lookup.postsWithBodies(ids: pending.flatMap { $0.posts.map(\.postId) })
        let work = try pending.map { block in
            try block.posts.map { key -> SearchDocument in
                guard let post = posts[key.postId]?.post else {
                    throw SearchIndexError(path: SearchBlockRecord.termsPath(of: block.id), reason: .postUnreadable(key.postId))
                }
                return SearchDocument(post: post, boardName: names[post.boardId] ?? "", anonymousLabel: anonymousLabel)
            }
        }
        let configuration = self.configuration
        let digestBase = self.digestBase
        let queued = pending.map { block in
            (
                id: block.id, digest: block.digest,
                patch: SearchBlockPatch(
                    postIds: block.posts.map(\.postId), boards: block.posts.map(\.boardId),
                    hashes: block.posts.map { ContentHash.key($0.contentHash.utf8) }, previous: block.previous, base: digestBase)
            )
        }
        let output = self.output
        // Each block is encoded and its files written on one core: the writes (about 500 files a block) ran on one
        // thread after both blocks were encoded, leaving the other core idle.
        let results = try concurrentMap(work.count) { index in
            let block = queued[index]
            // A block with a few changed posts is patched from the previous build's files; the others are encoded whole.
            let patched = block.patch?.patched(documents: work[index], configuration: configuration, output: output)
            let encoded = try SearchBlockEncoder(configuration: configuration).encode(work[index], blockId: block.id, entries: patched?.entries)
            let terms = patched?.terms ?? KeywordSelector.frequency(of: work[index])
            let paths = encoded.files.keys.sorted()
            for path in paths {
                guard let data = encoded.files[path] else { continue }
                if data.count > configuration.maximumFileBytes {
                    throw SearchIndexError(path: path, reason: .fileTooLarge(bytes: data.count, limit: configuration.maximumFileBytes))
                }
                var fileDigest = block.digest
                fileDigest.add(path)
                if try output.needsRendering(path, digest: fileDigest) { try output.write(data, to: path) }
            }
            let termsPath = SearchBlockRecord.termsPath(of: block.id)
            if try output.needsRendering(termsPath, digest: block.digest) {
                try output.write(SearchBlockRecord.encodedTerms(terms), to: termsPath)
            }
            return (tokens: encoded.tokens, postingBuckets: encoded.postingBuckets, files: paths, terms: terms, patched: patched != nil)
        }
        for (index, block) in pending.enumerated() {
            let encoded = results[index]
            if encoded.patched { patchedCount += 1 }
            directory.add(encoded.tokens, block: SearchIndexBuilder.blockNumber(block.id))
            for (term, count) in encoded.terms { frequency[term, default: 0] += count }
            let record = SearchBlockRecord(
                id: block.id, postingBuckets: encoded.postingBuckets, files: encoded.files, postIds: block.posts.map(\.postId),
                created: block.posts.map { Int($0.created.timeIntervalSince1970.rounded(.down)) },
                hashes: block.posts.map { ContentHash.key($0.contentHash.utf8) }, boards: block.posts.map(\.boardId), base: digestBase)
            let carried = CarriedMatches(record: record, documents: work[index], previous: block.previous)
            blocks.append(SearchPhase.Block(id: block.id, digest: block.digest, record: record, kept: false, carried: carried))
        }
        pending.removeAll()
    }
}
