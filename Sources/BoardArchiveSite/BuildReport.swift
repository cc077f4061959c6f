/// What a build produced and what it changed on disk.
public struct BuildReport: Sendable, Equatable {
    /// The kinds of files a build writes.
    public enum FileKind: String, Sendable, Equatable, Hashable, CaseIterable, Comparable {
        case home, board, post, version, search, keyword, feed, asset, media, other

        public static func < (lhs: FileKind, rhs: FileKind) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }

    /// Files rendered (or copied) because what they are made from changed since the previous build, or there was none.
    public var rendered: Int = 0
    /// Files whose bytes are new or changed (written to disk).
    public var written: Int = 0
    /// Files kept as they were (modification time unchanged): made from the same inputs, or rendered to the same bytes.
    public var unchanged: Int = 0
    /// Files of the previous build that this build no longer produces (deleted).
    public var removed: Int = 0
    /// Posts a redaction removed from the site (each shown as a tombstone page at its address).
    public var redacted: Int = 0
    /// Files produced, by kind (written + unchanged).
    public var files: [FileKind: Int] = [:]
    /// The output folder, as an absolute path.
    public var outputPath: String = ""
    /// Boards whose listing the build read: 0 when nothing the board and post pages are made from changed.
    public var boardsRead: Int = 0
    /// Search-index blocks patched from the previous build's files because a few of their posts changed (the others
    /// were kept or encoded whole).
    public var searchBlocksPatched: Int = 0

    /// Creates an empty report.
    public init() {}

    /// All files produced (written + unchanged).
    public var total: Int { written + unchanged }
}
