import BoardArchiveModel
import BoardArchiveRender
import BoardArchiveSearch
import BoardArchiveStore
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

    /// Blocks being encoded on other cores, oldest first (``start(_:lookup:)``).
    private var inFlight: [InFlight] = []
    /// How many blocks are encoded at once: one per core, while the stream reads the next block's bodies.
    private static let maximumInFlight = max(2, ProcessInfo.processInfo.activeProcessorCount)

    init(configuration: SearchIndexConfiguration, names: [Int: String], anonymousLabel: String, digestBase: BuildDigest, output: SiteOutput) {
        self.configuration = configuration
        self.names = names
        self.anonymousLabel = anonymousLabel
        self.digestBase = digestBase
        self.output = output
    }

    /// Streams the posts' keys from `store` (notices, then the others, each oldest first) into blocks.
    mutating func run(_ store: any ArchiveSnapshot) throws {
        do { try stream(store) } catch {
            // No block is left writing into the staging folder once the build has failed.
            for job in inFlight { job.group.wait() }
            inFlight.removeAll()
            throw error
        }
    }

    /// ``run(_:)``'s stream.
    private mutating func stream(_ store: any ArchiveSnapshot) throws {
        let keys = store.keysChronologically()
        var current: [ListingKey] = []
        // Places in the current block: its posts plus the posts a redaction removed, which keep their places so that
        // no block after them changes (a removal re-encodes only the block that held the post).
        var places = 0
        var group = true
        var number = 0
        var removedIds: [Int] = []
        while let key = try keys.next() {
            guard names[key.boardId] != nil else { continue }
            if key.isNotice != group {
                if !current.isEmpty { try add(current, id: SearchIndexFormat.blockId(notice: true, index: number), lookup: store) }
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
                if !current.isEmpty { try add(current, id: SearchIndexFormat.blockId(notice: group, index: number), lookup: store) }
                current = []
                places = 0
                number += 1
            }
        }
        if !current.isEmpty { try add(current, id: SearchIndexFormat.blockId(notice: group, index: number), lookup: store) }
        while !inFlight.isEmpty { try finishOldest(lookup: store) }
        try readRemoved(ids: removedIds, lookup: store)
    }

    /// Keeps every block of `ids` (build order) as the previous build recorded it, without streaming the archive: the
    /// shortcut for a store whose posts and boards are what they were. False, with nothing kept, when a record or
    /// file is missing; the caller then streams as usual.
    mutating func keepAll(ids: [String], removedIds: [Int], lookup: any ArchiveSnapshot) throws -> Bool {
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
            guard try keep(record, digest: digest) else { throw missingFile(of: record) }
            boardsWithPosts.formUnion(record.boards.filter { names[$0] != nil })
        }
        try readRemoved(ids: removedIds, lookup: lookup)
        return true
    }

    /// The previous build's records of the blocks to come, read ahead on every core (``prefetchRecords(ids:)``).
    private var prefetched: [String: SearchBlockRecord] = [:]

    /// Reads the previous build's records of blocks `ids` on every core, for the stream to find them ready: read one by
    /// one as the blocks came, they were a tenth of a 10-edit rebuild's block step.
    mutating func prefetchRecords(ids: [String]) throws {
        let output = self.output
        let records = try concurrentMap(ids.count) { Self.previousRecord(of: ids[$0], in: output) }
        for record in records.compactMap({ $0 }) { prefetched[record.id] = record }
    }

    /// The previous build's record of block `id`, or nil.
    private static func previousRecord(of id: String, in output: SiteOutput) -> SearchBlockRecord? {
        output.previousContents(of: SearchBlockRecord.recordPath(of: id)).flatMap { SearchBlockRecord(id: id, data: $0) }
    }

    /// Whether every index file of `record` is in the previous build's manifest.
    private static func hasPreviousFiles(_ record: SearchBlockRecord, in output: SiteOutput) -> Bool {
        record.files.allSatisfy { output.previousDigest(of: $0) != nil }
    }

    /// Keeps the block of `record` (its index files and terms) as the previous build made it; false, with nothing
    /// kept, when the previous build's manifest lacks one of its files.
    private mutating func keep(_ record: SearchBlockRecord, digest: BuildDigest) throws -> Bool {
        guard try output.keepPrevious(all: record.files, kind: .search) else { return false }
        _ = try output.keepPrevious(SearchBlockRecord.termsPath(of: record.id))
        blocks.append(SearchPhase.Block(id: record.id, digest: digest, record: record, kept: true))
        keptCount += 1
        return true
    }

    /// The error of a record whose file was in the previous manifest when checked and is not when kept: cannot happen,
    /// as the manifest does not change during a build.
    private func missingFile(of record: SearchBlockRecord) -> BuildError {
        BuildError(
            phase: .search, reason: .underlying("a file of search block \(record.id) left the previous manifest during the build"),
            location: SearchBlockRecord.recordPath(of: record.id))
    }

    /// The removed posts of the boards being built, as documents of the text the store still holds.
    private mutating func readRemoved(ids: [Int], lookup: any ArchiveSnapshot) throws {
        let removed = try lookup.removedPosts(ids: ids)
        removedDocuments = ids.compactMap { removed[$0] }.filter { names[$0.boardId] != nil }.map {
            SearchDocument(post: $0, boardName: names[$0.boardId] ?? "", anonymousLabel: anonymousLabel)
        }
    }

    /// The digest of a block: its id and, per post, id, content hash and board name.
    private func digest(of posts: [ListingKey], id: String) -> BuildDigest {
        SearchBlockInput(
            id: id, postIds: posts.map(\.postId), contentHashes: posts.map(\.contentHash), boardNames: posts.map { names[$0.boardId] ?? "" }
        ).digest(base: digestBase)
    }

    /// Keeps the block when the previous build made it from the same posts, else queues it for encoding.
    private mutating func add(_ posts: [ListingKey], id: String, lookup: any ArchiveSnapshot) throws {
        let digest = digest(of: posts, id: id)
        let previous = prefetched.removeValue(forKey: id) ?? Self.previousRecord(of: id, in: output)
        if output.previousDigest(of: SearchBlockRecord.termsPath(of: id)) == digest, let previous, previous.postIds == posts.map(\.postId),
            try keep(previous, digest: digest)
        {
            return
        }
        try start((id, digest, posts, previous), lookup: lookup)
    }

    /// A block queued for encoding.
    private typealias Queued = (id: String, digest: BuildDigest, posts: [ListingKey], previous: SearchBlockRecord?)

    /// What encoding a queued block needs: whether it is patched, which of its groups keep their files, the digests of
    /// its groups' files, and the positions whose text must be read.
    private struct Plan {
        var patch: SearchBlockPatch?
        var keptGroups: Set<Int> = []
        var groupDigests: [BuildDigest]
        var needed: [Int]
    }

    /// Plans the encoding of a queued block. A patched block keeps every group whose posts are unchanged (the previous
    /// build's metadata and contents files of the group, made from the same posts), so only the changed groups' posts and
    /// the changed posts are read; a block encoded whole reads every post.
    private func plan(_ block: Queued, patching: Bool) -> Plan {
        let encoder = SearchBlockEncoder(configuration: configuration)
        let groups = 0..<encoder.groupCount(of: block.posts.count)
        let groupDigests = groups.map { group in
            digest(of: Array(block.posts[encoder.positions(ofGroup: group, count: block.posts.count)]), id: "\(block.id)/g\(group)")
        }
        let patch =
            patching
            ? SearchBlockPatch(
                postIds: block.posts.map(\.postId), boards: block.posts.map(\.boardId),
                hashes: block.posts.map { ContentHash.key($0.contentHash.utf8) }, previous: block.previous, base: digestBase) : nil
        guard let patch else { return Plan(groupDigests: groupDigests, needed: Array(block.posts.indices)) }
        let kept = Set(
            groups.filter { group in
                Self.groupFiles(of: patch.previous, group: group).allSatisfy {
                    output.previousDigest(of: $0) == Self.fileDigest(groupDigests[group], path: $0)
                }
            })
        let changed = Set(patch.changed)
        let needed = block.posts.indices.filter { changed.contains($0) || !kept.contains($0 / configuration.metaShardSize) }
        return Plan(patch: patch, keptGroups: kept, groupDigests: groupDigests, needed: needed)
    }

    /// The metadata and contents files of group `group` in the block of `record`.
    private static func groupFiles(of record: SearchBlockRecord, group: Int) -> [String] {
        let contents = "search/" + SearchRecordLayout.contentsGroupPrefix(blockId: record.id, group: group)
        let meta = "search/" + SearchRecordLayout.metaShardId(blockId: record.id, group: group) + ".js"
        return [meta] + record.files.filter { $0.hasPrefix(contents) }
    }

    /// The digest of an index file made from inputs of digest `digest` (its block's, or for metadata and contents shards
    /// its group's).
    private static func fileDigest(_ digest: BuildDigest, path: String) -> BuildDigest {
        IndexFileInput(path: path).digest(base: digest)
    }

    /// What encoding one block gave.
    private struct Encoded {
        var tokens: [String]
        var postingBuckets: Int
        var files: [String]
        var terms: [String: Int]
        var patched: Bool
    }

    /// A block handed to another core: what it is encoded from, and (once its group is done) what encoding it gave.
    private final class InFlight: @unchecked Sendable {
        let block: Queued
        let plan: Plan
        let documents: [SearchDocument]
        let group = DispatchGroup()
        /// Set on the encoding core before the group leaves; read after waiting on the group.
        var result: Result<Encoded?, any Error>?

        init(block: Queued, plan: Plan, documents: [SearchDocument]) {
            (self.block, self.plan, self.documents) = (block, plan, documents)
        }
    }

    /// Reads the bodies a block's encoding needs and starts encoding it on another core, after finishing the oldest
    /// block when every core has one. The stream reads the next block's keys and bodies while the cores encode: read
    /// and encoded in turns, a pair of blocks at a time, one core waited on the store for about a tenth of the step.
    private mutating func start(_ block: Queued, lookup: any ArchiveSnapshot) throws {
        let plan = plan(block, patching: true)
        let job = InFlight(block: block, plan: plan, documents: try documents(for: [block], plans: [plan], lookup: lookup)[0])
        while inFlight.count >= Self.maximumInFlight { try finishOldest(lookup: lookup) }
        let (configuration, output) = (self.configuration, self.output)
        runOnNewThread(group: job.group) {
            job.result = Result {
                try Self.encode(job.block, plan: job.plan, documents: job.documents, configuration: configuration, output: output)
            }
        }
        inFlight.append(job)
    }

    /// Waits for the oldest block in flight and records it (blocks are recorded in stream order).
    private mutating func finishOldest(lookup: any ArchiveSnapshot) throws {
        let job = inFlight.removeFirst()
        job.group.wait()
        guard let result = job.result else { preconditionFailure("block \(job.block.id) did not run") }
        var documents = job.documents
        var encoded = try result.get()
        if encoded == nil {
            // A patch that could not read the previous build's files: the block is encoded whole.
            let plan = plan(job.block, patching: false)
            documents = try self.documents(for: [job.block], plans: [plan], lookup: lookup)[0]
            encoded = try Self.encode(job.block, plan: plan, documents: documents, configuration: configuration, output: output)
        }
        guard let encoded else { return }
        let block = job.block
        if encoded.patched { patchedCount += 1 }
        directory.add(encoded.tokens, block: SearchIndexBuilder.blockNumber(block.id))
        for (term, count) in encoded.terms { frequency[term, default: 0] += count }
        let record = SearchBlockRecord(
            id: block.id, postingBuckets: encoded.postingBuckets, files: encoded.files, postIds: block.posts.map(\.postId),
            created: block.posts.map { Int($0.created.timeIntervalSince1970.rounded(.down)) },
            hashes: block.posts.map { ContentHash.key($0.contentHash.utf8) }, boards: block.posts.map(\.boardId), base: digestBase)
        let carried = CarriedMatches(record: record, documents: documents, previous: block.previous)
        blocks.append(SearchPhase.Block(id: block.id, digest: block.digest, record: record, kept: false, carried: carried))
    }

    /// The documents of the queued blocks, by position: read from the store where the plan needs the text, else made
    /// from the key alone (id, board and date; no text: the post's group keeps its files and its grams are unchanged).
    private func documents(for blocks: [Queued], plans: [Plan], lookup: any ArchiveSnapshot) throws -> [[SearchDocument]] {
        let posts = try lookup.postsWithBodies(ids: zip(blocks, plans).flatMap { block, plan in plan.needed.map { block.posts[$0].postId } })
        return try zip(blocks, plans).map { block, plan in
            let needed = Set(plan.needed)
            return try block.posts.enumerated().map { position, key -> SearchDocument in
                if let post = posts[key.postId]?.post {
                    return SearchDocument(post: post, boardName: names[post.boardId] ?? "", anonymousLabel: anonymousLabel)
                }
                guard !needed.contains(position) else {
                    throw SearchIndexError(path: SearchBlockRecord.termsPath(of: block.id), reason: .postUnreadable(key.postId))
                }
                return SearchDocument(
                    postId: key.postId, boardId: key.boardId, boardName: names[key.boardId] ?? "", title: "", writer: "", contents: "",
                    createdDateTime: key.created)
            }
        }
    }

    /// Encodes one block as `plan` says and writes its changed files; nil when its patch could not read the previous
    /// build's files (the caller then encodes it whole).
    private static func encode(
        _ block: Queued, plan: Plan, documents: [SearchDocument], configuration: SearchIndexConfiguration, output: SiteOutput
    ) throws -> Encoded? {
        let patched = plan.patch?.patched(documents: documents, configuration: configuration, output: output)
        if plan.patch != nil && patched == nil { return nil }
        let encoder = SearchBlockEncoder(configuration: configuration)
        let encoded = try encoder.encode(documents, blockId: block.id, entries: patched?.entries, keptGroups: plan.keptGroups)
        let terms = patched?.terms ?? KeywordSelector.frequency(of: documents)
        var files: [String] = []
        for group in plan.keptGroups.sorted() {
            guard let previous = plan.patch?.previous else { break }
            for path in groupFiles(of: previous, group: group) {
                // Made from the same posts as the previous build's file: kept, neither made nor read.
                guard try !output.needsRendering(path, digest: fileDigest(plan.groupDigests[group], path: path)) else {
                    throw SearchIndexError(path: path, reason: .malformedFile(detail: "its previous digest changed while the build ran"))
                }
                files.append(path)
            }
        }
        for (path, data) in encoded.files.sorted(by: { $0.key < $1.key }) {
            if data.count > configuration.maximumFileBytes {
                throw SearchIndexError(path: path, reason: .fileTooLarge(bytes: data.count, limit: configuration.maximumFileBytes))
            }
            let digest = encoded.fileGroups[path].map { plan.groupDigests[$0] } ?? block.digest
            if try output.needsRendering(path, digest: fileDigest(digest, path: path)) { try output.write(data, to: path) }
            files.append(path)
        }
        let termsPath = SearchBlockRecord.termsPath(of: block.id)
        if try output.needsRendering(termsPath, digest: block.digest) {
            try output.write(SearchBlockRecord.encodedTerms(terms), to: termsPath)
        }
        return Encoded(tokens: encoded.tokens, postingBuckets: encoded.postingBuckets, files: files.sorted(), terms: terms, patched: patched != nil)
    }
}
