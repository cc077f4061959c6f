/// The layout of the search index's records and the byte budget of one run of a search, declared once.
///
/// ``SearchBlockEncoder`` writes the records in this order, ``SearchIndexReader`` reads them by it, and the index
/// manifest hands it to `search.js` as its `layout` object, so the browser engine has no numbers of its own:
///
/// ```json
/// "layout": {"meta": {"postId": 0, …, "contentsCount": 10}, "postings": {"title": 0, "contents": 1, "writer": 2},
///            "budget": 112000, "tokensPerWord": 2,
///            "estimates": {"directory": 3500, "postings": 2500, "meta": 950, "contents": 1050}}
/// ```
package enum SearchRecordLayout {
    /// The fields of a post's metadata record, in the record's order.
    package enum Meta: Int, CaseIterable, Sendable {
        case postId, boardId, postType, created, views, comments, attachments, isReply, title, writer
        /// How many pieces the post's contents span: the first in its head, the others in files of their own (at least 1).
        case contentsCount
    }

    /// The id of the metadata shard of a block's group of posts (positions `group * m ..< (group + 1) * m`).
    package static func metaShardId(blockId: String, group: Int) -> String { SearchIndexFormat.metaShardId(blockId: blockId, group: group) }

    /// The id of a post's head (`piece` 0) or further contents piece (``SearchIndexFormat/contentsShardId(blockId:group:index:piece:)``).
    package static func contentsShardId(blockId: String, group: Int, index: Int, piece: Int) -> String {
        SearchIndexFormat.contentsShardId(blockId: blockId, group: group, index: index, piece: piece)
    }

    /// What the ids of a group's heads and contents pieces start with.
    package static func contentsGroupPrefix(blockId: String, group: Int) -> String {
        SearchIndexFormat.contentsGroupPrefix(blockId: blockId, group: group)
    }

    /// The byte budget of one run of a search in the browser.
    ///
    /// With the manifest and the rows of the first page, a first query stays under 150 kB on 100,000 posts
    /// (measured in `Benchmarks/search/RESULTS.md`).
    static let byteBudget = 112_000

    /// How many of a long word's bigrams a search reads once it has read a block: the rarest, by their positions per
    /// block read so far (``SearchIndexReader/readTokens(of:seen:)``, `wordTokens` in `search.js`). Any of a word's
    /// bigrams is in every post holding the word, and a word of three or more code points is verified in the text, so
    /// the answer is the same; a block then costs a long word two posting shards instead of one per bigram.
    package static let tokensPerWord = 2

    /// The kinds of index file a step of a search may read, each with what a file of its kind not loaded yet is
    /// expected to weigh (``estimate``).
    package enum FileKind: String, CaseIterable, Sendable {
        case directory, postings, meta, contents

        /// About the average file of the kind on the benchmark archives of 100,000 and 1,000,000 posts, at the
        /// default ``SearchIndexConfiguration`` (`Benchmarks/search/first-page.js` prints them): directory shards
        /// aim at 4,000 bytes, posting shards at 3,000, a metadata shard holds 8 posts (about 950 bytes); a post's head
        /// holds its record and at most about 2,000 bytes of its contents (most posts are shorter), and each further piece
        /// about 2,000.
        package var estimate: Int {
            switch self {
            case .directory: 3_500
            case .postings: 2_500
            case .meta: 950
            case .contents: 1_050
            }
        }
    }

    /// A metadata record: `value` of every field, in order (a `switch` over ``Meta`` in the caller names each one).
    static func record(_ value: (Meta) -> SearchJSON) -> SearchJSON {
        .array(Meta.allCases.map(value))
    }

    /// The manifest's `layout` object.
    static var manifestObject: SearchJSON {
        .object([
            ("meta", .object(Meta.allCases.map { ("\($0)", .int($0.rawValue)) })),
            ("postings", .object(SearchField.allCases.map { ("\($0)", .int($0.rawValue)) })),
            ("budget", .int(byteBudget)),
            ("tokensPerWord", .int(tokensPerWord)),
            ("estimates", .object(FileKind.allCases.map { ("\($0)", .int($0.estimate)) })),
        ])
    }
}
