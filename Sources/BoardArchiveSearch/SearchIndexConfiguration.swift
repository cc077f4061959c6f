/// The knobs of the sharded search index; the defaults keep every file under 1 MB and a first query small.
public struct SearchIndexConfiguration: Sendable, Equatable {
    /// Posts per block (default 2,048). Blocks hold consecutive posts in chronological order, so a new post
    /// changes only the newest block's files; notices have their own blocks.
    public var blockSize: Int
    /// The size a posting shard aims at, in bytes (default 3,000); a block gets the power-of-two number of
    /// token-hash buckets that brings its average posting shard under this size. A query of several words reads a
    /// posting shard per bigram per block, so smaller shards leave more of a first query's budget for its rows.
    public var postingShardTargetBytes: Int
    /// Posts per metadata shard (default 8): title, writer, board, date and counts of a run of posts. A result row
    /// reads its post's shard, and the rows of a query of two common words are about a hundred posts apart.
    public var metaShardSize: Int
    /// The size a contents shard aims at, in bytes (default 2,000); posts are packed in order until it is reached.
    /// A row's snippet reads its post's shard, so a small target keeps a row cheap; a longer post has its own.
    public var contentsShardTargetBytes: Int
    /// The size a block-directory shard aims at, in bytes (default 4,000). The directory tells, per token, which
    /// blocks hold it, so a query skips the blocks that cannot match.
    public var directoryShardTargetBytes: Int
    /// The hard cap on any index file, in bytes (default 1,000,000).
    public var maximumFileBytes: Int

    public init(
        blockSize: Int = 2_048, postingShardTargetBytes: Int = 3_000, metaShardSize: Int = 8, contentsShardTargetBytes: Int = 2_000,
        directoryShardTargetBytes: Int = 4_000, maximumFileBytes: Int = 1_000_000
    ) {
        precondition(
            blockSize > 0 && metaShardSize > 0 && postingShardTargetBytes > 0 && contentsShardTargetBytes > 0 && directoryShardTargetBytes > 0)
        precondition(maximumFileBytes >= 4_096, "the file cap must leave room for one contents piece")
        self.blockSize = blockSize
        self.postingShardTargetBytes = postingShardTargetBytes
        self.metaShardSize = metaShardSize
        self.contentsShardTargetBytes = contentsShardTargetBytes
        self.directoryShardTargetBytes = directoryShardTargetBytes
        self.maximumFileBytes = maximumFileBytes
    }
}
