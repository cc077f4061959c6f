/// The spelling of the search index's files, declared once: the bucket hash, the posting lists' alphabet and forms, the
/// token that lists a board, block ids and their numbering, and shard ids.
///
/// The builder and ``SearchIndexReader`` use these; the index manifest hands them to `search.js` as its `format` object
/// (beside ``SearchRecordLayout``'s `layout`), so the browser engine spells none of them itself — a test fails if
/// `search.js` holds one of these values as a literal:
///
/// ```json
/// "format": {"hash": [2166136261, 16777619], "alphabet": "0123…-_", "bitmap": "!", "bitmapBits": 6, "digitBits": 5,
///            "separator": ".", "boardToken": "#b:", "blocks": {"plain": "n", "notice": "t", "stride": 2},
///            "shards": {"directory": "d", "postings": "/p", "meta": "/m", "contents": "/c", "part": "-"}}
/// ```
package enum SearchIndexFormat {
    /// FNV-1a over a token's UTF-8 bytes, 32 bits, chooses its bucket among a power of two: the offset basis.
    static let hashOffset: UInt32 = 0x811C_9DC5
    /// FNV-1a's prime (32 bits).
    static let hashPrime: UInt32 = 0x0100_0193

    /// The bucket of `token` among `count` (a power of two).
    static func bucket(of token: String, count: Int) -> Int {
        var hash = hashOffset
        for byte in token.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* hashPrime
        }
        return Int(hash & UInt32(count - 1))
    }

    /// The 64 letters of a posting list, by value; none needs escaping in JSON or JavaScript.
    static let alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
    /// The first letter of a posting list written as a bitmap (``bitmapBits`` positions a letter); any other list is
    /// gaps in digits of ``digitBits`` bits, most significant first, a letter of value 2^digitBits or more carrying on.
    static let bitmapMarker = "!"
    /// Positions per letter of a bitmap.
    static let bitmapBits = 6
    /// Bits per digit of a gap.
    static let digitBits = 5
    /// Between the posting lists of one token (one per ``SearchField``, in the layout's order).
    package static let listSeparator = "."

    /// The prefix of the token that lists a board's posts in a block (in the title slot); longer than any gram.
    static let boardTokenPrefix = "#b:"

    /// The prefix of a block of posts, and of a block of notices.
    static let plainBlockPrefix = "n"
    static let noticeBlockPrefix = "t"
    /// Block `k` of posts is number `k * stride`, of notices `k * stride + 1`, in the directory.
    static let blockNumberStride = 2

    /// `n<k>` or `t<k>`.
    package static func blockId(notice: Bool, index: Int) -> String { (notice ? noticeBlockPrefix : plainBlockPrefix) + String(index) }

    /// Whether a block id names a block of notices.
    package static func isNoticeBlock(_ id: String) -> Bool { id.hasPrefix(noticeBlockPrefix) }

    /// The stable number of a block in the directory.
    static func blockNumber(_ id: String) -> Int {
        let notice = isNoticeBlock(id)
        let index = Int(id.dropFirst((notice ? noticeBlockPrefix : plainBlockPrefix).count)) ?? 0
        return index * blockNumberStride + (notice ? 1 : 0)
    }

    /// Shard ids (a shard's file is `search/<id>.js`): directory bucket `k` is `d<k>`; a block's posting bucket `k`
    /// is `<block>/p<k>`, its metadata of group `g` `<block>/m<g>`; the head of the post at index `i` of group `g`
    /// (its record and first contents piece) `<block>/c<g>-<i>`, its contents piece `k` (from 1) `<block>/c<g>-<i>-<k>`.
    static let directoryShard = "d"
    static let postingShard = "/p"
    static let metaShard = "/m"
    static let contentsShard = "/c"
    static let contentsPart = "-"

    static func directoryShardId(bucket: Int) -> String { directoryShard + String(bucket) }
    static func postingShardId(blockId: String, bucket: Int) -> String { blockId + postingShard + String(bucket) }
    static func metaShardId(blockId: String, group: Int) -> String { blockId + metaShard + String(group) }
    /// A post's head (`piece` 0) or one of its further contents pieces, named by the post's place, so that a post whose
    /// contents changed moves no other post's files.
    static func contentsShardId(blockId: String, group: Int, index: Int, piece: Int) -> String {
        contentsGroupPrefix(blockId: blockId, group: group) + String(index) + (piece == 0 ? "" : contentsPart + String(piece))
    }

    /// What the ids of every head and contents piece of a group start with: `<block>/c<g>-`.
    static func contentsGroupPrefix(blockId: String, group: Int) -> String {
        blockId + contentsShard + String(group) + contentsPart
    }

    /// The manifest's `format` object.
    static var manifestObject: SearchJSON {
        .object([
            ("hash", .array([.int(Int(hashOffset)), .int(Int(hashPrime))])),
            ("alphabet", .string(alphabet)),
            ("bitmap", .string(bitmapMarker)),
            ("bitmapBits", .int(bitmapBits)),
            ("digitBits", .int(digitBits)),
            ("separator", .string(listSeparator)),
            ("boardToken", .string(boardTokenPrefix)),
            ("blocks", .object([("plain", .string(plainBlockPrefix)), ("notice", .string(noticeBlockPrefix)), ("stride", .int(blockNumberStride))])),
            (
                "shards",
                .object([
                    ("directory", .string(directoryShard)), ("postings", .string(postingShard)), ("meta", .string(metaShard)),
                    ("contents", .string(contentsShard)), ("part", .string(contentsPart)),
                ])
            ),
        ])
    }
}
