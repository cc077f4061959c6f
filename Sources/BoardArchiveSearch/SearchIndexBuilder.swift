import BoardArchiveModel
import Foundation

/// Writes the sharded search index: classic scripts under `search/` that `search.js` loads on demand.
///
/// Layout (every path relative to the site root):
/// - `search/manifest.js`: the blocks in search order, the boards, the keyword pages.
/// - `search/d<k>.js`: block directory shard `k`: for each token whose hash falls in bucket `k`, the blocks holding it.
/// - `search/<block>/p<k>.js`: posting shard `k` of a block, the tokens whose FNV-1a hash falls in bucket `k`.
/// - `search/<block>/m<k>.js`: metadata of the block's posts `64k ..< 64(k+1)` (row fields, title, writer).
/// - `search/<block>/c<k>.js`: raw contents of a run of the block's posts, packed to about 12 kB.
///
/// Posts are split into notices and the rest; each group is sorted oldest first (ties by `postId`) and cut into
/// blocks of `blockSize` (`t0, t1, …` and `n0, n1, …`), so a new post changes only the newest block. Reading
/// the notice blocks newest first and then the other blocks newest first, each from its last post to its first,
/// yields the listing order (notices first, newest first, ties by `postId` descending) without any sorting.
public struct SearchIndexBuilder: Sendable {
    public var configuration: SearchIndexConfiguration

    public init(configuration: SearchIndexConfiguration = SearchIndexConfiguration()) {
        self.configuration = configuration
    }

    /// Makes every index file of `documents`, keyed by its path relative to the site root; equal input, equal bytes.
    ///
    /// `keywords` are the keyword pages the search page links to when a query equals one of them.
    /// Throws when a file would exceed `maximumFileBytes` (only possible with titles of thousands of characters).
    public func makeSearchIndex(for documents: [SearchDocument], keywords: [SearchKeywordLink] = []) throws -> [String: Data] {
        try makeSearchIndex(for: documents) { _ in keywords }
    }

    /// Makes the index, then asks `keywords` for the keyword pages with a reader over the finished index (the
    /// keyword pages list what the search page finds) and writes them into the manifest.
    func makeSearchIndex(for documents: [SearchDocument], keywords: (SearchIndexReader) throws -> [SearchKeywordLink]) throws -> [String: Data] {
        let blocks = Self.blocks(of: documents, size: configuration.blockSize)
        let configuration = self.configuration
        let encodedBlocks = try concurrentMap(blocks.count) { index in
            try SearchBlockEncoder(configuration: configuration).encode(blocks[index].documents, blockId: blocks[index].id)
        }
        var files: [String: Data] = [:]
        var entries: [ManifestBlock] = []
        var directory = SearchDirectory()
        for (index, block) in blocks.enumerated() {
            let encoded = encodedBlocks[index]
            files.merge(encoded.files) { first, _ in first }
            entries.append(ManifestBlock(id: block.id, count: block.documents.count, postingBuckets: encoded.postingBuckets))
            directory.add(encoded.tokens, block: Self.blockNumber(block.id))
        }
        let (directoryFiles, directoryBuckets) = directory.files(targetBytes: configuration.directoryShardTargetBytes)
        files.merge(directoryFiles) { first, _ in first }
        var boards: [Int: String] = [:]
        for document in documents where boards[document.boardId] == nil { boards[document.boardId] = document.boardName }
        func manifest(_ keywords: [SearchKeywordLink]) -> Data {
            Self.manifest(
                configuration: configuration, blocks: entries, total: documents.count, directoryBuckets: directoryBuckets, boards: boards,
                keywords: keywords)
        }
        files[Self.manifestPath] = manifest([])
        files[Self.manifestPath] = manifest(try keywords(try SearchIndexReader(files: files)))
        for (path, data) in files where data.count > configuration.maximumFileBytes {
            throw SearchIndexError(path: path, reason: .fileTooLarge(bytes: data.count, limit: configuration.maximumFileBytes))
        }
        return files
    }

    /// The manifest's path relative to the site root.
    public static let manifestPath = "search/manifest.js"

    /// A block as the manifest lists it.
    package struct ManifestBlock: Sendable, Equatable {
        var id: String
        var count: Int
        var postingBuckets: Int

        package init(id: String, count: Int, postingBuckets: Int) {
            self.id = id
            self.count = count
            self.postingBuckets = postingBuckets
        }
    }

    /// `search/manifest.js`: the record layout and byte budget (``SearchRecordLayout``), the blocks in search order, the
    /// total, the directory's bucket count, the boards and the keyword pages.
    package static func manifest(
        configuration: SearchIndexConfiguration, blocks: [ManifestBlock], total: Int, directoryBuckets: Int, boards: [Int: String],
        keywords: [SearchKeywordLink]
    ) -> Data {
        let object = SearchJSON.object([
            ("v", .int(3)),
            ("layout", SearchRecordLayout.manifestObject),
            ("format", SearchIndexFormat.manifestObject),
            ("m", .int(configuration.metaShardSize)),
            ("total", .int(total)),
            ("d", .int(directoryBuckets)),
            ("blocks", .array(blocks.map { .array([.string($0.id), .int($0.count), .int($0.postingBuckets)]) })),
            ("boards", .array(boards.keys.sorted().map { .array([.int($0), .string(boards[$0] ?? "")]) })),
            (
                "keywords",
                .array(
                    keywords.map {
                        .array([.string(TextNormalizer.normalizedQueryWords($0.keyword).joined(separator: " ")), .string($0.path), .int($0.count)])
                    })
            ),
        ])
        return SearchScript.wrap(shardId: "manifest", payload: object)
    }

    /// The stable number of a block in the directory: `2k` for `n<k>`, `2k + 1` for the notice block `t<k>`.
    package static func blockNumber(_ id: String) -> Int { SearchIndexFormat.blockNumber(id) }

    /// Cuts the documents into notice blocks and other blocks, each oldest first, in search order (newest block first).
    package static func blocks(of documents: [SearchDocument], size: Int) -> [(id: String, documents: [SearchDocument])] {
        func chronological(_ lhs: SearchDocument, _ rhs: SearchDocument) -> Bool {
            lhs.createdDateTime != rhs.createdDateTime ? lhs.createdDateTime < rhs.createdDateTime : lhs.postId < rhs.postId
        }
        var result: [(id: String, documents: [SearchDocument])] = []
        for (prefix, group) in [("t", documents.filter(\.isNotice)), ("n", documents.filter { !$0.isNotice })] {
            let sorted = group.sorted(by: chronological)
            let count = (sorted.count + size - 1) / size
            for number in stride(from: count - 1, through: 0, by: -1) {
                let slice = Array(sorted[(number * size)..<min(sorted.count, (number + 1) * size)])
                result.append(("\(prefix)\(number)", slice))
            }
        }
        return result
    }
}

/// A keyword page the search page links to when the query equals its keyword.
public struct SearchKeywordLink: Sendable, Equatable {
    public var keyword: String
    /// The page's path relative to the site root, such as `keywords/k-ec849cec9ab8.html`.
    public var path: String
    /// How many posts the page lists.
    public var count: Int

    public init(keyword: String, path: String, count: Int) {
        self.keyword = keyword
        self.path = path
        self.count = count
    }
}
