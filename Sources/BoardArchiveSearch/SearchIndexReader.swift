import BoardArchiveModel
import Foundation

/// Answers queries from the index files exactly as `search.js` does, counting the files a browser would load.
///
/// Tests use it to prove the index equals the brute-force oracle; the benchmark uses it to measure the bytes a
/// first and a later query load. It keeps every file it has loaded, like the search page does between queries.
public final class SearchIndexReader {
    /// One block as the manifest lists it.
    struct Block {
        var id: String
        var count: Int
        var buckets: Int
    }

    /// A post found by a query: its block, its position there, and whether its contents may hold a query word.
    public struct Hit: Equatable, Sendable {
        public var blockId: String
        public var position: Int
        var blockIndex: Int
        var contentsCandidate: Bool
    }

    /// The answer to one query.
    public struct Outcome: Sendable {
        /// The posts found, in listing order, at most `limit` of them.
        public var hits: [Hit]
        /// Whether the search stopped at `limit` before looking at every candidate (there may be more hits).
        public var stoppedEarly: Bool
        /// Whether the search stopped because it had loaded `byteBudget` bytes; older posts are not searched yet.
        public var paused: Bool
        /// The index files this query loaded that earlier queries had not, in load order.
        public var loadedPaths: [String]
        /// Their total size in bytes.
        public var loadedBytes: Int
    }

    /// The byte budget of one run of a search in the browser (``SearchRecordLayout/byteBudget``).
    public static let browserByteBudget = SearchRecordLayout.byteBudget

    let blocks: [Block]
    let metaShardSize: Int
    let directoryBuckets: Int
    /// The boards as the manifest lists them: id and name.
    public let boards: [(id: Int, name: String)]
    /// The keyword pages as the manifest lists them: normalised keyword, path, count.
    public let keywords: [(keyword: String, path: String, count: Int)]
    private let load: (String) -> Data?
    private var cache: [String: Any] = [:]
    /// Paths found missing (an empty bucket has no file); like loaded ones, they cost nothing again.
    private var missing: Set<String> = []
    private var newlyLoaded: [String] = []
    private var newlyLoadedBytes = 0
    private var counting = true
    private var normalizedTexts: [String: String] = [:]
    /// What has been read of each post's contents, by block and position (see ``ContentsProgress``).
    private var contentsRead: [Int: ContentsProgress] = [:]
    private var decodedLists: [String: [[Int]]] = [:]
    /// Posting shards as their strings, by path.
    private var postingEntries: [String: [String]] = [:]

    /// Reads the manifest through `load`, which returns a file's bytes by its path relative to the site root.
    public init(load: @escaping (String) -> Data?) throws {
        self.load = load
        let manifest = try Self.parse(path: SearchIndexBuilder.manifestPath, load: load)
        guard let object = manifest.json as? [String: Any], let blockList = object["blocks"] as? [[Any]],
            let metaShardSize = object["m"] as? Int, let directoryBuckets = object["d"] as? Int
        else { throw SearchIndexError(path: SearchIndexBuilder.manifestPath, reason: .malformedFile(detail: "no blocks")) }
        blocks = blockList.compactMap { entry in
            guard entry.count == 3, let id = entry[0] as? String, let count = entry[1] as? Int, let buckets = entry[2] as? Int else { return nil }
            return Block(id: id, count: count, buckets: buckets)
        }
        self.metaShardSize = metaShardSize
        self.directoryBuckets = directoryBuckets
        boards = ((object["boards"] as? [[Any]]) ?? []).compactMap { entry in
            guard entry.count == 2, let id = entry[0] as? Int, let name = entry[1] as? String else { return nil }
            return (id, name)
        }
        keywords = ((object["keywords"] as? [[Any]]) ?? []).compactMap { entry in
            guard entry.count == 3, let keyword = entry[0] as? String, let path = entry[1] as? String, let count = entry[2] as? Int else {
                return nil
            }
            return (keyword, path, count)
        }
        cache[SearchIndexBuilder.manifestPath] = manifest.json
        newlyLoaded = [SearchIndexBuilder.manifestPath]
        newlyLoadedBytes = manifest.bytes
    }

    /// Reads the index from an in-memory file map such as `makeSearchIndex(for:)` returns.
    public convenience init(files: [String: Data]) throws {
        try self.init(load: { files[$0] })
    }

    /// Finds the posts matching every word of `query` in `target` (and on board `boardId`), in listing order.
    ///
    /// With a `limit` it stops after that many hits, like the search page asking for one page plus one. Each of
    /// the first `displayed` hits has what the page shows loaded as soon as it is found (metadata, and contents
    /// for a snippet), as `search.js` does with all but the last hit it asks for.
    ///
    /// With a `byteBudget` it also pauses, as `search.js` does, before a step whose index files not loaded yet,
    /// at their kind's ``SearchRecordLayout/FileKind/estimate`` each, would take it past the budget (the manifest aside): reading the block
    /// directory, matching a block, verifying and showing a candidate. The first step always goes. A rare or
    /// absent word then costs the budget, not the whole index.
    public func search(
        _ query: String, target: SearchTarget, boardId: Int? = nil, limit: Int? = nil, displayed: Int = 0, byteBudget: Int? = nil
    ) throws -> Outcome {
        let plans = SearchQueryPlan.plans(for: query)
        var hits: [Hit] = []
        var stoppedEarly = false
        var paused = false
        let budgetStart = newlyLoadedBytes
        /// Whether loading index files expected to weigh `bytes` more would take this run past its budget.
        func overBudget(bytes: Int) -> Bool {
            guard let byteBudget else { return false }
            let spent = newlyLoadedBytes - budgetStart
            guard spent > 0, spent + bytes > byteBudget else { return false }
            paused = true
            return true
        }
        // Per token, its positions in the blocks that read it and how many blocks: a long word reads its rarest few
        // tokens once a block has been read (``readTokens(of:seen:)``).
        var seen: [String: (positions: Int, blocks: Int)] = [:]
        func readPlans() -> [SearchQueryPlan] {
            plans.map { plan in
                var read = plan
                read.tokens = Self.readTokens(of: plan, seen: seen)
                return read
            }
        }
        if !plans.isEmpty {
            // Blocks are searched one after another while they give hits (the words are common: nearly every block
            // holds them). Once the blocks read since the last hit hold a full block's posts (``fullBlock``), the
            // directory names the blocks that hold every token of every word, and the others are skipped.
            var allowed: Set<Int>? = nil
            var hitsBeforeBlock = 0
            var dryPosts = 0
            let fullBlock = fullBlock
            // Like search.js, stop as soon as `limit` hits are found, before loading anything more.
            blockLoop: for (blockIndex, block) in blocks.enumerated() {
                if let limit, hits.count >= limit {
                    stoppedEarly = true
                    break
                }
                let plans = readPlans()
                let tokens = plans.flatMap(\.tokens)
                if allowed == nil, dryPosts >= fullBlock {
                    if overBudget(bytes: unloaded(tokens.map(directoryPath(of:))) * SearchRecordLayout.FileKind.directory.estimate) { break }
                    for plan in plans {
                        for token in plan.tokens {
                            let blocks = Set(try directoryBlocks(of: token))
                            allowed = allowed.map { $0.intersection(blocks) } ?? blocks
                        }
                    }
                }
                if let allowed, !allowed.contains(SearchIndexBuilder.blockNumber(block.id)) { continue }
                let blockTokens = tokens + (boardId.map { [SearchTokenizer.boardToken($0)] } ?? [])
                let postingFiles = unloaded(blockTokens.map { postingPath(of: $0, blockIndex: blockIndex) })
                if overBudget(bytes: postingFiles * SearchRecordLayout.FileKind.postings.estimate) { break }
                let matcher = try BlockMatcher(reader: self, block: block, plans: plans, target: target, boardId: boardId)
                for (token, count) in matcher.tokenCounts {
                    let before = seen[token] ?? (0, 0)
                    seen[token] = (before.positions + count, before.blocks + 1)
                }
                hitsBeforeBlock = hits.count
                for position in matcher.candidates {
                    if let limit, hits.count >= limit {
                        stoppedEarly = true
                        break blockLoop
                    }
                    if overBudget(bytes: candidateBytes(blockIndex: blockIndex, position: position, matcher: matcher)) { break blockLoop }
                    guard let contentsCandidate = try matcher.matches(position) else { continue }
                    let hit = Hit(blockId: block.id, position: position, blockIndex: blockIndex, contentsCandidate: contentsCandidate)
                    hits.append(hit)
                    if hits.count <= displayed {
                        _ = try meta(blockIndex: blockIndex, position: position, viaHead: contentsCandidate)
                        if contentsCandidate { try readSnippetContents(blockIndex: blockIndex, position: position, words: plans.map(\.word)) }
                    }
                }
                dryPosts = hits.count == hitsBeforeBlock ? dryPosts + block.count : 0
            }
        }
        defer {
            newlyLoaded = []
            newlyLoadedBytes = 0
        }
        return Outcome(hits: hits, stoppedEarly: stoppedEarly, paused: paused, loadedPaths: newlyLoaded, loadedBytes: newlyLoadedBytes)
    }

    /// A full block's posts: the largest block's count (`fullBlock` in `search.js`). A block without a hit says a word
    /// is rare (the directory, which names the blocks holding each token, then pays for itself) only once that many
    /// posts had none: the notices and the newest, partial block are smaller.
    var fullBlock: Int { blocks.map(\.count).max().map { max($0, 1) } ?? 1 }

    /// The tokens a run reads for `plan` once every one of them has been read in a block: the
    /// ``SearchRecordLayout/tokensPerWord`` rarest by positions per block read (`seen`: positions, blocks), then by
    /// their UTF-16 code units, as `search.js`'s `wordTokens` orders them; all of them for an exact word, a word of few
    /// tokens, or before a block has read them all.
    static func readTokens(of plan: SearchQueryPlan, seen: [String: (positions: Int, blocks: Int)]) -> [String] {
        let keep = SearchRecordLayout.tokensPerWord
        guard !plan.exact, plan.tokens.count > keep else { return plan.tokens }
        var rated: [(token: String, positions: Int, blocks: Int)] = []
        for token in plan.tokens {
            guard let counts = seen[token] else { return plan.tokens }
            rated.append((token, counts.positions, counts.blocks))
        }
        rated.sort { lhs, rhs in
            let (left, right) = (lhs.positions * rhs.blocks, rhs.positions * lhs.blocks)
            return left != right ? left < right : lhs.token.utf16.lexicographicallyPrecedes(rhs.token.utf16)
        }
        return rated.prefix(keep).map(\.token)
    }

    /// The positions (ascending) of the block `blockId` whose posts match every word of `query` in `target`: what
    /// ``search(_:target:boardId:limit:displayed:byteBudget:)`` finds in that block.
    package func positions(matching query: String, target: SearchTarget, inBlock blockId: String) throws -> [Int] {
        let plans = SearchQueryPlan.plans(for: query)
        guard !plans.isEmpty, let block = blocks.first(where: { $0.id == blockId }) else { return [] }
        let matcher = try BlockMatcher(reader: self, block: block, plans: plans, target: target, boardId: nil)
        return try matcher.candidates.filter { try matcher.matches($0) != nil }.sorted()
    }

    /// The post id of a hit (read without counting the load, for tests).
    public func postId(of hit: Hit) throws -> Int {
        counting = false
        defer { counting = true }
        guard let postId = try meta(of: hit)[SearchRecordLayout.Meta.postId.rawValue] as? Int else {
            throw SearchIndexError(path: metaPath(blockIndex: hit.blockIndex, position: hit.position), reason: .malformedFile(detail: "no post id"))
        }
        return postId
    }

    // MARK: - Shards

    /// The metadata record of a post (fields in ``SearchRecordLayout/Meta`` order).
    func meta(of hit: Hit) throws -> [Any] {
        try meta(blockIndex: hit.blockIndex, position: hit.position, viaHead: hit.contentsCandidate)
    }

    /// The metadata record of a post, as `search.js`'s `meta` reads it: from the post's head when `viaHead` (a post whose
    /// contents may hold a word: its head is read anyway), else from its group's metadata shard.
    func meta(blockIndex: Int, position: Int, viaHead: Bool) throws -> [Any] {
        let head = headPath(blockIndex: blockIndex, position: position)
        if viaHead {
            guard let payload = try shard(head) as? [Any], let record = payload.first as? [Any] else {
                throw SearchIndexError(path: head, reason: .malformedFile(detail: "no record in the head of position \(position)"))
            }
            return record
        }
        let path = metaPath(blockIndex: blockIndex, position: position)
        guard let records = try shard(path) as? [[Any]], position % metaShardSize < records.count else {
            throw SearchIndexError(path: path, reason: .malformedFile(detail: "no record for position \(position)"))
        }
        return records[position % metaShardSize]
    }

    func metaPath(blockIndex: Int, position: Int) -> String {
        "search/" + SearchRecordLayout.metaShardId(blockId: blocks[blockIndex].id, group: position / metaShardSize) + ".js"
    }

    /// What has been read of a post's contents: its pieces so far (each a shard, in order), their text and normal
    /// form (UTF-8), and whether every cut so far is one the builder makes between code points that no normalisation
    /// or grapheme rule joins (``SearchBlockEncoder/pieces(of:target:limit:)``), so that the normal form so far is the
    /// start of the whole's.
    struct ContentsProgress {
        var paths: [String]
        var read = 0
        var text = ""
        var normalized: [UInt8] = []
        var clean = true
        var complete: Bool { read == paths.count }
    }

    /// The contents of a post read piece by piece, as `search.js`'s `contentsUntil` reads them: until `enough(progress,
    /// from)` (`from`: where the normal form grew this time, 0 when asked again) says the text so far settles what is
    /// asked, or to the end. `enough` must stay true once true (the text only grows), so a question asked again of
    /// the pieces read already is answered at the last of them.
    @discardableResult
    func contents(blockIndex: Int, position: Int, until enough: (ContentsProgress, Int) -> Bool) throws -> ContentsProgress {
        let key = blockIndex << 32 | position
        var progress: ContentsProgress
        // Taken out of the cache while it grows (put back on every path), so that appending a piece copies nothing.
        if let cached = contentsRead.removeValue(forKey: key) {
            progress = cached
        } else {
            let record = try meta(blockIndex: blockIndex, position: position, viaHead: true)
            progress = ContentsProgress(paths: contentsPaths(blockIndex: blockIndex, position: position, record: record))
        }
        defer { contentsRead[key] = progress }
        if progress.read > 0, !progress.complete, progress.clean, enough(progress, 0) { return progress }
        while !progress.complete {
            let from = progress.normalized.count
            let path = progress.paths[progress.read]
            // The head is `[record, text]`, a further piece `[text]`; a third or second element marks an unclean cut.
            let textIndex = progress.read == 0 ? 1 : 0
            guard let payload = try shard(path) as? [Any], payload.count > textIndex, let piece = payload[textIndex] as? String else {
                throw SearchIndexError(path: path, reason: .malformedFile(detail: "no contents piece"))
            }
            progress.text += piece
            progress.normalized += TextNormalizer.normalize(piece).utf8
            if payload.count > textIndex + 1 { progress.clean = false }
            progress.read += 1
            if progress.complete, !progress.clean {
                // A cut the builder had to make elsewhere: the whole text is normalised as one.
                progress.normalized = Array(TextNormalizer.normalize(progress.text).utf8)
                progress.clean = true
            }
            if !progress.complete, progress.clean, enough(progress, from) { return progress }
        }
        return progress
    }

    /// The whole contents of a post.
    func contents(blockIndex: Int, position: Int) throws -> String {
        try contents(blockIndex: blockIndex, position: position) { _, _ in false }.text
    }

    /// Whether normalised `word` is in a post's contents, read until it is found (`search.js`'s `contentsHold`).
    func contentsHold(blockIndex: Int, position: Int, word: String) throws -> Bool {
        let needle = Array(word.utf8)
        func found(_ progress: ContentsProgress, from: Int) -> Bool {
            Bytes.firstIndex(of: needle, in: progress.normalized, from: max(0, from - needle.count + 1)) != nil
        }
        return found(try contents(blockIndex: blockIndex, position: position, until: found), from: 0)
    }

    /// Reads what a result row's snippet is made from (`search.js`'s `snippetContents`): the contents until the
    /// excerpt around the first match is the whole text's, or to the end.
    func readSnippetContents(blockIndex: Int, position: Int, words: [String]) throws {
        let needles = words.map { Array($0.utf8) }
        let longest = words.map(\.unicodeScalars.count).max() ?? 0
        var seen = false  // whether a word is in the normal form so far (looked for where it grew)
        try contents(blockIndex: blockIndex, position: position) { progress, from in
            seen = seen || needles.contains { Bytes.firstIndex(of: $0, in: progress.normalized, from: max(0, from - $0.count + 1)) != nil }
            return seen && TextHighlighter.snippetSettled(progress.text, needles: needles, longest: longest)
        }
    }

    /// The normalised text of a field of a post, loading its metadata shard or its head (`viaHead`: see
    /// ``meta(blockIndex:position:viaHead:)``) and contents pieces.
    func normalizedText(of field: SearchField, blockIndex: Int, position: Int, viaHead: Bool) throws -> String {
        let key = "\(blockIndex)/\(position)/\(field.rawValue)"
        if let cached = normalizedTexts[key] { return cached }
        let text: String
        switch field {
        case .title, .writer:
            let meta = try meta(blockIndex: blockIndex, position: position, viaHead: viaHead)
            text = (meta[(field == .title ? SearchRecordLayout.Meta.title : .writer).rawValue] as? String) ?? ""
        case .contents: text = try contents(blockIndex: blockIndex, position: position)
        }
        let normalized = TextNormalizer.normalize(text)
        normalizedTexts[key] = normalized
        return normalized
    }

    /// The posting lists of `token` in a block (`[title, contents, writer]`), loading its bucket shard.
    func postingLists(of token: String, blockIndex: Int) throws -> [[Int]] {
        let path = postingPath(of: token, blockIndex: blockIndex)
        if let cached = decodedLists[path + "\u{0}" + token] { return cached }
        let entries: [String]
        if let typed = postingEntries[path] {
            entries = typed
        } else {
            let json: Any
            if let cached = cache[path] {
                json = cached
            } else {
                // An empty bucket has no file; the bytes read to find out are the ones parsed.
                guard !missing.contains(path), let data = load(path) else {
                    missing.insert(path)
                    return PostingCodec.noLists
                }
                json = try shard(path, data: data)
            }
            guard let typed = json as? [String] else {
                throw SearchIndexError(path: path, reason: .malformedFile(detail: "not a list"))
            }
            // Cast once per shard: a cast of the parsed array per token was half of matching the keywords.
            postingEntries[path] = typed
            entries = typed
        }
        var index = 0
        while index + 1 < entries.count {
            if entries[index] == token {
                let lists = PostingCodec.decodeLists(entries[index + 1])
                decodedLists[path + "\u{0}" + token] = lists
                return lists
            }
            index += 2
        }
        return PostingCodec.noLists
    }

    /// What the index files not loaded yet that verifying and showing a candidate reads are expected to weigh: its
    /// metadata shard, or when a word may be in its contents (``BlockMatcher/isContentsCandidate(_:)``) its head and then
    /// the next contents piece it reads (contents are read piece by piece until what is asked is settled).
    func candidateBytes(blockIndex: Int, position: Int, matcher: BlockMatcher) -> Int {
        typealias Kind = SearchRecordLayout.FileKind
        guard matcher.isContentsCandidate(position) else {
            return unloaded([metaPath(blockIndex: blockIndex, position: position)]) * Kind.meta.estimate
        }
        let head = headPath(blockIndex: blockIndex, position: position)
        guard let payload = cache[head] as? [Any], let record = payload.first as? [Any] else { return unloaded([head]) * Kind.contents.estimate }
        return min(1, unloaded(contentsPaths(blockIndex: blockIndex, position: position, record: record))) * Kind.contents.estimate
    }

    /// The head of a post: its metadata record and the first piece of its contents.
    func headPath(blockIndex: Int, position: Int) -> String {
        contentsPath(blockIndex: blockIndex, position: position, piece: 0)
    }

    /// Piece `piece` of a post's contents (0: its head).
    func contentsPath(blockIndex: Int, position: Int, piece: Int) -> String {
        let (group, index) = position.quotientAndRemainder(dividingBy: metaShardSize)
        return "search/" + SearchRecordLayout.contentsShardId(blockId: blocks[blockIndex].id, group: group, index: index, piece: piece) + ".js"
    }

    /// The files a post's contents span, its head first, as its metadata record counts them.
    func contentsPaths(blockIndex: Int, position: Int, record: [Any]) -> [String] {
        typealias Meta = SearchRecordLayout.Meta
        let count = record.count == Meta.allCases.count ? (record[Meta.contentsCount.rawValue] as? Int) ?? 1 : 1
        return (0..<max(count, 1)).map { contentsPath(blockIndex: blockIndex, position: position, piece: $0) }
    }

    /// How many of `paths` are neither loaded nor known to be missing.
    func unloaded(_ paths: [String]) -> Int {
        Set(paths).filter { cache[$0] == nil && !missing.contains($0) }.count
    }

    /// The posting shard of `token` in a block.
    func postingPath(of token: String, blockIndex: Int) -> String {
        let block = blocks[blockIndex]
        return "search/\(SearchIndexFormat.postingShardId(blockId: block.id, bucket: SearchTokenizer.bucket(of: token, count: block.buckets))).js"
    }

    /// The block-directory shard of `token`.
    func directoryPath(of token: String) -> String {
        "search/d\(SearchTokenizer.bucket(of: token, count: directoryBuckets)).js"
    }

    /// The stable numbers of the blocks that hold `token`, from the block directory.
    func directoryBlocks(of token: String) throws -> [Int] {
        let path = directoryPath(of: token)
        if cache[path] == nil, load(path) == nil {
            missing.insert(path)
            return []
        }
        guard let entries = try shard(path) as? [String] else { throw SearchIndexError(path: path, reason: .malformedFile(detail: "not a list")) }
        var index = 0
        while index + 1 < entries.count {
            if entries[index] == token { return PostingCodec.decode(entries[index + 1]) }
            index += 2
        }
        return []
    }

    private func shard(_ path: String, data: Data? = nil) throws -> Any {
        if let cached = cache[path] { return cached }
        let parsed = try data.map { data in try Self.parse(path: path) { _ in data } } ?? Self.parse(path: path, load: load)
        cache[path] = parsed.json
        if counting {
            newlyLoaded.append(path)
            newlyLoadedBytes += parsed.bytes
        }
        return parsed.json
    }

    /// The JSON of index file `path` as `load` gives its bytes, and its size; throws when it is missing or not a loader
    /// script of the size it declares.
    package static func parse(path: String, load: (String) -> Data?) throws -> (json: Any, bytes: Int) {
        guard let data = load(path) else { throw SearchIndexError(path: path, reason: .missingFile) }
        guard let (_, json, declared) = SearchScript.unwrap(data), declared == data.count else {
            throw SearchIndexError(path: path, reason: .malformedFile(detail: "not a loader script"))
        }
        guard let value = SearchJSON.parse(json) else { throw SearchIndexError(path: path, reason: .malformedFile(detail: "invalid JSON")) }
        return (value, data.count)
    }
}
