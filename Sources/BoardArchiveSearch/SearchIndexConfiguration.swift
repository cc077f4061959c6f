/// The knobs of the sharded search index; the defaults keep every file under 1 MB and a first query small.
public struct SearchIndexConfiguration: Sendable, Equatable {
    /// Posts per block (default 2,048). Blocks hold consecutive posts in chronological order, so a new post
    /// changes only the newest block's files; notices have their own blocks.
    public var blockSize: Int
    /// The size a posting shard aims at, in bytes (default 6,000); a block gets the power-of-two number of
    /// token-hash buckets that brings its average posting shard under this size.
    public var postingShardTargetBytes: Int
    /// Posts per metadata shard (default 32): title, writer, board, date and counts of a run of posts.
    public var metaShardSize: Int
    /// The size a contents shard aims at, in bytes (default 8,000); posts are packed in order until it is reached.
    public var contentsShardTargetBytes: Int
    /// The size a block-directory shard aims at, in bytes (default 4,000). The directory tells, per token, which
    /// blocks hold it, so a query skips the blocks that cannot match.
    public var directoryShardTargetBytes: Int
    /// The hard cap on any index file, in bytes (default 1,000,000).
    public var maximumFileBytes: Int

    public init(
        blockSize: Int = 2_048, postingShardTargetBytes: Int = 6_000, metaShardSize: Int = 32, contentsShardTargetBytes: Int = 8_000,
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
