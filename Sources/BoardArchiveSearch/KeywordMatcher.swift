import BoardArchiveModel

/// Which documents hold a keyword, found in their text: each word of the keyword (``TextNormalizer/normalizedQueryWords(_:)``)
/// in the normal form of the title, the writer or the contents, compared as bytes. That is the brute-force answer of a
/// search on target `all`, which the index's block matcher gives too (`SearchOracleTests` holds the two equal).
///
/// The build matches its keywords with it against the posts of each search block as the store holds them: reading them
/// back from the written index instead (parsing every contents shard, normalising every piece) was most of the keyword
/// matches step.
package struct KeywordMatcher: Sendable {
    /// Per keyword, its normalised words as UTF-8.
    private let words: [[[UInt8]]]

    package init(keywords: [String]) {
        words = keywords.map { TextNormalizer.normalizedQueryWords($0).map { Array($0.utf8) } }
    }

    /// For each keyword, in the order given, the positions in `documents` that hold it, ascending. A keyword without
    /// words matches nothing.
    package func positions(in documents: [SearchDocument]) -> [[Int]] {
        var result = [[Int]](repeating: [], count: words.count)
        for (position, document) in documents.enumerated() {
            let fields = [document.title, document.writer, document.contents].map(TextNormalizer.normalizedUTF8)
            for (index, keyword) in words.enumerated() where !keyword.isEmpty {
                if keyword.allSatisfy({ word in fields.contains { Bytes.firstIndex(of: word, in: $0) != nil } }) {
                    result[index].append(position)
                }
            }
        }
        return result
    }
}
