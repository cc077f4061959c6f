import BoardArchiveModel
import Foundation

/// The block directory of the search index: for each gram token, the stable numbers of the blocks holding it.
///
/// Written as `search/d<k>.js` (flat `[token, blocks, …]`, blocks encoded by ``PostingCodec``), the token's
/// FNV-1a hash choosing the bucket. A rebuild starts from the previous build's directory, drops the blocks that
/// changed, and adds the tokens of the blocks it encoded, so unchanged blocks are never read again.
package struct SearchDirectory {
    /// Token → block numbers (unsorted until written).
    private(set) var blocks: [String: [Int]] = [:]

    package init() {}

    /// Adds the tokens of block `number`.
    package mutating func add(_ tokens: [String], block number: Int) {
        for token in tokens { blocks[token, default: []].append(number) }
    }

    /// Adds the entries of a previous directory, keeping only the blocks in `kept`.
    ///
    /// - Throws: ``SearchIndexError`` when a file is not a directory shard.
    package mutating func addPrevious(files: [(path: String, data: Data)], keeping kept: Set<Int>) throws {
        for (path, data) in files {
            guard let (_, json, _) = SearchScript.unwrap(data),
                let entries = SearchJSON.parse(json) as? [String]
            else { throw SearchIndexError(path: path, reason: .malformedFile(detail: "not a directory shard")) }
            var index = 0
            while index + 1 < entries.count {
                let numbers = PostingCodec.decode(entries[index + 1]).filter(kept.contains)
                if !numbers.isEmpty { blocks[entries[index], default: []].append(contentsOf: numbers) }
                index += 2
            }
        }
    }

    /// The directory's files by path, and the number of buckets (a power of two).
    package func files(targetBytes: Int) -> (files: [String: Data], buckets: Int) {
        let entries = Bytes.sortedByUTF8(blocks.map { ($0.key, PostingCodec.encode(Set($0.value).sorted())) }, key: \.0)
        let total = entries.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 6 }
        var buckets = 1
        while buckets < 65_536 && total > buckets * targetBytes { buckets *= 2 }
        var groups = [[SearchJSON]](repeating: [], count: buckets)
        for (token, blocks) in entries {
            let bucket = SearchTokenizer.bucket(of: token, count: buckets)
            groups[bucket].append(.string(token))
            groups[bucket].append(.string(blocks))
        }
        var files: [String: Data] = [:]
        for (bucket, group) in groups.enumerated() where !group.isEmpty {
            let id = SearchIndexFormat.directoryShardId(bucket: bucket)
            files["search/\(id).js"] = SearchScript.wrap(shardId: id, payload: .array(group))
        }
        return (files, buckets)
    }
}
